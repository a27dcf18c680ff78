package rdsservice

import (
	"context"
	"fmt"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A destroy as a program (issue 23 §1): PlanDestroyProgram turns what is known of the instance
// (the state at plan, the cloud's facts at apply) and its destroy settings into the operations
// the destroy sends — a conversion of a subscription to pay-as-you-go, the release with its
// released_keep_policy, the wait until the instance is gone — or into nothing for an abandoned
// subscription. The plan's messages are rendered from that program, and the one executor runs
// it (executor_destroy.go), planning it again from the instance as it is right before the first
// write.

// Operation kinds of a destroy. OpDelete (program.go) is the release.
const (
	OpWaitDeleted = "wait: the instance is gone"
	// OpAbandon sends nothing: the resource leaves the state and the instance keeps running.
	OpAbandon = "none: removed from the state only"
	// OpReleasedWithPrimary is the cloud's own release of a read-only instance with its primary.
	OpReleasedWithPrimary = "released with its primary"
)

// RuleDestroyReleasesReadOnly is the destroy plan's note of the read-only instances that go with
// their primary; RuleDestroyReleasesProtected refuses a destroy that would release one whose
// deletion protection is on (issue 41, item 3: it may be managed in another workspace).
const (
	RuleDestroyReleasesReadOnly  RuleID = "destroy-releases-read-only"
	RuleDestroyReleasesProtected RuleID = "destroy-releases-protected-read-only"
)

// DestroyRequest is what a destroy is planned from.
type DestroyRequest struct {
	InstanceID         string
	DeletionProtection bool
	// Prepaid: the instance is a subscription (the state's billing or expire_time at plan, the
	// cloud's PayType at apply); OnDestroy is prepaid_on_destroy.
	Prepaid   bool
	OnDestroy string
	// KeepPolicy is released_keep_policy ("" when unset: the backup policy decides).
	KeepPolicy string
	// ReadOnly: a read-only instance, which the cloud releases whatever its pay type.
	ReadOnly bool
	// ReadOnlyInstances are a primary's read-only instances, released with it; ProtectedReadOnly
	// those of them whose deletion protection is on, as the cloud reads them (ProtectedReadOnly).
	ReadOnlyInstances []string
	ProtectedReadOnly []string
	// LockMode and LockReason are the instance's lock: a locked instance refuses the conversion,
	// and the release unless the lock is a disk-quota one.
	LockMode, LockReason string
	// MasterID, StorageType and PreventDataLoss are the state's, for the plan of the destroy
	// (PlanInstanceDestroy).
	MasterID, StorageType string
	PreventDataLoss       bool
}

// DestroyPlan is a destroy's decision: the refusals, or the program (and the warning that a lock
// makes the cloud refuse it).
type DestroyPlan struct {
	Request  DestroyRequest
	Refusals []Problem
	Program  Program
	Locked   *Problem
}

// Refused reports whether the destroy must send nothing.
func (p DestroyPlan) Refused() bool { return len(p.Refusals) > 0 }

// Abandons reports whether the destroy only removes the resource from the state.
func (p DestroyPlan) Abandons() bool {
	return len(p.Program.Operations) == 1 && p.Program.Operations[0].Action == OpAbandon
}

// PlanDestroyProgram decides a destroy: deletion protection and a subscription without
// prepaid_on_destroy refuse it; otherwise the program.
func PlanDestroyProgram(req DestroyRequest) DestroyPlan {
	plan := DestroyPlan{Request: req}
	id := req.InstanceID
	if req.DeletionProtection {
		plan.Refusals = append(plan.Refusals, problem(RuleDestroyRefusedProtection, "true", id))
	}
	if req.Prepaid && req.OnDestroy != OnDestroyConvertAndDelete && req.OnDestroy != OnDestroyAbandon {
		plan.Refusals = append(plan.Refusals, problem(RuleBillingDestroy, req.OnDestroy, describeSetting(req.OnDestroy), id))
	}
	if len(req.ProtectedReadOnly) > 0 && (!req.Prepaid || req.OnDestroy != OnDestroyAbandon) {
		protected := strings.Join(req.ProtectedReadOnly, ", ")
		plan.Refusals = append(plan.Refusals, problem(RuleDestroyReleasesProtected, protected, id, protected))
	}
	if plan.Refused() {
		return plan
	}
	add := func(op Operation) {
		if op.Instance == "" {
			op.Instance = id
		}
		op.When, op.Effect = WhenNow, EffectNone
		plan.Program.Operations = append(plan.Program.Operations, op)
	}
	if req.Prepaid && req.OnDestroy == OnDestroyAbandon {
		add(Operation{Action: OpAbandon})
		return plan
	}
	if IsLocked(req.LockMode) && (req.Prepaid || !diskQuotaLock(req.LockMode)) {
		// The cloud refuses the conversion under any lock, and the release unless it is a disk-quota
		// one: the apply fails at once, as for any change of a locked instance (instance_state.go).
		locked := lockProblem(id, req.LockMode, req.LockReason)
		plan.Locked = &locked
	}
	if req.Prepaid {
		add(Operation{Action: OpTransformPayType, Billing: &Billing{PayType: PayTypePostpaid}})
	}
	add(Operation{Action: OpDelete, Keep: req.KeepPolicy})
	for _, ro := range req.ReadOnlyInstances {
		add(Operation{Instance: ro, Action: OpReleasedWithPrimary})
	}
	add(Operation{Action: OpWaitDeleted})
	return plan
}

// Messages is what the plan of the destroy says: its refusals, else what each operation does.
func (p DestroyPlan) Messages() []Problem {
	if p.Refused() {
		return p.Refusals
	}
	var out []Problem
	if p.Locked != nil {
		out = append(out, *p.Locked)
	}
	var readOnly []string
	for _, op := range p.Program.Operations {
		switch {
		case op.Action == OpReleasedWithPrimary:
			readOnly = append(readOnly, op.Instance)
		case op.Action == OpTransformPayType:
			out = append(out, problem(RuleBillingDestroyConv, OnDestroyConvertAndDelete, op.Instance))
		case op.Action == OpAbandon:
			out = append(out, problem(RuleBillingDestroyAband, OnDestroyAbandon, op.Instance))
		case op.Action == OpDelete && op.Keep != "":
			out = append(out, ReleasedKeepOnDestroy(op.Instance, op.Keep))
		}
	}
	if len(readOnly) > 0 {
		out = append(out, problem(RuleDestroyReleasesReadOnly, strings.Join(readOnly, ", "), p.Request.InstanceID, strings.Join(readOnly, ", ")))
	}
	return out
}

// destroyRequestAt is req with the facts the cloud has now: the pay type and deletion protection.
func destroyRequestAt(req DestroyRequest, attr *rdsapi.DBInstanceAttribute) DestroyRequest {
	req.Prepaid = !req.ReadOnly && attr.PayType == PayTypePrepaid
	req.DeletionProtection = bool(attr.DeletionProtection)
	req.LockMode, req.LockReason = attr.LockMode, attr.LockReason
	return req
}

// ProtectedReadOnly reads the read-only instances ids (a primary's) and lists those whose deletion
// protection is on; one already gone is skipped.
func ProtectedReadOnly(ctx context.Context, api rdsapi.API, ids []string) ([]string, error) {
	var out []string
	for _, ro := range ids {
		attr, err := api.DescribeDBInstanceAttribute(ctx, ro)
		switch {
		case rdsapi.IsNotFound(err):
			continue
		case err != nil:
			return nil, fmt.Errorf("reading read-only instance %s: %w", ro, err)
		case bool(attr.DeletionProtection):
			out = append(out, ro)
		}
	}
	return out, nil
}

// destroySteps lists the program's decisions: its writes, and the choice to abandon.
func (p Program) destroySteps() []string {
	var out []string
	for _, op := range p.Operations {
		if op.Action == OpTransformPayType || op.Action == OpDelete || op.Action == OpAbandon {
			out = append(out, op.Action)
		}
	}
	return out
}

// describeSetting says what a string attribute holds, for a message: "is not set" when empty.
func describeSetting(value string) string {
	if value == "" {
		return "is not set"
	}
	return fmt.Sprintf("= %q", value)
}
