package rdsservice

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// An action's plan is a program of one operation that the executor runs: a restart restarts
// once; a plan refused by prevent_restart holds no operation; and a switchover planned before
// someone else switched the instance over is not sent (it would switch back): the executor plans
// again right before the write and refuses with changed-since-plan, naming the node.
func TestActionProgramsRunThroughTheExecutor(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 100 * time.Millisecond, FlagLag: 20 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	plan := func(kind string, prevent bool) ActionPlan {
		t.Helper()
		p, err := PlanAction(ctx, e.api, ActionRequest{Kind: kind, Name: "rds_test", InstanceID: id, PreventRestart: prevent})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if refused := plan(OpRestartInstance, true); len(refused.Program.Operations) != 0 || !refused.refused() {
		t.Fatalf("restart under prevent_restart: %+v, want a refusal and no operation", refused)
	}
	restart := plan(OpRestartInstance, false)
	if ops := restart.Program.Operations; len(ops) != 1 || ops[0].Effect != EffectRestart || len(restart.Program.Restarts()) != 1 {
		t.Fatalf("restart program: %+v", restart.Program)
	}
	e.sim.ResetStats()
	if out := ExecuteAction(ctx, e.api, e.waiter, restart); out.Err != nil || out.Instance == nil || !IsRunning(out.Instance) {
		t.Fatalf("restart: %+v", out)
	}
	if st := e.sim.Stats(); st.Requests["RestartDBInstance"] != 1 || st.Restarts[id] != 1 {
		t.Fatalf("restart sent %d RestartDBInstance and restarted %d times, want 1 and 1", st.Requests["RestartDBInstance"], st.Restarts[id])
	}

	stale := plan(OpSwitchDBInstanceHA, false)
	if ops := stale.Program.Operations; len(ops) != 1 || ops[0].Node == "" || ops[0].Effect != EffectSwitchover {
		t.Fatalf("switchover program: %+v", stale.Program)
	}
	if out := ExecuteAction(ctx, e.api, e.waiter, plan(OpSwitchDBInstanceHA, false)); out.Err != nil { // someone else's switchover
		t.Fatalf("first switchover: %v", out.Err)
	}
	e.sim.ResetStats()
	out := ExecuteAction(ctx, e.api, e.waiter, stale)
	var changed *ChangedSincePlanError
	if !errors.As(out.Err, &changed) || out.Step != "running rds_test" {
		t.Fatalf("stale switchover: step %q, error %v; want changed-since-plan", out.Step, out.Err)
	}
	if n := e.sim.Stats().Requests["SwitchDBInstanceHA"]; n != 0 {
		t.Fatalf("the stale switchover sent %d SwitchDBInstanceHA, want none", n)
	}
}
