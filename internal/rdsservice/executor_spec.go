package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// spec sends a ModifyDBInstanceSpec: right after creation (only what the new instance does not
// have yet), now (checked against the instance as it is), or for the maintenance window.
func (x *executor) spec(ctx context.Context, op Operation) error {
	switch op.When {
	case WhenAfterCreate:
		return x.specAfterCreate(ctx, op)
	case WhenInWindow:
		return x.specForWindow(ctx, op)
	}
	order := *op.Spec
	attr, err := ApplySpecChangeChecked(ctx, x.api, x.w, x.out.ID, order.Request(x.out.ID), order.AtomicWrite, x.recheck(order))
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow = true
	if x.e.Decision.Deferred {
		return nil // the parameters that need a restart wait for the window
	}
	return x.waitParameters(ctx)
}

// waitParameters waits until the values this apply sent run (a spec change's restart applies
// the ones that need one).
func (x *executor) waitParameters(ctx context.Context) error {
	attr, err := WaitParametersRunning(ctx, x.api, x.w, x.out.ID, x.e.Decision.Parameters.Send)
	if err != nil {
		return fmt.Errorf("waiting for the parameters: %w", err)
	}
	x.read(attr)
	return nil
}

// specAfterCreate brings a new clone or read-only instance to the planned flag and Buffer Pool
// Extension: what CloneDBInstance and CreateReadOnlyDBInstance cannot set.
func (x *executor) specAfterCreate(ctx context.Context, op Operation) error {
	attr := x.out.Instance
	d := x.e.Decision
	var order SpecOrder
	flag := op.Flag
	if x.e.Plan.Role == RoleClone {
		flag = d.AtomicWrite.Ptr()
		if bpe := d.BufferPoolExtension; bpe.IsKnown() && bpe.Value() != SwitchOn(string(attr.IoAccelerationEnabled)) {
			order.BufferPoolExtension = bpe.Ptr()
		}
	}
	if flag != nil && IsMySQL(attr.Engine) && !FlagIs(attr, *flag) {
		order.AtomicWrite = flag
	}
	if !order.Empty() {
		changed, err := ApplySpecChange(ctx, x.api, x.w, x.out.ID, order.Request(x.out.ID), order.AtomicWrite)
		if err != nil {
			return err
		}
		x.read(changed)
		x.out.ChangedNow = true
	}
	if len(d.Parameters.Send) == 0 {
		return nil
	}
	return x.waitParameters(ctx)
}

// specForWindow sends an order for the maintenance window, after the same check as an order for
// now. It carries the planned class and storage (the whole target; the storage only when it
// changes the disk while autoscaling is on: windowStorage); an order that cancels a pending change
// carries only those, which are the instance's own.
func (x *executor) specForWindow(ctx context.Context, op Operation) error {
	x.out.Deferred = true
	req := op.Spec.Request(x.out.ID)
	req.DBInstanceClass, req.DBInstanceStorage = x.e.TargetClass, x.windowStorage()
	req.EffectiveTime = rdsapi.EffectiveTimeMaintainTime
	if err := x.cancelStillCancels(ctx, op); err != nil {
		return err
	}
	if !op.CancelsPending {
		cur, err := x.api.DescribeDBInstanceAttribute(ctx, x.out.ID)
		if err != nil {
			return err
		}
		if err := x.recheck(*op.Spec)(cur); err != nil {
			return err
		}
	}
	return x.w.RetryBusy(ctx, func() error {
		_, err := x.api.ModifyDBInstanceSpec(ctx, req)
		return err
	})
}

// recheck is the check before a spec order goes out: when the instance's spec differs from what
// the plan saw, the planner decides again for the instance as it is now, with this apply's own
// changes only (the values the order leaves alone are taken as they are now), and an order it
// refuses is not sent.
func (x *executor) recheck(order SpecOrder) SpecCheck {
	return func(cur *rdsapi.DBInstanceAttribute) error {
		before := x.e.Plan.Prior
		if before == nil {
			return nil
		}
		changes := SpecChangesSince(*before, x.e.Plan.Role != RoleReadOnly, cur)
		if len(changes) == 0 {
			return nil
		}
		again, err := x.againFor(cur, order)
		if err != nil {
			return fmt.Errorf("RDS instance %s was changed outside this apply after the plan was made (%s), and checking this apply's change "+
				"again failed: %w", x.out.ID, strings.Join(changes, ", "), err)
		}
		if problems := Plan(again).Errors(); len(problems) > 0 {
			return &ChangedSincePlanError{ID: x.out.ID, Changes: changes, Problems: problems}
		}
		return nil
	}
}

// againFor is the plan's input for the instance as it is now.
func (x *executor) againFor(cur *rdsapi.DBInstanceAttribute, order SpecOrder) (PlanInput, error) {
	again := x.e.Plan
	now, err := ExistingFromAttribute(cur)
	if err != nil {
		return again, err
	}
	now.ID = x.e.Plan.Prior.ID
	again.Prior = &now
	if order.InstanceClass == nil {
		again.Desired.InstanceClass = Known(now.InstanceClass)
	}
	if order.Storage == nil {
		again.Desired.Storage = Known(now.Storage)
	}
	if order.StorageType == nil {
		again.Desired.StorageType = Known(now.StorageType)
	}
	return again, nil
}

// SpecChangesSince lists what differs in the spec between before (the instance as the plan saw
// it) and cur (as it is now), in attribute terms; empty when nothing did.
func SpecChangesSince(before ExistingInstance, withBPE bool, cur *rdsapi.DBInstanceAttribute) []string {
	var changes []string
	if cur.DBInstanceClass != before.InstanceClass {
		changes = append(changes, fmt.Sprintf("instance_type is %q (the plan saw %q)", cur.DBInstanceClass, before.InstanceClass))
	}
	if int64(cur.DBInstanceStorage) != before.Storage {
		changes = append(changes, fmt.Sprintf("storage is %d (the plan saw %d)", int64(cur.DBInstanceStorage), before.Storage))
	}
	if !strings.EqualFold(cur.DBInstanceStorageType, before.StorageType) {
		changes = append(changes, fmt.Sprintf("storage_type is %q (the plan saw %q)", cur.DBInstanceStorageType, before.StorageType))
	}
	if flag := FlagIs(cur, true); flag != before.Enabled {
		changes = append(changes, fmt.Sprintf("atomic_write_16k is %t (the plan saw %t)", flag, before.Enabled))
	}
	if bpe := SwitchOn(string(cur.IoAccelerationEnabled)); withBPE && cur.IoAccelerationEnabled != "" && bpe != before.BufferPoolExtension {
		changes = append(changes, fmt.Sprintf("buffer_pool_extension is %t (the plan saw %t)", bpe, before.BufferPoolExtension))
	}
	return changes
}

// ChangedSincePlanError is an order refused right before its request: the instance was changed
// outside this apply after the plan, and the planner refuses this apply's change for the instance
// as it is now.
type ChangedSincePlanError struct {
	ID       string
	Changes  []string
	Problems []Problem
}

func (e *ChangedSincePlanError) Error() string {
	reasons := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		reasons = append(reasons, p.Summary+": "+p.Detail)
	}
	return Raise(RuleChangedSincePlan, e.ID, e.ID, strings.Join(e.Changes, ", "), strings.Join(reasons, " ")).Detail
}

// ChangedOutside reports whether err is a change refused because someone else changed the
// instance, before the order (changed-since-plan) or while waiting for it (changed-during-apply).
func ChangedOutside(err error) bool {
	var during *ConcurrentChangeError
	var before *ChangedSincePlanError
	return errors.As(err, &during) || errors.As(err, &before)
}
