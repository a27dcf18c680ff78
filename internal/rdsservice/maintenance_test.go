package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseMaintenanceWindow(t *testing.T) {
	for _, bad := range []string{"", "02:00-03:00", "24:00Z-01:00Z", "02:60Z-03:00Z", "02:00Z-02:00Z", "2:00Z-3:00Z", "02:00Z - 03:00Z"} {
		if _, err := ParseMaintenanceWindow(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	w, err := ParseMaintenanceWindow("22:00Z-02:00Z")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	for _, c := range []struct{ now, start, end string }{
		{"2026-11-30T12:00:00Z", "2026-11-30T22:00:00Z", "2026-12-01T02:00:00Z"},
		{"2026-12-01T01:59:00Z", "2026-11-30T22:00:00Z", "2026-12-01T02:00:00Z"}, // inside, after midnight
		{"2026-12-01T02:00:00Z", "2026-12-01T22:00:00Z", "2026-12-02T02:00:00Z"},
	} {
		start, end := w.Next(at(c.now))
		if !start.Equal(at(c.start)) || !end.Equal(at(c.end)) {
			t.Errorf("at %s: %s-%s, want %s-%s", c.now, start, end, c.start, c.end)
		}
	}
	if got := w.When(at("2026-11-30T12:00:00Z")); !strings.Contains(got, "22:00Z-02:00Z (next: 2026-11-30T22:00Z)") {
		t.Errorf("When: %s", got)
	}
	// Issue 23 item 9: while the window is open the order runs in it at once, not at a "next"
	// start that has passed.
	if got := w.When(at("2026-12-01T01:00:00Z")); !strings.Contains(got, "which is open now (until 2026-12-01T02:00Z)") || strings.Contains(got, "next:") {
		t.Errorf("When inside the window: %s", got)
	}
}

// apply_restarts = "in_maintenance_window": the order waits for the window, the warning says when,
// followers are named with the same window, and prevent_restart still refuses it.
func TestPlanDefersRestartsToTheWindow(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.large.2c"), Storage: Known(int64(20)), AtomicWrite: Known(true),
		ApplyRestarts: ApplyRestartsInWindow, MaintenanceWindow: Known("02:00Z-03:00Z")}
	follower := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 20, Supported: true, Status: StatusRunning}
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now, ReadOnly: []ExistingInstance{follower}}}

	d := Plan(in)
	if !d.Deferred || d.HasErrors() || len(d.Restarts) != 2 {
		t.Fatalf("deferred plan: %+v", d)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestartDeferred || w[0].Attribute != AttrApplyRestarts {
		t.Fatalf("warnings %+v", w)
	}
	for _, id := range []string{"rm-1", "rr-1"} {
		if !strings.Contains(w[0].Detail, id) {
			t.Errorf("the warning does not name %s: %s", id, w[0].Detail)
		}
	}
	if !strings.Contains(w[0].Detail, "in the maintenance window 02:00Z-03:00Z (next: 2026-12-01T02:00Z)") {
		t.Errorf("the warning does not say when: %s", w[0].Detail)
	}

	guarded := in
	guarded.Desired.PreventRestart = true
	if d := Plan(guarded); d.Guard != GuardPreventRestart || len(d.Errors()) != 1 {
		t.Fatalf("prevent_restart must refuse a deferred restart too: %+v", d.Problems)
	}
	now2 := in
	now2.Desired.ApplyRestarts = ApplyRestartsImmediately
	if d := Plan(now2); d.Deferred || d.Warnings()[0].Rule != RuleRestart {
		t.Fatalf("immediately: %+v", d)
	}
	// Online storage growth restarts nothing, so nothing waits for the window.
	grow := in
	grow.Desired.InstanceClass, grow.Desired.AtomicWrite, grow.Desired.Storage = Known("mysql.n2.medium.2c"), Null[bool](), Known(int64(40))
	if d := Plan(grow); d.Deferred || len(d.Restarts) != 0 {
		t.Fatalf("online growth: %+v", d)
	}
	if p := CheckMaintenanceWindow(Known("2am-3am")); len(p) != 1 || p[0].Attribute != AttrMaintenanceWindow || !strings.Contains(p[0].Detail, "02:00Z-03:00Z") {
		t.Fatalf("window check: %+v", p)
	}
}

// Restart-needing parameters defer on their own: the plan says when, and until the window they
// show in parameters_pending (with the values already waiting); online ones do not defer anything.
func TestPlanDefersParameterRestarts(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), AtomicWrite: Known(false),
		ApplyRestarts: ApplyRestartsInWindow, MaintenanceWindow: Known("02:00Z-03:00Z"),
		Parameters: paramDesired(map[string]string{"innodb_read_io_threads": "8", "innodb_io_capacity": "4000"})}
	facts := planFacts(map[string]string{"innodb_io_capacity": "20000", "innodb_read_io_threads": "4"}, map[string]string{"back_log": "4000"})
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now, Parameters: facts}}

	d := Plan(in)
	if !d.Deferred || d.HasErrors() || len(d.Restarts) != 1 || !d.Order.Empty() {
		t.Fatalf("deferred parameters: %+v", d)
	}
	if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleRestartDeferred || !strings.Contains(w[0].Detail, "innodb_read_io_threads 4 -> 8") ||
		!strings.Contains(w[0].Detail, "(next: 2026-12-01T02:00Z)") {
		t.Fatalf("warning: %+v", d.Problems)
	}
	want := map[string]string{"innodb_read_io_threads": "8", "back_log": "4000"}
	if !d.Parameters.PendingKnown || !reflect.DeepEqual(d.Parameters.Pending, want) {
		t.Fatalf("parameters_pending after a deferred apply: %v, want %v", d.Parameters.Pending, want)
	}
	guarded := in
	guarded.Desired.PreventRestart = true
	if d := Plan(guarded); d.Guard != GuardPreventRestart {
		t.Fatalf("prevent_restart must refuse a deferred parameter restart: %+v", d.Problems)
	}

	// With a class change in the same apply: one deferred restart for both.
	combined := in
	combined.Desired.InstanceClass = Known("mysql.n2.large.2c")
	if d := Plan(combined); !d.Deferred || len(d.Restarts) != 1 || d.Order.Empty() || !strings.Contains(strings.Join(d.Restarts[0].Reasons, ";"), "innodb_read_io_threads") {
		t.Fatalf("combined: %+v", d)
	}

	online := in
	online.Desired.Parameters = paramDesired(map[string]string{"innodb_io_capacity": "4000"})
	if d := Plan(online); d.Deferred || len(d.Restarts) != 0 {
		t.Fatalf("an online parameter defers nothing: %+v", d)
	}
}
