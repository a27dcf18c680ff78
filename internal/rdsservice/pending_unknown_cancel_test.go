package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// A spec change waiting for the window, scheduled outside Terraform, while instance_type is known only at
// apply and apply_restarts = in_maintenance_window (issue 39 §4, seeds 20261202 and 20261206): the class may be
// the instance's own, and the final plan's order for the window then cancels the task, so its restart is
// possible (it was named certain, and the window made none). A class that may be the task's keeps the task;
// restart-needing parameters waiting in the task wait on after a cancel (certain).
func TestPlanWaitingTaskMayBeCancelledByAnUnknownClass(t *testing.T) {
	prior := pendingPrior()
	withParameters := &PendingChange{TaskID: "t-1", Window: taskForWindow.Window, StartsAt: taskForWindow.StartsAt,
		Changes: append([]string{`parameter innodb_read_io_threads changes from "4" to "8"`}, taskForWindow.Changes...)}
	for _, c := range []struct {
		name         string
		storage      int64
		pending      *PendingChange
		wantPossible bool
	}{
		{"the class alone unknown", 100, taskForWindow, true},
		{"a storage at or below the disk", 80, taskForWindow, true},
		{"restart-needing parameters in the task", 100, withParameters, false},
	} {
		desired := pendingDesired()
		desired.InstanceClass, desired.Storage, desired.ApplyRestarts = Unknown[string](), Known(c.storage), ApplyRestartsInWindow
		desired.AutoScale.Want.Enabled = true
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired,
			Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Pending: c.pending, SpecChangePending: true}})
		var task *Restart
		for _, r := range d.Program.Restarts() {
			if r.Task == "t-1" {
				task = &r
			}
		}
		if task == nil || task.When == "" {
			t.Fatalf("%s: no restart of the task in the window: %+v", c.name, d.Program.Restarts())
		}
		cancels := strings.Contains(strings.Join(task.Reasons, "; "), "unless instance_type, known only at apply, keeps the instance's own spec")
		if task.Possible != c.wantPossible || cancels != c.wantPossible {
			t.Errorf("%s: the task's restart possible %t (reasons %q), want %t", c.name, task.Possible, task.Reasons, c.wantPossible)
		}
	}
}

// The class the waiting task makes, with storage known only at apply and apply_restarts = immediately:
// storage may be the state's, and the final plan then changes nothing and the apply sends nothing. The
// class order's restart now is possible, and so is the task's in its window (issue 39 §4).
func TestClassOfTheTaskBesideAnUnknownStorageRestartsPossibly(t *testing.T) {
	prior := pendingPrior()
	desired := pendingDesired()
	desired.InstanceClass, desired.Storage = Known("mysql.n2.large.2c"), Unknown[int64]()
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		Pending: taskForWindow, SpecChangePending: true, PendingClass: "mysql.n2.large.2c"}})
	var now, task *Restart
	for _, r := range d.Program.Restarts() {
		switch {
		case r.Task == "t-1":
			task = &r
		case r.When == "":
			now = &r
		}
	}
	if now == nil || !now.Possible || task == nil || !task.Possible || task.When == "" {
		t.Fatalf("restarts %+v: want the class order's restart now and the task's in its window, both possible", d.Program.Restarts())
	}
	desired.Storage = Known(prior.Storage)
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		Pending: taskForWindow, SpecChangePending: true, PendingClass: "mysql.n2.large.2c"}})
	for _, r := range d.Program.Restarts() {
		if r.Possible {
			t.Errorf("every value known: restart %+v named possible", r)
		}
	}
}
