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

// ranSincePlan is sweep seed 33 (issue 39, a saved plan applied after the cloud moved on): the plan withdrew
// back_log's waiting 4000 (set back to the running 3000, no restart), but before the apply a restart ran 4000.
func ranSincePlan(t *testing.T) (*matrixEnv, *fakeClock, context.Context, *Waiter, string) {
	t.Helper()
	clock := &fakeClock{now: time.Now().UTC()}
	e := newMatrixEnvWith(t, simulator.Options{Now: clock.Now})
	id := seedYiTian(t, e.sim)
	ctx := clock.withDeadline(30 * time.Minute)
	if err := e.api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "4000"},
		Forcerestart: true}); err != nil {
		t.Fatal(err)
	}
	w := &Waiter{API: e.api, Clock: clock, MinInterval: time.Second, MaxInterval: 20 * time.Second}
	if _, err := WaitParametersRunning(ctx, e.api, w, id, map[string]string{"back_log": "4000"}); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	return e, clock, ctx, w, id
}

// The saved plan's withdrawal is refused before anything is sent: set back now, the value would wait
// for a restart the plan did not name (the apply polled for it until its 30-minute deadline).
func TestApplyParametersRefusesAWithdrawalThatRanSincePlan(t *testing.T) {
	e, _, ctx, w, id := ranSincePlan(t)
	plan := ParameterPlan{Send: map[string]string{"back_log": "3000"}, Online: []string{"back_log"}, Withdrawn: []string{"back_log"}}
	_, err := ApplyParameters(ctx, e.api, w, id, plan, false)
	var changed *ChangedSincePlanError
	if !errors.As(err, &changed) || len(changed.Problems) != 1 || changed.Problems[0].Rule != RuleParamWithdrawnRan {
		t.Fatalf("got %v; want changed-since-plan with %s", err, RuleParamWithdrawnRan)
	}
	if !strings.Contains(err.Error(), `back_log runs "4000"`) {
		t.Errorf("error %q does not name back_log's running value", err)
	}
	if n := e.sim.Stats().Requests["ModifyParameter"]; n != 0 {
		t.Errorf("ModifyParameter sent %d times; want none", n)
	}
}

// A value that waits for a restart no step of the apply makes ends the wait within ParameterRestartGrace
// of the waiter's clock, naming the value and the fix, instead of polling until the operation's deadline.
func TestWaitParametersRunningEndsWhenTheValueWaitsForARestart(t *testing.T) {
	e, clock, ctx, w, id := ranSincePlan(t)
	if err := e.api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "3000"}}); err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	_, err := WaitParametersRunning(ctx, e.api, w, id, map[string]string{"back_log": "3000"})
	waited := clock.Now().Sub(start)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || waited > ParameterRestartGrace+w.MaxInterval {
		t.Fatalf("after %v on the waiter's clock: %v; want an error within %v", waited, err, ParameterRestartGrace+w.MaxInterval)
	}
	for _, want := range []string{id, `back_log (runs "4000", want "3000")`, "wait for a restart", "run terraform plan again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
