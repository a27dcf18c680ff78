package provider

import (
	"strings"
	"testing"
)

// auditFollowResources is a primary with atomic_write_16k = flag, deferring its restarts to the
// test window, and a read-only instance that leaves the flag to its primary (rule 7).
func auditFollowResources(flag, roPreventRestart bool) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "orders", "atomic_write_16k": flag,
		"maintenance_window": realClockWindow, "apply_restarts": "in_maintenance_window"}
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": "mysqlro.n2.medium.1c",
		"storage": 100, "instance_name": "reporting-0", "prevent_restart": roPreventRestart}
	return []oracleResource{{addr: "rds_instance.primary", attrs: primary}, {addr: testRO, attrs: ro}}
}

// auditPendingToggle is a world where the primary of auditFollowResources and its read-only
// instance were created off, then the primary's toggle was ordered for its window.
func auditPendingToggle(t *testing.T) *oracleWorld {
	t.Helper()
	_, w := envWorld(t, testSimOptions())
	if _, err := w.applyStep(auditFollowResources(false, false)); err != nil {
		t.Fatalf("create: %v", err)
	}
	if _, err := w.applyStep(auditFollowResources(true, false)); err != nil {
		t.Fatalf("deferred toggle: %v", err)
	}
	return w
}

// Found trying combinations as a user (issue 23): the primary's toggle waits for its window, and
// the read-only instance, off, will follow it there. Setting the primary back cancels the toggle
// in the same apply, so the read-only instance does not restart: its plan must not name the
// follow restart, and prevent_restart on it must not refuse the cancel (it did: the read-only plan
// took the cloud's pending task, which this run's plan of the primary cancels).
func TestAudit_cancelledPrimaryToggleRestartsNoFollower(t *testing.T) {
	t.Parallel()
	w := auditPendingToggle(t)
	if attrOf(w.state["rds_instance.primary"], "scheduled_change").IsNull() {
		t.Fatal("deferred toggle: the primary has no scheduled_change")
	}
	for _, guard := range []bool{false, true} {
		plan, err := w.planWalk(auditFollowResources(false, guard))
		if err != nil {
			t.Fatal(err)
		}
		if plan.errAt != "" {
			t.Fatalf("cancel (read-only prevent_restart %t): %s refused: %s", guard, plan.errAt, plan.errMsg)
		}
		ro := plan.res[testRO]
		if ro == nil || len(ro.decisions) == 0 {
			t.Fatalf("cancel (read-only prevent_restart %t): no decision for the read-only instance", guard)
		}
		for _, d := range ro.decisions {
			if rs := d.Program.Restarts(); len(rs) != 0 {
				t.Errorf("cancel (read-only prevent_restart %t): the read-only plan names restarts %+v, want none", guard, rs)
			}
		}
	}
	if _, err := w.applyStep(auditFollowResources(false, true)); err != nil {
		t.Fatalf("cancel with prevent_restart on the read-only instance: %v", err)
	}
	if !attrOf(w.state["rds_instance.primary"], "scheduled_change").IsNull() {
		t.Error("cancel: the primary still has a scheduled_change")
	}
}

// Found trying combinations as a user (issue 23): any update of a read-only instance showed its
// minor_version as "known after apply", though only its primary's upgrade changes it. A rename
// keeps the version the instance runs in the plan.
func TestAudit_readOnlyUpdateKeepsItsMinorVersion(t *testing.T) {
	t.Parallel()
	_, w := envWorld(t, testSimOptions())
	resources := auditFollowResources(true, false)
	if _, err := w.applyStep(resources); err != nil {
		t.Fatalf("create: %v", err)
	}
	var running string
	if err := attrOf(w.state[testRO], "minor_version").As(&running); err != nil || running == "" {
		t.Fatalf("create: the read-only instance's minor_version is %q (%v)", running, err)
	}
	resources[1].attrs["instance_name"] = "reporting-renamed"
	plan, err := w.planWalk(resources)
	if err != nil || plan.errAt != "" {
		t.Fatalf("rename: %v %s %s", err, plan.errAt, plan.errMsg)
	}
	ro := plan.res[testRO]
	if ro == nil || ro.action != actUpdate {
		t.Fatalf("rename: the read-only instance's plan is %+v, want an update", ro)
	}
	if got := attrOf(ro.planned, "minor_version"); !got.IsKnown() || !got.Equal(attrOf(w.state[testRO], "minor_version")) {
		t.Errorf("rename: planned minor_version %v, want the running %s", got, running)
	}
}

// Found trying combinations as a user (issue 23): while the primary's deferred toggle waits for its
// window, every later plan names the restart it brings, and the read-only instance that will follow
// it there too (the second plan named only the primary's, as the read-only instance's unchanged plan
// made no decision).
func TestAudit_laterPlanNamesTheFollowRestart(t *testing.T) {
	t.Parallel()
	w := auditPendingToggle(t)
	plan, err := w.planWalk(auditFollowResources(true, false))
	if err != nil || plan.errAt != "" {
		t.Fatalf("later plan: %v %s %s", err, plan.errAt, plan.errMsg)
	}
	ro := plan.res[testRO]
	if ro == nil || ro.action != actNoop {
		t.Fatalf("later plan: the read-only instance's plan is %+v, want a no-op", ro)
	}
	follows := 0
	for _, d := range ro.decisions {
		for _, r := range d.Program.Restarts() {
			if r.ByPrimary {
				follows++
			}
		}
	}
	if follows != 1 {
		t.Errorf("later plan: the read-only plan names %d restarts following its primary, want 1", follows)
	}
	if !strings.Contains(diagText(ro.diags), "restarts in its primary's maintenance window") {
		t.Errorf("later plan: the read-only instance's warnings %s do not name its restart", diagText(ro.diags))
	}
	// With prevent_restart on the read-only instance, the same plan is refused, as a new toggle is.
	if msg := w.planErrorOf(t, auditFollowResources(true, true)); !strings.Contains(msg, "prevent_restart refuses") ||
		!strings.Contains(msg, "follows its primary") {
		t.Errorf("later plan with prevent_restart on the read-only instance: error %q, want its follow restart refused", msg)
	}
}
