package rdsservice

import (
	"slices"
	"strings"
)

// A change waiting in the cloud's task centre for the instance's maintenance window, whoever
// scheduled it (an earlier deferred apply, the console, another tool; an import shows it in
// scheduled_change): the cloud restarts the instance when it runs, whatever this apply does
// unless the apply replaces or cancels it. The program names that restart as the cloud's own step
// (OpPendingTask), so the plan's restart warning shows it and prevent_restart refuses it, as it
// refuses every other restart.

// OpPendingTask is the cloud's own pending task: the executor sends nothing for it.
const OpPendingTask = "the cloud's pending task for the maintenance window"

// PendingChange is a task waiting for the instance's maintenance window.
type PendingChange struct {
	TaskID string
	// Window and StartsAt are the window it waits for and when that starts (the cloud's clock).
	Window, StartsAt string
	// Changes are what it does (scheduled_change.changes).
	Changes []string
}

// when is the restart's time, as the plan names it.
func (p PendingChange) when() string {
	return "in the maintenance window " + p.Window + " (starts " + p.StartsAt + "; task " + p.TaskID + ", scheduled before this plan)"
}

// cancelsPending reports whether the update cancels a spec change waiting for the window: the
// configuration sets the spec back to the instance's own, so the apply orders that for the window
// (an order replaces the pending one, and one that changes nothing leaves nothing to run); the
// parameters deferred with it wait on (keepWaitingParameters).
func cancelsPending(in PlanInput, d Decision) bool {
	return in.Prior != nil && d.Order.Empty() && in.Facts.SpecChangePending && specOrderCancels(in.Facts.Pending) &&
		in.Desired.InstanceClass.IsKnown() && in.Desired.Storage.IsKnown() && !keepsPendingClass(in)
}

// specOrderCancels: a spec order for the window replaces the pending task (a spec change or a
// toggle; unknown when scheduled_change is not recorded), not an engine upgrade, which no order
// withdraws (PendingBehaviours).
func specOrderCancels(p *PendingChange) bool {
	return p == nil || p.Has(PendingSpec) || p.Has(PendingToggle)
}

// planPendingChange adds the pending task's restarts unless this apply replaces or cancels it: a
// spec order for now supersedes a waiting spec change, one for the window replaces it (its restart
// is named already), and the window restarts the instance once, so a restart this apply defers
// there already stands for a waiting spec change or parameters. A restart during this apply
// applies a task of parameters alone, which then finds nothing left to restart for (simulator
// README "Parameters"). A waiting zone move or upgrade is a task of its own: no spec order
// replaces it, and the window makes its switchover too (PendingBehaviours, more work).
func planPendingChange(in PlanInput, d *Decision) {
	p := in.Facts.Pending
	if in.Prior == nil || p == nil || len(p.Changes) == 0 || len(in.Replace) > 0 || d.CancelsPendingTask() {
		return
	}
	if cancelsPending(in, *d) {
		keepWaitingParameters(in, d, *p) // pending_revert_parameters.go
		return
	}
	for _, r := range pendingRestarts(in.Label, downtimeOf(in), *p) {
		if !ownTask(r.Reasons[0]) && (coveredByThisApply(in, *d) || parametersWithdrawn(*p, *d)) {
			carryTaskReasons(in, d, r) // pending_shared_restart.go
			if classMayKeepTask(in) {  // the order may not be sent: the task then runs in its window
				r.When, r.Possible, r.Reasons = pendingWhen(in, *p), true, append(r.Reasons, classMayKeepTaskReason)
				d.Restarts = append(d.Restarts, r)
			}
			continue
		}
		r.When = pendingWhen(in, *p)
		if !ownTask(r.Reasons[0]) {
			r = taskMayBeReplaced(in, r)
		}
		d.Restarts = append(d.Restarts, r)
	}
	shareTaskRestart(in, d)
	d.PendingMoves = windowMoves(in, *p)
}

// shareTaskRestart: restart-needing parameters this apply defers, alone, to a window where a zone
// move or an upgrade already waits take effect with that task's restart (every restart applies the
// values that wait for one; the parameter task then has nothing left to restart for: simulator
// README "Parameters"), so the plan names one restart of the instance, the task's, with both
// reasons (PendingBehaviours, more work).
func shareTaskRestart(in PlanInput, d *Decision) {
	if !d.Deferred || !d.Order.Empty() || !d.Parameters.NeedsRestart() || d.Upgrade != nil || d.Minor.Upgrade != nil || d.ZoneMove != nil {
		return
	}
	task, own := -1, -1
	for i, r := range d.Restarts {
		switch {
		case r.InstanceID != in.Label:
		case r.Task != "" && ownTask(r.Reasons[0]) && task < 0:
			task = i
		case r.Task == "" && r.Op == "" && !r.ByPrimary && r.When != "":
			own = i
		}
	}
	if task < 0 || own < 0 {
		return
	}
	d.Restarts[task].Reasons = slices.Concat(d.Restarts[task].Reasons, d.Restarts[own].Reasons)
	d.Restarts = slices.Delete(d.Restarts, own, own+1)
}

// parametersWithdrawn: the waiting task is parameters alone and this apply sets every waiting
// value back, so that the cloud cancels the task and nothing restarts (PendingBehaviours,
// reverted). Values that waited for a restart before the task (set outside Terraform, listed in
// its changes by PendingAppliedReason) wait on without it: they are not the task's (sweep seed 52);
// nor is a read-only instance's follow of its primary's toggle listed there (sweep seed 63).
func parametersWithdrawn(p PendingChange, d Decision) bool {
	if !waitsOnlyFromBefore(p, d.Parameters.Pending) {
		return false
	}
	own := PendingChange{Changes: slices.DeleteFunc(slices.Clone(p.Changes), func(c string) bool {
		return strings.HasPrefix(c, pendingAppliedPrefix) || strings.HasPrefix(c, followReasonPrefix)
	})}
	kinds := own.PendingKinds()
	return len(kinds) == 1 && kinds[0] == PendingParameters && len(d.Parameters.Withdrawn) > 0 && d.Parameters.PendingKnown
}

// waitsOnlyFromBefore: what waits for a restart after this apply (pending) is nothing, or exactly the
// values that waited before the task (set outside Terraform, listed in its changes by
// PendingAppliedReason), which wait on for any restart without the task.
func waitsOnlyFromBefore(p PendingChange, pending map[string]string) bool {
	return len(pending) == 0 || slices.Contains(p.Changes, PendingAppliedReason(pending))
}

// coveredByThisApply: this apply's spec order, or a restart of its own, replaces or applies the
// waiting spec change and parameters.
func coveredByThisApply(in PlanInput, d Decision) bool {
	if !d.Order.Empty() {
		return true
	}
	for _, r := range d.Restarts {
		if r.InstanceID == in.Label && (r.When != "" || !in.Facts.SpecChangePending) {
			return true
		}
	}
	return false
}

// ownTask: the change is a zone move or an upgrade, a task of its own with its own switchover.
func ownTask(change string) bool {
	k := (PendingChange{Changes: []string{change}}).PendingKinds()[0]
	return k == PendingZoneMove || k == PendingEngineUpgrade || k == PendingMinorUpgrade
}

// pendingRestarts are the restarts a waiting task makes in the window: one shared by the spec
// change, toggle and parameters, and one for each zone move or upgrade (ownTask).
func pendingRestarts(label, downtime string, p PendingChange) []Restart {
	var shared []string
	var out []Restart
	for _, c := range p.Changes {
		if ownTask(c) {
			out = append(out, Restart{InstanceID: label, When: p.when(), Task: p.TaskID, Downtime: downtime, Reasons: []string{c}})
			continue
		}
		shared = append(shared, c)
	}
	if len(shared) > 0 {
		out = append([]Restart{{InstanceID: label, When: p.when(), Task: p.TaskID, Downtime: downtime, Reasons: []string{strings.Join(shared, "; ")},
			TurnsAtomicWriteOn: slices.ContainsFunc(shared, turnsAtomicWriteOn)}}, out...)
	}
	return out
}

// turnsAtomicWriteOn: the change, as scheduled_change lists it (SpecChangeRestarts wrote it), turns
// atomic_write_16k on.
func turnsAtomicWriteOn(change string) bool {
	return strings.Contains(change, AttrAtomicWrite+" changes from false to true")
}

// PlanUnchanged is the decision for an instance whose configuration and state agree (the plan
// changes nothing, and no fact is read): only a task waiting for its window, named from state,
// restarts it, and for a read-only instance the toggle its primary's task makes in the primary's
// window (follow). prevent_restart refuses those, as it refuses every restart.
func PlanUnchanged(role Role, label, category string, preventRestart bool, pending *PendingChange, follow Follow) Decision {
	var d Decision
	if pending == nil || len(pending.Changes) == 0 {
		return d
	}
	d.Restarts = pendingRestarts(label, ExpectedDowntime(category, role == RoleReadOnly), *pending)
	if role == RoleReadOnly {
		d.Restarts = followAppliesParameters(*pending, follow, append(d.Restarts, follow.restarts(label)...))
	}
	for i := range d.Restarts {
		op := Operation{Instance: label, Action: OpPendingTask, When: WhenInWindow, Effect: EffectRestart, Restart: &d.Restarts[i]}
		if d.Restarts[i].ByPrimary {
			on := true
			op.Action, op.Flag = OpWaitFollowsPrimary, &on
		}
		d.Program.Operations = append(d.Program.Operations, op)
	}
	if preventRestart {
		d.Guard = GuardPreventRestart
	}
	d.add(RestartProblem(d.Restarts, false, preventRestart, AttrPreventRestart))
	return d
}
