package rdsservice

// What a configuration does to a spec change waiting for the maintenance window (whoever scheduled it): keeps it
// for the class it makes (keepsPendingClass), may cancel it with an order of the instance's own spec when a value is
// known only at apply (taskMayBeCancelled), or may leave it waiting when such a value resolves to the state's
// (classMayKeepTask). The plan names the task's restart as certain, possible or gone accordingly.

// A class the configuration asks for that a spec change already waiting for the maintenance
// window makes, in the window it waits for: the state records that class (scheduled_change says
// it is pending), so Terraform plans no change of instance_type, and an order for it would only
// replace the task with a copy of itself (a new task id the plan did not name). The apply sends
// none; the task's restart stays named as the cloud's own step (planPendingChange). Found by the
// oracle (issue 39 §4, seed 20261206): instance_type known only at apply resolved to the class of a
// task scheduled outside Terraform; Terraform's final plan kept the task as the state records it,
// and the apply replaced it, so the state named a task the cloud no longer had.

// keepsPendingClass reports whether the configured class is the one the waiting spec change
// makes, for the window it waits for (apply_restarts = in_maintenance_window and the window kept),
// and nothing else of the spec changes (an order for the rest, a storage growth sent now say,
// replaces the task, so it carries the class). With storage autoscaling on the order carries the
// class too: the disk may have grown past the floor the state records, and a kept task left the
// state naming the floor and a task the apply's refresh no longer found (sweep seed 53, a task
// imported then its window moved). Where the configuration equals the state, Terraform's final
// plan changes nothing and the apply sends nothing (apply.go), so no copy of the task goes out (issue
// 39 §4, seeds 20261202 and 20261206). A restart during this apply (SSL, say) leaves the task
// waiting, so scheduled_change is read back after the apply (PlannedScheduledChange).
func keepsPendingClass(in PlanInput) bool {
	p, c := in.Facts.Pending, in.Desired
	if in.Prior == nil || !in.Facts.SpecChangePending || in.Facts.PendingClass == "" || !p.Has(PendingSpec) || c.ApplyRestarts != ApplyRestartsInWindow {
		return false
	}
	cur, grows := *in.Prior, c.AutoScale.Want.Enabled || c.AutoScale.WantUnknown
	return !grows && c.InstanceClass.Is(in.Facts.PendingClass) && c.MaintenanceWindow.Is(p.Window) && nullOr(c.Storage, cur.Storage) &&
		nullOr(c.StorageType, cur.StorageType) && nullOr(c.AtomicWrite, cur.Enabled) && nullOr(c.BufferPoolExtension, cur.BufferPoolExtension) &&
		nullOr(c.Category, cur.Category) && placementKept(in)
}

// placementKept: the configuration moves no zone (nor, above, changes the edition, an order that
// would replace the task without its class). A move beside a kept task would be a second
// switchover in the task's window that the plan named as one; with the class counted as a change,
// zone-move-alone refuses the pair, as it did before the task was kept (issue 39 §4, the short
// oracle's seed 20261206: a saved plan, the cloud moved on, beside a task scheduled outside Terraform).
func placementKept(in PlanInput) bool {
	f := in.Facts.Placement
	return f == nil || targetPlacement(f.Placement, in.Desired.Placement) == f.Placement
}

// nullOr: the configuration leaves the value unset, or sets it to cur.
func nullOr[T comparable](v Val[T], cur T) bool {
	return v.IsNull() || v.Is(cur)
}

// A spec change waiting for the maintenance window (whoever scheduled it) while a spec value is known
// only at apply, with apply_restarts = in_maintenance_window (issue 39 §4, mechanism "instance_type known
// at apply" after a task scheduled outside Terraform, seeds 20261202 and 20261206): the value may resolve
// to the instance's own spec, and the apply's final plan then orders that spec for the window, which
// cancels the task (cancelsPending), so the window restarts nothing for it. The plan names the task's
// restart as possible (it named it certain, and the window made none, also after rds_apply_pending). A
// value resolving to another spec replaces the task in the same window; to the task's class, keeps it.

// taskMayBeCancelled reports whether the final plan may cancel the waiting task: it is a spec change or
// toggle with no restart-needing parameters (those wait on after a cancel: keepWaitingParameters), and
// every spec value configured and known is the instance's own (a storage at or below the disk, which
// autoscaling may have grown: the order keeps the disk).
func taskMayBeCancelled(in PlanInput) bool {
	p, c := in.Facts.Pending, in.Desired
	if in.Prior == nil || !in.Facts.SpecChangePending || p == nil || !specOrderCancels(p) || len(PendingParameterChanges(p.Changes)) > 0 {
		return false
	}
	cur := *in.Prior
	storage := !c.Storage.IsKnown() || c.Storage.Value() <= cur.Storage
	return storage && unknownOr(c.InstanceClass, cur.InstanceClass) && unknownOr(c.StorageType, cur.StorageType) && unknownOr(c.AtomicWrite, cur.Enabled)
}

// unknownOr: the value is known only at apply, unset, or cur.
func unknownOr[T comparable](v Val[T], cur T) bool {
	return v.IsUnknown() || nullOr(v, cur)
}

// taskMayBeCancelledReason is the reason a possible restart of a waiting task gives.
func taskMayBeCancelledReason(unknown string) string {
	return "unless " + unknown + ", known only at apply, keeps the instance's own spec: this apply's order for the window then cancels the task"
}

// classMayKeepTask: the configured class is the one a waiting spec change makes (the state records
// it), and a spec value known only at apply may resolve to the state's. The final plan then equals
// the state, plans nothing and the apply sends nothing (the task keeps waiting), so the restart of
// the class order this plan names is possible, not certain (issue 39 §4: "storage known at apply"
// beside a task scheduled outside Terraform named the restart certain, and the apply made none).
func classMayKeepTask(in PlanInput) bool {
	c := in.Desired
	if in.Prior == nil || !in.Facts.SpecChangePending || in.Facts.PendingClass == "" || !c.InstanceClass.Is(in.Facts.PendingClass) {
		return false
	}
	cur := *in.Prior
	unknown := c.Storage.IsUnknown() || c.StorageType.IsUnknown() || c.AtomicWrite.IsUnknown() || c.BufferPoolExtension.IsUnknown()
	return unknown && unknownOr(c.Storage, cur.Storage) && unknownOr(c.StorageType, cur.StorageType) && unknownOr(c.AtomicWrite, cur.Enabled) &&
		unknownOr(c.BufferPoolExtension, cur.BufferPoolExtension)
}

// classMayKeepTaskReason is the reason the possible restart of classMayKeepTask gives.
const classMayKeepTaskReason = "unless the values known only at apply keep the state's: the class is the one the waiting task makes, and the apply then sends nothing"
