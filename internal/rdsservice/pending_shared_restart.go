package rdsservice

import (
	"slices"
	"strings"
)

// A spec change waiting for the maintenance window that this apply leaves in place (the configured
// class is the task's: keepsPendingClass) while it defers restart-needing parameters to the same
// window: the window restarts the instance once, and the plan names that one restart, this apply's
// (planPendingChange). Its reasons carry the task's changes too, so that scheduled_change (written
// from the window's reasons) still lists the spec change: a later run that sets the class back then
// sees the spec change and orders the instance's own spec, which cancels it (issue 39 §4, later run
// "change reverted"; scheduled_change listed the parameters alone under the task's id, the revert
// cancelled nothing and the state lost the class the window still made).

// carryTaskReasons adds the waiting task's changes (r) to the restart this apply defers to the
// window for instance in.Label, when no spec order replaces the task.
func carryTaskReasons(in PlanInput, d *Decision, r Restart) {
	if !d.Order.Empty() {
		return
	}
	for i := range d.Restarts {
		own := &d.Restarts[i]
		if own.InstanceID != in.Label || own.When == "" || own.Task != "" || own.ByPrimary || own.Possible {
			continue
		}
		for _, reason := range r.Reasons {
			if !slices.ContainsFunc(own.Reasons, func(have string) bool { return strings.Contains(have, reason) }) {
				own.Reasons = append(own.Reasons, reason)
			}
		}
		return
	}
}
