package rdsservice

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
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

// rds_apply_pending planned while a class change waits, run after someone else already applied
// it: the executor plans again, finds nothing waiting and sends nothing (no second restart).
func TestApplyPendingProgramRefusesWhenTheTaskIsGone(t *testing.T) {
	ctx, e, id := pendingClassEnv(t, nil)
	plan := func() ActionPlan {
		t.Helper()
		p, err := PlanAction(ctx, e.api, ActionRequest{Kind: OpApplyPendingNow, Name: "rds_apply_pending", InstanceID: id})
		if err != nil || len(p.Program.Operations) != 1 || p.Program.Operations[0].Pending == nil || len(p.Program.Restarts()) != 1 {
			t.Fatalf("plan with a class change waiting: %+v, %v", p, err)
		}
		return p
	}
	stale := plan()
	if out := ExecuteAction(ctx, e.api, e.waiter, plan()); out.Err != nil || out.Instance == nil || out.Instance.DBInstanceClass != "mysql.n2m.large.2c" {
		t.Fatalf("apply pending: %+v", out)
	}
	e.sim.ResetStats()
	out := ExecuteAction(ctx, e.api, e.waiter, stale)
	var changed *ChangedSincePlanError
	if !errors.As(out.Err, &changed) || len(changed.Problems) != 1 || changed.Problems[0].Rule != RuleActionNothingPending {
		t.Fatalf("stale apply pending: %v, want changed-since-plan saying nothing waits", out.Err)
	}
	if st := e.sim.Stats(); st.Requests["ModifyDBInstanceSpec"]+st.Requests["RestartDBInstance"] != 0 || st.Restarts[id] != 0 {
		t.Fatalf("the stale order sent %d spec changes and %d restarts", st.Requests["ModifyDBInstanceSpec"], st.Requests["RestartDBInstance"])
	}
}

// pendingClassEnv is an instance whose maintenance window is closed now, with a class change to
// mysql.n2m.large.2c waiting for it, ordered after before (nil: nothing) prepared the instance.
func pendingClassEnv(t *testing.T, before func(ctx context.Context, e *matrixEnv, id string)) (context.Context, *matrixEnv, string) {
	t.Helper()
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 100 * time.Millisecond, FlagLag: 20 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	closeWindow(t, e.api, id, time.Now())
	if before != nil {
		before(ctx, e, id)
	}
	if _, err := e.api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: "mysql.n2m.large.2c",
		EffectiveTime: "MaintainTime"}); err != nil {
		t.Fatal(err)
	}
	return ctx, e, id
}

// An action on a locked, Stopped or Deleting instance is refused at plan with its state and fix,
// and nothing is sent: the cloud refuses RestartDBInstance and SwitchDBInstanceHA there (found by
// the actions oracle after a disk-quota lock).
func TestActionRefusedInAStateTheCloudRefuses(t *testing.T) {
	for _, tc := range []struct {
		attr rdsapi.DBInstanceAttribute
		want string
	}{
		{rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusRunning, LockMode: "LockByDiskQuota"}, "grow storage"},
		{rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusStopped}, "Start it first"},
		{rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusDeleting}, "being released"},
	} {
		p := ActionStateProblem("rds_restart", &tc.attr)
		if p.Rule != RuleActionInstanceState || p.Severity != SeverityError || !strings.Contains(p.Detail, tc.want) {
			t.Errorf("%+v: %+v, want a %s refusal saying %q", tc.attr, p, RuleActionInstanceState, tc.want)
		}
	}
	if p := ActionStateProblem("rds_restart", &rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusRunning, LockMode: "Unlock"}); p.Rule != "" {
		t.Errorf("running, unlocked: %+v", p)
	}
}
