package rdsservice

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
