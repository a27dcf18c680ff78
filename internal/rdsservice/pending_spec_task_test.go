package rdsservice

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Issue 39 §4 (seed 20261206, instance_type known only at apply): the configured class is the one a spec
// change already waiting for the window makes, in that window. The apply sends no order (it replaced the
// task with a copy, under a task id the state did not record) and cancels nothing; the task's restart is
// named in the window, as the cloud's own step, and scheduled_change is read back, also beside a restart now
// (none, as planned before, left the state naming no task while the cloud kept it).
// Storage autoscaling on changes nothing of that: an order for the rest of the spec names no storage then, and
// the task keeps the disk autoscaling grows (simulator README, issue 39 item 3), as a class known at plan keeps
// the task. With the window moved, the disk grown beside it, or apply_restarts = immediately, the order (which
// replaces the task) carries the class as before.
func TestClassOfTheWaitingTaskSendsNoOrder(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := pendingPrior()
	desired := pendingDesired()
	desired.InstanceClass, desired.ApplyRestarts = Known("mysql.n2.large.2c"), ApplyRestartsInWindow
	facts := Facts{Now: now, Pending: taskForWindow, SpecChangePending: true, PendingClass: "mysql.n2.large.2c"}
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: facts}
	d := Plan(in)
	sends := slices.ContainsFunc(d.Program.Operations, func(op Operation) bool { return op.Action == OpModifySpec })
	rs := d.Program.Restarts()
	if !d.Order.Empty() || sends || len(rs) != 1 || rs[0].Task != taskForWindow.TaskID || rs[0].When == "" {
		t.Fatalf("order %+v (a spec operation %t), restarts %+v; want no order and the task's restart in its window", d.Order, sends, rs)
	}
	// Storage autoscaling on: the disk may grow before the window, so the order carries the class with it (sweep seed
	// 53: kept, the state went on naming the floor and a task the refresh no longer found). When the plan equals the
	// state, Terraform's final plan is unchanged and the apply sends nothing (apply.go), so no copy of the task goes out.
	scaled := in
	scaled.Desired.AutoScale.Want.Enabled = true
	if got := Plan(scaled); got.Order.InstanceClass == nil {
		t.Fatalf("with storage autoscaling on: order %+v; want the class carried", got.Order)
	}
	d.Restarts = append(d.Restarts, Restart{InstanceID: "rm-1", Reasons: []string{"ssl_enabled"}})
	if got := planValues(in, ProposedValues{Scheduled: ScheduledInputs{Recorded: true}}, d).ScheduledChange; got != ScheduledUnknown {
		t.Fatalf("scheduled_change planned %d beside a restart now, want read back (%d)", got, ScheduledUnknown)
	}
	for name, change := range map[string]func(*Desired){
		"the window moved":             func(c *Desired) { c.MaintenanceWindow = Known("04:00Z-05:00Z") },
		"the disk grown":               func(c *Desired) { c.Storage = Known(int64(150)) },
		"apply_restarts = immediately": func(c *Desired) { c.ApplyRestarts = ApplyRestartsImmediately },
		"the edition changed":          func(c *Desired) { c.Category = Known("Basic") },
	} {
		c := desired
		change(&c)
		if got := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: c, Facts: facts}); got.Order.InstanceClass == nil {
			t.Errorf("%s: the order replaces the task without its class", name)
		}
	}
	// A zone move beside the kept task would be a second switchover in its window: the class counts as a change,
	// and the move is refused as not alone.
	placed := facts
	placed.Placement = &PlacementFacts{Placement: Placement{Zone: "cn-hangzhou-h", SlaveA: "cn-hangzhou-h"}}
	moved := desired
	moved.Placement = Placement{Zone: "cn-hangzhou-i"}
	got := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: moved, Facts: placed})
	if !slices.ContainsFunc(got.Problems, func(p Problem) bool { return p.Rule == RuleZoneMoveAlone }) {
		t.Errorf("a zone move beside the kept task: problems %+v, want %s", got.Problems, RuleZoneMoveAlone)
	}
}

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
