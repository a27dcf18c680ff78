package rdsservice

import "slices"

// A spec change set back while restart-needing parameters wait for the window with it (issue 39 §2,
// PendingBehaviours, reverted): the apply's order of the instance's own spec cancels the waiting spec
// change, not the parameters, which the cloud keeps waiting in a task of their own (simulator README
// "Parameters": a value leaves its task only when it is set back). A value the configuration no longer
// manages (a parameter group the instance leaves, a key removed: P6) stays waiting, and the window
// restarts the instance for it: the plan names that restart, and scheduled_change then records the
// parameters' task.

// PendingParameterChanges are the changes of a waiting task that are restart-needing parameters.
func PendingParameterChanges(changes []string) []string {
	var out []string
	for _, c := range changes {
		if (PendingChange{Changes: []string{c}}).PendingKinds()[0] == PendingParameters {
			out = append(out, c)
		}
	}
	return out
}

// keepWaitingParameters names, when this apply cancels the waiting spec change, the window's restart
// for the task's parameters that still wait after it: unless the apply sets every value of the task's
// back (what waits on then waited for any restart before the task, set outside Terraform: it is not
// the task's, sweep seed 157), or the instance restarts for another reason of this plan (a restart
// applies the waiting values).
func keepWaitingParameters(in PlanInput, d *Decision, p PendingChange) {
	changes := PendingParameterChanges(p.Changes)
	setBack := d.Parameters.PendingKnown && waitsOnlyFromBefore(p, d.Parameters.Pending)
	restarts := slices.ContainsFunc(d.Restarts, func(r Restart) bool { return r.InstanceID == in.Label })
	if len(changes) == 0 || setBack || restarts {
		return
	}
	d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, When: pendingWhen(in, p), Task: p.TaskID, Downtime: downtimeOf(in), Reasons: changes})
	d.ParametersStillWait = true
}
