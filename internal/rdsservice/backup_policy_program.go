package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_backup_policy's apply as a program (issue 23 §1): PlanBackupPolicy turns the policy the
// cloud has and the one configured into one ModifyBackupPolicy operation per mode that changes,
// and the one executor runs them. Before each call it reads the instance and the policy again and
// plans again: a policy someone else changed since the plan is decided afresh (the call of this
// mode is rebuilt from the policy as it is, or dropped when nothing is left to change), and a
// configuration the instance now refuses sends nothing (changed-since-plan).

// OpModifyBackupPolicy is one ModifyBackupPolicy call (BackupPolicyMode DataBackupPolicy or
// LogBackupPolicy).
const OpModifyBackupPolicy = "ModifyBackupPolicy"

// BackupPolicyRequest is what rds_backup_policy's apply asks for.
type BackupPolicyRequest struct {
	InstanceID string
	// Region is the provider's region, the source of cross-region backups.
	Region string
	// Desired is the configured policy over the current one: an attribute the configuration
	// leaves out keeps the cloud's value (the resource's model mapping).
	Desired func(current *BackupPolicySpec) BackupPolicySpec
}

// BackupPolicyPlan is the apply's decision: the problems found, or the program.
type BackupPolicyPlan struct {
	Request BackupPolicyRequest
	// Missing: the instance does not exist.
	Missing  bool
	Problems []Problem
	Program  Program
}

// ReadBackupPolicyState reads the instance's backup facts and its policy; facts.Known is false
// (and the policy nil) when the instance does not exist, and a read-only instance has an empty
// policy (the rules say why it has none).
func ReadBackupPolicyState(ctx context.Context, api rdsapi.API, id string) (BackupFacts, *BackupPolicySpec, error) {
	attr, err := api.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		return BackupFacts{}, nil, nil
	}
	if err != nil {
		return BackupFacts{}, nil, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", id, err)
	}
	facts := BackupFactsFromAttribute(attr)
	if facts.ReadOnly {
		return facts, &BackupPolicySpec{}, nil
	}
	p, err := api.DescribeBackupPolicy(ctx, id)
	if err != nil {
		return facts, nil, fmt.Errorf("DescribeBackupPolicy %s: %w", id, err)
	}
	current := BackupPolicyFromAPI(p)
	return facts, &current, nil
}

// PlanBackupPolicy reads the instance and its policy and plans the calls.
func PlanBackupPolicy(ctx context.Context, api rdsapi.API, req BackupPolicyRequest) (BackupPolicyPlan, error) {
	facts, current, err := ReadBackupPolicyState(ctx, api, req.InstanceID)
	if err != nil {
		return BackupPolicyPlan{}, err
	}
	plan := BackupPolicyPlan{Request: req, Missing: !facts.Known}
	if plan.Missing {
		return plan, nil
	}
	desired := req.Desired(current)
	if plan.Problems = CheckBackupPolicy(desired, facts); len(plan.Problems) > 0 {
		return plan, nil
	}
	calls := BackupPolicyCalls(req.InstanceID, *current, desired)
	if desired.CrossRegion != nil && !facts.ReadOnly {
		cross, err := PlanCrossRegion(ctx, api, req.InstanceID, req.Region, *desired.CrossRegion)
		if err != nil {
			return BackupPolicyPlan{}, err
		}
		if plan.Problems = cross.Problems; len(plan.Problems) > 0 {
			return plan, nil
		}
		if cross.Call != nil {
			calls = append(calls, BackupPolicyCall{Cross: cross.Call})
		}
	}
	for _, call := range calls {
		plan.Program.Operations = append(plan.Program.Operations, Operation{Instance: req.InstanceID, Action: OpModifyBackupPolicy,
			When: WhenNow, Effect: EffectNone, BackupPolicy: &call})
	}
	return plan, nil
}

// ExecuteBackupPolicy runs the plan's program with the one executor.
func ExecuteBackupPolicy(ctx context.Context, api rdsapi.API, w *Waiter, plan BackupPolicyPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, BackupPolicy: &plan})
}
