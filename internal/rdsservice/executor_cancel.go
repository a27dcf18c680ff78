package rdsservice

import (
	"context"
	"fmt"
	"strings"
)

// A plan cancels a change waiting for the maintenance window by ordering the instance's own
// class and storage for the window (pending_change.go). When the window opened between the plan
// and the apply and the change ran, that order is no longer a cancel: it changes the instance
// back, which restarts it (at once while the window is open), and the plan named no restart. The
// executor reads the instance before the order and refuses it then (found trying combinations as
// a user, issue 23).

// cancelStillCancels returns a ChangedSincePlanError, and nothing is sent, when op cancels a
// pending change whose class or storage the instance has taken since the plan.
func (x *executor) cancelStillCancels(ctx context.Context, op Operation) error {
	prior := x.e.Plan.Prior
	if !op.CancelsPending || prior == nil {
		return nil
	}
	cur, err := x.api.DescribeDBInstanceAttribute(ctx, x.out.ID)
	if err != nil {
		return fmt.Errorf("reading RDS instance %s before cancelling its pending change: %w", x.out.ID, err)
	}
	// An order that names no storage (windowStorage) keeps whatever disk autoscaling grew.
	if cur.DBInstanceClass == x.e.TargetClass && (x.windowStorage() == 0 || int64(cur.DBInstanceStorage) == x.targetStorage()) {
		return nil
	}
	changes := SpecChangesSince(*prior, x.e.Plan.Role != RoleReadOnly, cur)
	if len(changes) == 0 {
		changes = []string{fmt.Sprintf("instance_type is %q and storage %d", cur.DBInstanceClass, int64(cur.DBInstanceStorage))}
	}
	restart := Raise(RuleRestartNotInPlan, x.out.ID, x.out.ID, strings.Join(changes, ", "))
	return &ChangedSincePlanError{ID: x.out.ID, Changes: changes, Problems: []Problem{restart}}
}
