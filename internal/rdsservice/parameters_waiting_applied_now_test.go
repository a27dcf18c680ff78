package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// A value that already waits in the cloud with the value sent again is run by the SSL restart of the apply,
// before the parameters go out: parameters_pending loses it, the SSL restart names it, and nothing restarts for
// it, now or in the window; a value the apply changes still waits for the window's restart (sweep seed 63).
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
		if d.HasErrors() || d.Deferred != (c.restarts == ApplyRestartsInWindow) {
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
