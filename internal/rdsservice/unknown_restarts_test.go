package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// possibleRestart is the plan's warning of a possible restart (nil: none).
func possibleRestart(d Decision) *Problem {
	for _, w := range d.Warnings() {
		if w.Rule == RuleMayRestart {
			return &w
		}
	}
	return nil
}

// instance_type known only at apply with apply_restarts = in_maintenance_window (seed 20261206, mechanism
// "instance_type known at apply"): the possible restart comes in the window, as the final plan defers it, and
// the plan says so; with apply_restarts = immediately, or a window open now, it comes during this apply.
func TestPlanPossibleRestartComesInTheWindow(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.InstanceClass = Unknown[string]()
	for _, c := range []struct {
		apply    string
		now      time.Time
		inWindow bool
	}{
		{ApplyRestartsInWindow, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), true},
		{ApplyRestartsImmediately, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), false},
		{ApplyRestartsInWindow, time.Date(2026, 11, 30, 2, 30, 0, 0, time.UTC), false}, // the window is open now
	} {
		desired.ApplyRestarts = c.apply
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: c.now}})
		w := possibleRestart(d)
		if w == nil {
			t.Fatalf("%s at %s: no possible restart named; problems %+v", c.apply, c.now, d.Problems)
		}
		if got := strings.Contains(w.Detail, "in the maintenance window 02:00Z-03:00Z (next: ") && strings.Contains(w.Detail, "not during this apply"); got != c.inWindow {
			t.Errorf("%s at %s: named in the window %t, want %t: %s", c.apply, c.now, got, c.inWindow, w.Detail)
		}
	}
}

// A primary's atomic_write_16k known only at apply, its change waiting for the primary's window (seed 20261206,
// mechanism "16K known at apply", primary + read-only): the read-only instance may follow it there, in the
// primary's window, and its plan names that possible restart with that time (it named it during this apply, and
// the window restarted the read-only instance unnamed).
func TestPlanReadOnlyPossibleFollowInThePrimarysWindow(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior, desired := securityPrior("8.0", "HighAvailability")
	prior.Enabled = false
	desired.AtomicWrite, desired.ApplyRestarts = Unknown[bool](), ApplyRestartsInWindow
	desired.InstanceClass = Known("mysql.n2.large.2c")
	in := PlanInput{Role: RolePrimary, Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}
	var l Ledger
	recordPrimary(&l, "rm-1", in, Plan(in))
	if got := l.Primary("rm-1").UnknownFlagStartsAt; got != "2026-12-01T02:00:00Z" {
		t.Fatalf("the ledger records the unknown flag's window start %q", got)
	}
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: Desired{InstanceClass: Known(ro.InstanceClass), Storage: Known[int64](100),
		StorageType: Known(ro.StorageType), AtomicWrite: Null[bool](), ApplyRestarts: ApplyRestartsInWindow, MaintenanceWindow: Known("05:00Z-06:00Z")},
		Facts: Facts{Now: now, Primary: &prior, PrimaryPlanned: Unknown[bool](), PrimaryUnknownFlagStartsAt: l.Primary("rm-1").UnknownFlagStartsAt}})
	w := possibleRestart(d)
	if w == nil || !strings.Contains(w.Detail, "restarts in the maintenance window of its primary rm-1 (starts 2026-12-01T02:00:00Z), not during this apply") {
		t.Errorf("the read-only instance's possible follow restart: %+v", w)
	}
}

// Sweep seed 154: a read-only instance created beside that primary is created off (the primary's change waits)
// and may follow it in the primary's window; prevent_restart on it refuses the possibility at plan.
func TestPlanNewReadOnlyPossibleFollowInThePrimarysWindow(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	primary, _ := securityPrior("8.0", "HighAvailability")
	primary.Enabled = false
	desired := Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known[int64](100), AtomicWrite: Null[bool](),
		ApplyRestarts: ApplyRestartsImmediately}
	facts := Facts{Now: now, Primary: &primary, PrimaryPlanned: Unknown[bool](), PrimaryUnknownFlagStartsAt: "2026-12-01T02:00:00Z"}
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: desired, Facts: facts})
	w := possibleRestart(d)
	if w == nil || !strings.Contains(w.Detail, "restarts in the maintenance window of its primary "+primary.ID+" (starts 2026-12-01T02:00:00Z)") {
		t.Fatalf("the new read-only instance's possible follow: %+v", w)
	}
	desired.PreventRestart = true
	errs := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: desired, Facts: facts}).Errors()
	if len(errs) != 1 || errs[0].Rule != RuleMayRestartRefusedUnknown {
		t.Errorf("prevent_restart beside the possible follow: %+v, want the refusal", errs)
	}
	facts.PrimaryUnknownFlagStartsAt = "" // the primary's change runs during this apply: the instance is created with its value
	if w := possibleRestart(Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: desired, Facts: facts})); w != nil {
		t.Errorf("no window to follow in: %+v", w)
	}
}

// A parameter waiting for a restart, with instance_type known only at apply (seed 20261206, mechanism
// "instance_type known at apply", fact "parameter pending a restart"): a restart during this apply would
// apply it, so parameters_pending is known only at apply; a restart that can only come in the window leaves it
// waiting after this apply.
func TestPlanPendingParametersUnknownBesidePossibleRestart(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.InstanceClass = Unknown[string]()
	desired.Parameters = DesiredParameters{Set: true, Values: map[string]string{}, Recorded: true}
	facts := &ParameterFacts{Template: testTemplate(), Running: map[string]string{"back_log": "3000"}, Pending: map[string]string{"back_log": "4000"}}
	for _, c := range []struct {
		apply     string
		wantKnown bool
	}{{ApplyRestartsImmediately, false}, {ApplyRestartsInWindow, true}} {
		desired.ApplyRestarts = c.apply
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Parameters: facts}})
		if d.Parameters.PendingKnown != c.wantKnown || c.wantKnown && d.Parameters.Pending["back_log"] != "4000" {
			t.Errorf("%s: parameters_pending %v (known %t), want known %t", c.apply, d.Parameters.Pending, d.Parameters.PendingKnown, c.wantKnown)
		}
	}
}

// A task scheduled outside Terraform waits for the window while storage is known only at apply (seed 20261206,
// mechanism "storage known at apply", then rds_apply_pending): with apply_restarts = immediately a storage change
// there is a spec order now that replaces the task, so the task's restart in the window is possible, not certain
// (the window made none); with apply_restarts = in_maintenance_window the storage may be the instance's own, and
// the order for the window then cancels the task (pending_spec_task.go).
func TestPlanPendingTaskRestartPossibleBesideUnknownSpec(t *testing.T) {
	prior := pendingPrior()
	for _, c := range []struct {
		apply, wantReason string
		wantPossible      bool
	}{{ApplyRestartsImmediately, "unless storage, known only at apply, changes", true}, {ApplyRestartsInWindow, "then cancels the task", true}} {
		desired := pendingDesired()
		desired.InstanceClass, desired.Storage, desired.ApplyRestarts = Known(prior.InstanceClass), Unknown[int64](), c.apply
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Pending: taskForWindow, SpecChangePending: true}})
		var task *Restart
		for _, r := range d.Program.Restarts() {
			if r.Task == "t-1" {
				task = &r
			}
		}
		if task == nil || task.Possible != c.wantPossible || c.wantPossible && !strings.Contains(strings.Join(task.Reasons, "; "), c.wantReason) {
			t.Errorf("%s: the task's restart %+v, want possible %t", c.apply, task, c.wantPossible)
		}
	}
}

// A read-only instance that inherits atomic_write_16k, off and eligible, whose primary's value is known only at
// apply and changes during this apply (seed 20261206, mechanism "16K known at apply", primary + read-only, 16K
// on): it may be turned on with its primary, so its atomic_write_16k is known only at apply (it was planned false,
// and the state after the apply said false while the cloud had turned it on); when the primary's change waits for
// its window it keeps its value until then.
func TestPlanReadOnlyFlagUnknownWhileItMayFollow(t *testing.T) {
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", Enabled: false}
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	for _, c := range []struct {
		startsAt    string
		wantUnknown bool
	}{{"", true}, {"2026-12-01T02:00:00Z", false}} {
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: Desired{InstanceClass: Known(ro.InstanceClass), Storage: Known[int64](100),
			StorageType: Known(ro.StorageType), AtomicWrite: Null[bool](), ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known("02:00Z-03:00Z")},
			Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Primary: &primary, PrimaryPlanned: Unknown[bool](), PrimaryUnknownFlagStartsAt: c.startsAt}})
		if d.AtomicWrite.IsUnknown() != c.wantUnknown || !c.wantUnknown && !d.AtomicWrite.Is(false) {
			t.Errorf("primary's change at %q: atomic_write_16k planned %v, want unknown %t", c.startsAt, d.AtomicWrite, c.wantUnknown)
		}
	}
}
