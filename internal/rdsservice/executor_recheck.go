package rdsservice

import (
	"context"
	"fmt"
	"strings"
)

// The changed-since-plan check before every write of an existing instance, not only before spec
// orders (executor_spec.go): a ModifyParameter and each settings call (name, allow-list,
// deletion protection, maintenance window) are sent only after the instance was read again and,
// when it changed since it was last seen (by the plan, or by this apply's own last read), the
// planner decided again for it as it is now, with this apply's remaining spec order, and refused
// nothing. A new instance is this apply's own: nothing else changes it between its writes.

// recheckBeforeWrite reads the instance and refuses the write when the planner now refuses the
// apply (a ChangedSincePlanError; nothing is sent).
func (x *executor) recheckBeforeWrite(ctx context.Context) error {
	if x.e.Plan.Prior == nil || x.out.ID == "" {
		return nil
	}
	cur, err := x.api.DescribeDBInstanceAttribute(ctx, x.out.ID)
	if err != nil {
		return fmt.Errorf("reading RDS instance %s before writing to it: %w", x.out.ID, err)
	}
	before := *x.e.Plan.Prior
	if x.seen != nil {
		before = *x.seen
	}
	changes := append(SpecChangesSince(before, x.e.Plan.Role != RoleReadOnly, cur), stateChangesSince(before, cur.DBInstanceStatus, cur.LockMode)...)
	if len(changes) == 0 {
		return nil
	}
	again, err := x.againFor(cur, x.e.Decision.Order)
	if err != nil {
		return fmt.Errorf("RDS instance %s was changed outside this apply after the plan was made (%s), and checking this apply's change "+
			"again failed: %w", x.out.ID, strings.Join(changes, ", "), err)
	}
	if problems := Plan(again).Errors(); len(problems) > 0 {
		return &ChangedSincePlanError{ID: x.out.ID, Changes: changes, Problems: problems}
	}
	return nil
}

// stateChangesSince lists a lock, a stop or a delete begun since before was seen: states in
// which the planner refuses writes.
func stateChangesSince(before ExistingInstance, status, lockMode string) []string {
	var changes []string
	if IsLocked(lockMode) && !strings.EqualFold(lockMode, before.LockMode) {
		changes = append(changes, fmt.Sprintf("lock_mode is %q (the plan saw %q)", lockMode, firstNonEmpty(before.LockMode, LockUnlocked)))
	}
	if (status == StatusStopped || status == StatusDeleting) && status != before.Status {
		changes = append(changes, fmt.Sprintf("status is %q (the plan saw %q)", status, before.Status))
	}
	return changes
}

// seeAfterWrite records the instance as this apply's own write left it: the next check compares
// with that, so this apply's own changes are not taken for someone else's.
func (x *executor) seeAfterWrite() {
	if x.out.Instance == nil || x.e.Plan.Prior == nil {
		return
	}
	if s, err := ExistingFromAttribute(x.out.Instance); err == nil {
		x.seen = &s
	}
}
