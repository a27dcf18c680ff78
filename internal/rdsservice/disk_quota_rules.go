package rdsservice

// A storage growth is the one change the cloud takes from an instance locked because its disk is
// full, and it lifts that lock: about 5 minutes after the growth takes effect, not at once
// (simulator README, "Unusual states"). A change of pay type beside the growth, which the lock
// refuses (TransformDBInstancePayType), goes once the lock has lifted: the program grows the
// storage, waits for LockMode Unlock, then converts.

// growsStorageOnly reports whether the update's one write to the existing instance, billing
// aside, is a storage growth: the change a disk-quota lock lets through.
func growsStorageOnly(in PlanInput, d Decision) bool {
	o := d.Order
	return o.Storage != nil && *o.Storage > in.Prior.Storage && o.InstanceClass == nil && o.StorageType == nil &&
		o.AtomicWrite == nil && o.BufferPoolExtension == nil && !in.Desired.InPlaceChanges && len(d.Parameters.Send) == 0 &&
		!d.FollowsPrimary && d.Security == (SecurityDecision{})
}

// growsStorageNow reports whether the growth takes effect during this apply: restarts are not
// deferred to the window (deferToWindow, which runs after the state's check), or it grows a cloud
// disk, which goes online at once whatever the window (growNow).
func growsStorageNow(in PlanInput) bool {
	return in.Desired.ApplyRestarts != ApplyRestartsInWindow || cloudStorage(in.Prior.StorageType)
}

// transformsPayType reports whether the update sends TransformDBInstancePayType (billing_program.go).
func transformsPayType(bp BillingPlan) bool {
	if !bp.Set {
		return false
	}
	if bp.Want.Prepaid() {
		return bp.Prior == nil || !bp.Prior.Prepaid()
	}
	return bp.Prior != nil && bp.Prior.Prepaid()
}

// growthLiftsLockFirst reports whether the update of an instance locked by disk quota grows its
// storage now and changes its pay type: the change of pay type waits for the lock to lift.
func growthLiftsLockFirst(in PlanInput, d Decision) bool {
	return in.Prior != nil && diskQuotaLock(in.Prior.LockMode) && growsStorageOnly(in, d) && growsStorageNow(in) &&
		transformsPayType(in.Desired.Billing)
}
