package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// Sweep seed 63 (issue 39 §4): a restart-needing value an earlier apply deferred to the window waits with the
// configured value, and a later run restarts the instance for SSL first (SSL off and on around an endpoint change, or
// SSL turned on). That restart runs the value: the plan neither sends it again nor names a restart for it, now or in
// the window, and parameters_pending ends empty. Without an SSL or TDE restart it is sent again and restarts the
// instance in the window, as before.
func TestWaitingValueRunsFromTheSecurityRestart(t *testing.T) {
	prior := programPrior()
	task := &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-01T02:00:00Z",
		Changes: []string{parameterRestartReasonPrefix + "innodb_read_io_threads 4 -> 8)"}}
	plan := func(endpoint, sslNow, sslWant bool) Decision {
		desired := programDesired()
		desired.ApplyRestarts = ApplyRestartsInWindow
		desired.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
		desired.Security.SSL = Known(sslWant)
		desired.Endpoints = EndpointPlan{Current: endpointsNow(false)}
		if endpoint {
			desired.Endpoints.Internal = Endpoint{Port: 3307}
		}
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
			Security: SecurityFacts{SSL: sslNow}, Pending: task,
			Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, map[string]string{"innodb_read_io_threads": "8"})}})
	}
	for _, tc := range []struct {
		name                     string
		endpoint, sslNow, wantOn bool
		restarts                 int
	}{
		{"SSL off and on around the endpoint", true, true, true, 2},
		{"SSL turned on", false, false, true, 1},
	} {
		d := plan(tc.endpoint, tc.sslNow, tc.wantOn)
		restarts := d.Program.Restarts()
		if d.HasErrors() || len(restarts) != tc.restarts || findOp(d.Program, OpModifyParameter) != nil || len(d.Parameters.Send) != 0 {
			t.Fatalf("%s: errors %v, restarts %+v, steps %v", tc.name, d.Errors(), restarts, stepsOf(d.Program))
		}
		for _, r := range restarts {
			if r.When != "" || r.Op != OpModifySSL {
				t.Errorf("%s: a restart other than SSL's, now: %+v", tc.name, r)
			}
		}
		if !strings.Contains(strings.Join(restarts[0].Reasons, "; "), pendingAppliedPrefix+"innodb_read_io_threads = 8)") {
			t.Errorf("%s: the first SSL restart does not name the value it runs: %v", tc.name, restarts[0].Reasons)
		}
		if !d.Parameters.PendingKnown || len(d.Parameters.Pending) != 0 || hasRule(d.Problems, RuleParamWaiting) {
			t.Errorf("%s: parameters_pending after the apply %v (known %t), rules %v", tc.name, d.Parameters.Pending, d.Parameters.PendingKnown, ruleIDs(d.Problems))
		}
	}
	d := plan(false, true, true)
	if op := findOp(d.Program, OpModifyParameter); op == nil || op.When != WhenInWindow || op.Restart == nil || d.Parameters.Pending["innodb_read_io_threads"] != "8" {
		t.Fatalf("no SSL restart: the value is sent again for the window with its restart: steps %v, pending %v", stepsOf(d.Program), d.Parameters.Pending)
	}
}

// A value that already waits in the cloud with the configured value is run by the SSL restart of the apply,
// before the parameters go out (runningWhenSent): parameters_pending loses it, the SSL restart names it, and
// nothing restarts for it, now or in the window; a value the apply changes still waits for the window's restart (sweep seed 63).
func TestWaitingValueRunBySSLRestart(t *testing.T) {
	template, ok := EmbeddedTemplate("8.0")
	if !ok {
		t.Fatal("no 8.0 template")
	}
	for _, c := range []struct {
		name, restarts string
		want           map[string]string
		windowNamed    bool
	}{
		{"the waiting value alone", ApplyRestartsInWindow, map[string]string{"innodb_write_io_threads": "12"}, false},
		{"beside a value this apply changes", ApplyRestartsInWindow, map[string]string{"innodb_write_io_threads": "12", "innodb_read_io_threads": "8"}, true},
		{"the waiting value alone, restarts now", ApplyRestartsImmediately, map[string]string{"innodb_write_io_threads": "12"}, false},
	} {
		prior, desired := securityPrior("8.0", "HighAvailability")
		desired.ApplyRestarts = c.restarts
		desired.Security.SSL = Known(true)
		desired.Parameters = DesiredParameters{Set: true, Values: c.want, Recorded: true}
		facts := &ParameterFacts{Template: template, Running: map[string]string{"innodb_write_io_threads": "8", "innodb_read_io_threads": "4"},
			Pending: map[string]string{"innodb_write_io_threads": "12"}}
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Parameters: facts}})
		if d.HasErrors() || d.Deferred != c.windowNamed { // the waiting value alone is not sent again: nothing is deferred
			t.Fatalf("%s: deferred %t, problems %+v", c.name, d.Deferred, d.Problems)
		}
		restarts := d.Program.Restarts()
		if len(restarts) == 0 || restarts[0].When != "" || !strings.Contains(strings.Join(restarts[0].Reasons, "; "), "innodb_write_io_threads = 12") {
			t.Fatalf("%s: the SSL restart does not name the waiting value: %+v", c.name, restarts)
		}
		if named := len(restarts) == 2 && restarts[1].When != ""; named != c.windowNamed || len(restarts) != 1 && !named {
			t.Errorf("%s: restarts %+v, want one, and the window's named %t", c.name, restarts, c.windowNamed)
		}
		if _, left := d.Parameters.Pending["innodb_write_io_threads"]; left || !d.Parameters.PendingKnown {
			t.Errorf("%s: parameters_pending after the apply %v (known %t)", c.name, d.Parameters.Pending, d.Parameters.PendingKnown)
		}
		if _, waits := d.Parameters.Pending["innodb_read_io_threads"]; waits != c.windowNamed {
			t.Errorf("%s: parameters_pending after the apply %v", c.name, d.Parameters.Pending)
		}
	}
}
