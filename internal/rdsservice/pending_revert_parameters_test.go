package rdsservice

import (
	"slices"
	"testing"
	"time"
)

// Parameter group factor seed 1 and sweep seed 7 (issue 39 §2): a class change and a group's restart-needing
// value wait for the window; the later run sets the class back and leaves the group. The order of the
// instance's own spec cancels the class change, not the group's value, which the cloud keeps waiting: the
// window restarts the instance for it, the plan names that restart, and scheduled_change is read back.
// Setting every waiting value back (own parameters, withdrawn) leaves nothing to restart.
func TestSpecSetBackLeavesTheWaitingParameters(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := pendingPrior()
	task := &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-01T02:00:00Z", Changes: []string{
		`instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"`, parameterRestartReasonPrefix + "innodb_write_io_threads 4 -> 8)"}}
	desired := pendingDesired()
	desired.ApplyRestarts = ApplyRestartsInWindow
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now, Pending: task, SpecChangePending: true}})
	rs := d.Program.Restarts()
	if len(rs) != 1 || rs[0].When == "" || len(rs[0].Reasons) != 1 || rs[0].Reasons[0] != task.Changes[1] || !d.ParametersStillWait {
		t.Fatalf("the group's value still waits: restarts %+v (still wait %t), want one in the window for it", rs, d.ParametersStillWait)
	}
	if got := PlannedScheduledChange(d, ScheduledInputs{Recorded: true}); got != ScheduledUnknown {
		t.Fatalf("scheduled_change planned %d, want %d (read back: the parameters' task)", got, ScheduledUnknown)
	}
	d.Parameters = ParameterDecision{Pending: map[string]string{}, PendingKnown: true} // every waiting value set back
	undo := Decision{Parameters: d.Parameters}
	keepWaitingParameters(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}, &undo, *task)
	if len(undo.Restarts) != 0 || undo.ParametersStillWait {
		t.Fatalf("every waiting value set back: restarts %+v, want none", undo.Restarts)
	}
	// Sweep seed 157: what waits on is a value that waited for any restart before the task (listed in its changes):
	// not the task's, so nothing restarts in the window; a value waiting that the task did not list keeps the restart.
	before := map[string]string{"back_log": "3000"}
	withBefore := *task
	withBefore.Changes = append(slices.Clone(task.Changes), PendingAppliedReason(before))
	for _, c := range []struct {
		pending  map[string]string
		restarts int
	}{{before, 0}, {map[string]string{"back_log": "2000"}, 1}} {
		undo := Decision{Parameters: ParameterDecision{Pending: c.pending, PendingKnown: true}}
		keepWaitingParameters(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}, &undo, withBefore)
		if len(undo.Restarts) != c.restarts {
			t.Errorf("waiting on %v: restarts %+v, want %d", c.pending, undo.Restarts, c.restarts)
		}
	}
}
