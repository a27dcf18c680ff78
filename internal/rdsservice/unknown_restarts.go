package rdsservice

import (
	"slices"
	"strings"
)

// When a restart that depends on a value known only at apply comes (issue 39 §3): the plan names
// the possibility with its time, as the final plan would place the restart once the value is known.
// With apply_restarts = in_maintenance_window every restart of an existing instance's own spec order
// or parameters waits for its window (deferToWindow); a read-only instance that may follow its
// primary's atomic_write_16k follows it when the primary's change runs, in the primary's window
// when that change waits there.

// followUnknownPrimary is the possible restart of a read-only instance whose primary's
// atomic_write_16k is known only at apply (rule 7).
func followUnknownPrimary(primary string) string {
	return "its primary " + primary + "'s atomic_write_16k (turned on, it turns this read-only instance on with a restart)"
}

// possibleRestartsWhen is Decision.MayRestartWhen: when the possible restarts come, empty for
// during this apply (or for a window open now, which the cloud runs at once). A read-only
// instance's possible follow of its primary comes when the primary's change runs.
func possibleRestartsWhen(in PlanInput, d Decision) string {
	if len(d.MayRestart) == 0 {
		return ""
	}
	if primary := in.Facts.Primary; in.Role == RoleReadOnly && primary != nil && slices.Contains(d.MayRestart, followUnknownPrimary(primary.ID)) {
		if at := in.Facts.PrimaryUnknownFlagStartsAt; at != "" {
			return "in the maintenance window of its primary " + primary.ID + " (starts " + at + ")"
		}
		return ""
	}
	if window, ok := ownWindow(in); ok && !d.FollowsPrimary {
		return window.When(in.Facts.Now)
	}
	return ""
}

// ownWindowStart is when an existing instance's window starts next, as the cloud's task records
// it, when its changes wait for the window ("" otherwise).
func ownWindowStart(in PlanInput) string {
	window, ok := ownWindow(in)
	if !ok {
		return ""
	}
	start, _ := window.Next(in.Facts.Now)
	return start.UTC().Format(APITimeLayout)
}

// ownWindow is the maintenance window an existing instance's restarts wait for: none with
// apply_restarts = immediately, or when the window is open now (the cloud runs them at once).
func ownWindow(in PlanInput) (MaintenanceWindow, bool) {
	if in.Prior == nil || in.Desired.ApplyRestarts != ApplyRestartsInWindow || windowOpenNow(in) {
		return MaintenanceWindow{}, false
	}
	window, err := ParseMaintenanceWindow(in.Desired.MaintenanceWindow.Or(""))
	return window, err == nil
}

// pendingMayBeApplied: a possible restart during this apply applies every parameter waiting for a
// restart, so parameters_pending is known only at apply when some wait (a restart in the window
// leaves them waiting until after this apply).
func pendingMayBeApplied(d *Decision) {
	if len(d.MayRestart) > 0 && d.MayRestartWhen == "" && d.Parameters.PendingKnown && len(d.Parameters.Pending) > 0 {
		d.Parameters.Pending, d.Parameters.PendingKnown = nil, false
	}
}

// taskMayBeReplaced: a spec attribute known only at apply, with apply_restarts = immediately, may
// send a spec order now that replaces the task waiting for the window (coveredByThisApply), so the
// task's restart in the window is possible, not certain (found by the oracle: the window made none).
// With apply_restarts = in_maintenance_window the order replaces the task in the same window, or, when the
// value may resolve to the instance's own spec, cancels it (taskMayBeCancelled).
func taskMayBeReplaced(in PlanInput, r Restart) Restart {
	c := in.Desired
	var unknown []string
	for _, a := range []struct {
		name    string
		unknown bool
	}{{AttrInstanceType, c.InstanceClass.IsUnknown()}, {AttrStorage, c.Storage.IsUnknown()}, {AttrStorageType, c.StorageType.IsUnknown()}, {AttrAtomicWrite, c.AtomicWrite.IsUnknown()}} {
		if a.unknown {
			unknown = append(unknown, a.name)
		}
	}
	reason := "unless " + strings.Join(unknown, ", ") + ", known only at apply, changes: this apply's spec order then replaces the task"
	if c.ApplyRestarts == ApplyRestartsInWindow {
		reason = taskMayBeCancelledReason(strings.Join(unknown, ", ")) // pending_spec_task.go
	}
	if len(unknown) == 0 || c.ApplyRestarts == ApplyRestartsInWindow && !taskMayBeCancelled(in) {
		return r
	}
	r.Possible = true
	r.Reasons = append(slices.Clone(r.Reasons), reason)
	return r
}
