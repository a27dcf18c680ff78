package rdsservice

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// cancelInput schedules a class change of the instance for a window six hours from now, then
// plans setting the class back to the instance's own (a cancel) with apply_restarts =
// "in_maintenance_window", as the plan sees it before the window.
func cancelInput(t *testing.T, e *matrixEnv, id string) Execution {
	t.Helper()
	ctx := context.Background()
	closeWindow(t, e.api, id, e.waiter.Now())
	if _, err := e.api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: "mysql.n2.large.2c",
		DBInstanceStorage: 20, EffectiveTime: rdsapi.EffectiveTimeMaintainTime}); err != nil {
		t.Fatal(err)
	}
	exec := executorInput(t, e, id, ApplyRestartsInWindow)
	exec.Plan.Desired.AtomicWrite = Known(false)
	exec.Plan.Facts.SpecChangePending = true
	exec.Decision = Plan(exec.Plan)
	cancels := 0
	for _, op := range exec.Decision.Program.Operations {
		if op.CancelsPending {
			cancels++
		}
	}
	if exec.Decision.HasErrors() || cancels != 1 || len(exec.Decision.Program.Restarts()) != 0 {
		t.Fatalf("plan: %d cancel orders, restarts %+v, errors %v; want one cancel and no restart", cancels, exec.Decision.Program.Restarts(), exec.Decision.Errors())
	}
	return exec
}

// A plan cancels a change waiting for the window (the configuration sets the class back); the
// window opens between the plan and the apply and the cloud runs the change. The cancel order
// would now be a class change of its own, a restart the plan did not name: the executor refuses
// it (changed-since-plan) and sends nothing. Before the window, the cancel goes out and nothing
// restarts.
func TestExecuteRefusesACancelWhoseChangeRanSincePlan(t *testing.T) {
	e := newMatrixEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	before := seedOff(t, e.sim)
	exec := cancelInput(t, e, before)
	e.sim.ResetStats()
	if out := Execute(ctx, e.api, e.waiter, exec); out.Err != nil {
		t.Fatalf("cancel before the window: %v", out.Err)
	}
	if s := e.sim.Stats(); s.Requests["ModifyDBInstanceSpec"] != 1 || s.Restarts[before] != 0 {
		t.Fatalf("cancel before the window: requests %v restarts %v, want one order and no restart", s.Requests, s.Restarts)
	}

	ran := seedOff(t, e.sim)
	exec = cancelInput(t, e, ran)
	e.sim.AdvanceClock(6 * time.Hour)
	for {
		attr, err := e.api.DescribeDBInstanceAttribute(ctx, ran)
		if err != nil {
			t.Fatal(err)
		}
		if attr.DBInstanceClass == "mysql.n2.large.2c" && attr.DBInstanceStatus == "Running" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the window's change did not run: %+v", attr)
		case <-e.waiter.Clock.After(20 * time.Millisecond):
		}
	}
	e.sim.ResetStats()
	out := Execute(ctx, e.api, e.waiter, exec)
	var refused *ChangedSincePlanError
	if !errors.As(out.Err, &refused) || len(refused.Problems) != 1 || refused.Problems[0].Rule != RuleRestartNotInPlan {
		t.Fatalf("cancel after the window ran the change: outcome %+v, want a changed-since-plan refusal naming the restart", out)
	}
	if s := e.sim.Stats(); s.Requests["ModifyDBInstanceSpec"] != 0 || s.Restarts[ran] != 0 {
		t.Fatalf("cancel after the window ran the change: requests %v restarts %v, want no order and no restart", s.Requests, s.Restarts)
	}
}
