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

// Sweep seed 33 (issue 39, a saved plan applied after the cloud moved on): the plan withdrew back_log's
// waiting value (set back to the running 3000, no restart), but before the apply a restart ran the
// waiting 4000. Sending 3000 then configures a value that waits for a restart no step of the apply
// makes; the wait ends within ParameterRestartGrace of the waiter's clock, naming the value and the
// fix, instead of polling until the operation's deadline.
func TestApplyParametersEndsWhenTheValueWaitsForARestart(t *testing.T) {
	clock := &fakeClock{now: time.Now().UTC()}
	e := newMatrixEnvWith(t, simulator.Options{Now: clock.Now})
	id := seedYiTian(t, e.sim)
	ctx := clock.withDeadline(30 * time.Minute)
	// The cloud moved on: back_log 4000 runs after a restart.
	if err := e.api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "4000"},
		Forcerestart: true}); err != nil {
		t.Fatal(err)
	}
	w := &Waiter{API: e.api, Clock: clock, MinInterval: time.Second, MaxInterval: 20 * time.Second}
	if _, err := WaitParametersRunning(ctx, e.api, w, id, map[string]string{"back_log": "4000"}); err != nil {
		t.Fatal(err)
	}
	// The saved plan's withdrawal, sent without a restart.
	start := clock.Now()
	plan := ParameterPlan{Send: map[string]string{"back_log": "3000"}, Online: []string{"back_log"}, Withdrawn: []string{"back_log"}}
	_, err := ApplyParameters(ctx, e.api, w, id, plan, false)
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
