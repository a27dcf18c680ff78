package rdsservice

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
