package rdsservice

import (
	"slices"
	"testing"
	"time"
)

// Issue 39 §4 (seed 20261206, instance_type known only at apply): the configured class is the one a spec
// change already waiting for the window makes, in that window. The apply sends no order (it replaced the
// task with a copy, under a task id the state did not record) and cancels nothing; the task's restart is
// named in the window, as the cloud's own step. With the window moved, or the disk grown beside it, the
// order (which replaces the task) carries the class as before.
func TestClassOfTheWaitingTaskSendsNoOrder(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := pendingPrior()
	for _, restarts := range []string{ApplyRestartsImmediately, ApplyRestartsInWindow} {
		desired := pendingDesired()
		desired.InstanceClass, desired.ApplyRestarts = Known("mysql.n2.large.2c"), restarts
		facts := Facts{Now: now, Pending: taskForWindow, SpecChangePending: true, PendingClass: "mysql.n2.large.2c"}
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: facts})
		sends := slices.ContainsFunc(d.Program.Operations, func(op Operation) bool { return op.Action == OpModifySpec })
		rs := d.Program.Restarts()
		if !d.Order.Empty() || sends || len(rs) != 1 || rs[0].Task != taskForWindow.TaskID || rs[0].When == "" {
			t.Fatalf("%s: order %+v (a spec operation %t), restarts %+v; want no order and the task's restart in its window", restarts, d.Order, sends, rs)
		}
		if got := PlannedScheduledChange(d, ScheduledInputs{Recorded: true}); got != ScheduledKept {
			t.Fatalf("%s: scheduled_change planned %d, want kept (%d)", restarts, got, ScheduledKept)
		}
		desired.MaintenanceWindow = Known("04:00Z-05:00Z")
		if moved := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: facts}); moved.Order.InstanceClass == nil {
			t.Fatalf("%s: the window moved: no order for the new window", restarts)
		}
		desired.MaintenanceWindow, desired.Storage = Known(taskForWindow.Window), Known(int64(150))
		if grown := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: facts}); grown.Order.InstanceClass == nil {
			t.Fatalf("%s: the disk grows too: the order replaces the task without its class", restarts)
		}
	}
}
