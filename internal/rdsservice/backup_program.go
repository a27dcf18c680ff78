package rdsservice

import (
	"context"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// On-demand backups as programs (issue 23 §1): rds_backup's create and the rds_backup_now action
// run the same OpCreateBackup through the one executor, and rds_backup's destroy runs an
// OpDeleteBackup, or nothing when RDS keeps the set (the plan's warning). The create journal
// (backup_journal.go, and the provider's claim) decides before the program whether an
// interrupted apply's job is adopted; the executor reports the job id through Accepted as soon as
// it is known, before waiting for the set, so a killed apply is found by the next plan.

// Operation kinds of backups.
const (
	OpCreateBackup = "CreateBackup"
	OpDeleteBackup = "DeleteBackup"
)

// BackupCreate is what an OpCreateBackup sends.
type BackupCreate struct {
	Request *rdsapi.CreateBackupRequest
	// AdoptJob is the job an interrupted apply started (the journal's verdict): its set is waited
	// for instead of a new backup.
	AdoptJob string
	// Accepted is called with the job id once the cloud accepted the backup (or the job is adopted).
	Accepted func(job string)
}

// PlanBackupCreate is the program of one on-demand backup.
func PlanBackupCreate(c BackupCreate) Program {
	return Program{Operations: []Operation{{Instance: c.Request.DBInstanceID, Action: OpCreateBackup, When: WhenNow, Effect: EffectNone, Backup: &c}}}
}

// ExecuteBackupCreate runs the backup's program; the Outcome's Backup is the set made.
func ExecuteBackupCreate(ctx context.Context, api rdsapi.API, w *Waiter, c BackupCreate) Outcome {
	return Execute(ctx, api, w, Execution{ID: c.Request.DBInstanceID, Decision: Decision{Program: PlanBackupCreate(c)}})
}

// BackupDeletePlan is the destroy of a backup set: the DeleteBackup and the set it deletes for good
// (Loss), or the warning that RDS keeps the set (no write), or nothing when the set or its
// instance is gone.
type BackupDeletePlan struct {
	InstanceID, BackupID string
	Kept                 *Problem
	Loss                 *DataLoss
	Program              Program
}

// PlanBackupDelete reads the instance and the set (and the retention when RDS keeps the set).
func PlanBackupDelete(ctx context.Context, api rdsapi.API, instanceID, backupID string) (BackupDeletePlan, error) {
	plan := BackupDeletePlan{InstanceID: instanceID, BackupID: backupID}
	attr, err := api.DescribeDBInstanceAttribute(ctx, instanceID)
	if rdsapi.IsNotFound(err) {
		return plan, nil
	}
	if err != nil {
		return plan, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", instanceID, err)
	}
	set, err := FindBackup(ctx, api, instanceID, backupID)
	if err != nil || set == nil {
		return plan, ignoreNotFound(err)
	}
	if reason := BackupKeptReason(set, attr.Category); reason != "" {
		policy, err := api.DescribeBackupPolicy(ctx, instanceID)
		if err != nil {
			return plan, ignoreNotFound(err)
		}
		kept := Raise(RuleBackupKeptOnDestroy, backupID, backupID, instanceID, reason, int64(policy.BackupRetentionPeriod))
		plan.Kept = &kept
		return plan, nil
	}
	loss := BackupSetLoss(instanceID, set)
	plan.Loss = &loss
	plan.Program.Operations = []Operation{{Instance: instanceID, Action: OpDeleteBackup, When: WhenNow, Effect: EffectNone, BackupID: backupID}}
	return plan, nil
}

func ignoreNotFound(err error) error {
	if rdsapi.IsNotFound(err) {
		return nil
	}
	return err
}

// ExecuteBackupDelete runs the destroy's program.
func ExecuteBackupDelete(ctx context.Context, api rdsapi.API, w *Waiter, plan BackupDeletePlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.InstanceID, Decision: Decision{Program: plan.Program}})
}

// PlanBackupNow checks an rds_backup_now invocation on an instance that should exist: the
// request's shape, then the instance's facts and state (a missing or read-only instance, a
// snapshot without cloud disks, the daily limit). It makes reads only.
func PlanBackupNow(ctx context.Context, api rdsapi.API, instanceID string, req BackupRequest, now time.Time) ([]Problem, error) {
	attr, err := api.DescribeDBInstanceAttribute(ctx, instanceID)
	if rdsapi.IsNotFound(err) {
		return append(CheckBackup(req, BackupFacts{}, BackupInstanceState{}), problem(RuleBackupInstanceMissing, instanceID, instanceID)), nil
	}
	if err != nil {
		return nil, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", instanceID, err)
	}
	facts := BackupFactsFromAttribute(attr)
	if facts.ReadOnly {
		return CheckBackup(req, facts, BackupInstanceState{}), nil
	}
	st, err := ReadBackupInstanceState(ctx, api, attr, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", instanceID, err)
	}
	return CheckBackup(req, facts, st), nil
}
