package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// The configured class is the one a task scheduled outside Terraform makes in its window, and a restart-needing
// parameter is deferred to that window (issue 39 §4, later run "change reverted" after "class=primary, fact=scheduled
// task"): the apply leaves the task, and the window's one restart names the task's class change beside the
// parameter, so scheduled_change keeps listing the spec change a later revert must cancel (it listed the parameter
// alone, and the revert cancelled nothing).
func TestKeptTaskChangesNamedBesideDeferredParameters(t *testing.T) {
	t.Parallel()
	prior := pendingPrior()
	desired := pendingDesired()
	desired.InstanceClass, desired.ApplyRestarts = Known("mysql.n2.large.2c"), ApplyRestartsInWindow
	desired.Parameters = DesiredParameters{Set: true, Values: map[string]string{"back_log": "4000"}, Recorded: true}
	facts := Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Pending: taskForWindow, SpecChangePending: true, PendingClass: "mysql.n2.large.2c",
		Parameters: &ParameterFacts{Template: testTemplate(), Running: map[string]string{"back_log": "3000"}}}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: facts})
	var window []Restart
	for _, r := range d.Program.Restarts() {
		if r.When != "" {
			window = append(window, r)
		}
	}
	if len(window) != 1 {
		t.Fatalf("restarts in the window %+v; want one", window)
	}
	reasons := strings.Join(window[0].Reasons, "; ")
	if !strings.Contains(reasons, taskForWindow.Changes[0]) || !strings.Contains(reasons, "back_log") {
		t.Errorf("the window's restart names %q; want the task's class change and back_log", reasons)
	}
}
