package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// action waits until the instance is Running, plans the action again and, when the plan still
// names this operation, sends it and waits for its effect.
func (x *executor) action(ctx context.Context, op Operation) error {
	id := x.out.ID
	if op.Action != OpRenewInstance { // a renewal needs no Running instance: an expired one is locked
		if _, err := x.w.WaitRunning(ctx, id); err != nil {
			return err
		}
	}
	if err := x.recheckAction(ctx, op); err != nil {
		return err
	}
	var attr *rdsapi.DBInstanceAttribute
	var err error
	switch op.Action {
	case OpRestartInstance:
		attr, err = restartInstance(ctx, x.api, x.w, id)
	case OpSwitchDBInstanceHA:
		attr, err = switchOverTo(ctx, x.api, x.w, id, op.Node)
	case OpRenewInstance:
		attr, err = renewInstance(ctx, x.api, x.w, id, op.Billing.UsedTime)
	default:
		attr, err = applyPendingNow(ctx, x.api, x.w, id, op.Pending)
	}
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow = true
	return nil
}

// recheckAction plans the action again from the instance as it is now and refuses the write
// (a ChangedSincePlanError) when that plan refuses it or names another operation.
func (x *executor) recheckAction(ctx context.Context, op Operation) error {
	if x.e.Action == nil {
		return fmt.Errorf("the program holds %s without its action", op.Action)
	}
	again, err := PlanAction(ctx, x.api, x.e.Action.Request)
	if err != nil {
		return fmt.Errorf("reading RDS instance %s before %s: %w", x.out.ID, op.Action, err)
	}
	if change := actionChangeSince(op, again); change != "" {
		return &ChangedSincePlanError{ID: x.out.ID, Changes: []string{change}, Problems: []Problem{again.Problem}}
	}
	return nil
}

// actionChangeSince says how the action's operation now differs from the planned op, or "".
func actionChangeSince(op Operation, again ActionPlan) string {
	if again.refused() {
		return "the action is now refused"
	}
	if len(again.Program.Operations) == 0 {
		return "nothing waits for the maintenance window any more (the plan saw task " + taskID(op.Pending) + ")"
	}
	now := again.Program.Operations[0]
	switch {
	case now.Node != op.Node:
		return fmt.Sprintf("the secondary node is %s (the plan named %s)", now.Node, op.Node)
	case taskID(now.Pending) != taskID(op.Pending):
		return fmt.Sprintf("the change waiting for the window is task %s (the plan saw task %s)", taskID(now.Pending), taskID(op.Pending))
	}
	return ""
}
