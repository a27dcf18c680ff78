package rdsservice

// The computed values a plan of an instance shows: known where the plan decides them, unknown
// where only the apply (or the cloud) does.

// ProposedValues are the computed attributes as Terraform proposes them, with the prior state's
// values they are planned from, and the configuration the planner's input does not carry.
type ProposedValues struct {
	// StorageActual is the proposed storage_actual (unknown when the framework marked it so);
	// PriorStorageActual the prior state's.
	StorageActual, PriorStorageActual Val[int64]
	// LockMode is the proposed lock_mode.
	LockMode Val[string]
	// PriorExpireTime and PriorMinorVersion are the prior state's expire_time and minor_version.
	PriorExpireTime, PriorMinorVersion Val[string]
	// BillingUnknown: billing is known only at apply.
	BillingUnknown bool
	// RestoreFrom: restore_from is configured (a clone runs what CloneDBInstance gives it).
	RestoreFrom bool
	// Scheduled is what scheduled_change is planned from (plan_scheduled.go).
	Scheduled ScheduledInputs
}

// PlannedValues are the computed values of a plan that keeps the instance.
type PlannedValues struct {
	StorageActual                      Val[int64]
	LockMode, ExpireTime, MinorVersion Val[string]
	// ScheduledChange is scheduled_change of an update.
	ScheduledChange ScheduledChange
	// SSLReissued: the apply turns SSL off and on again around an endpoint change, which issues a
	// new certificate, so ssl_expire_time is known only after it (endpoint_ssl.go).
	SSLReissued bool
}

// planValues plans the computed values from the planner's input and decision.
func planValues(in PlanInput, p ProposedValues, dec Decision) PlannedValues {
	v := PlannedValues{
		StorageActual: plannedStorageActual(in, p, dec),
		LockMode:      PlannedLockMode(p.LockMode, in.Prior != nil),
		ExpireTime:    plannedExpireTime(in, p),
		MinorVersion:  plannedMinorVersion(in, p, dec),
		SSLReissued:   dec.Action != ActionReplace && sslAroundEndpoint(in),
	}
	if in.Prior != nil {
		// The spec planned has the flags as decided.
		s := p.Scheduled
		s.Requested.AtomicWrite, s.Requested.AtomicWriteSupport = dec.AtomicWrite.Or(false), dec.AtomicWriteSupported.Or(false)
		s.Requested.BufferPoolExtension = dec.BufferPoolExtension.Or(false)
		s.SpecUnknown, s.KeepsTask = !specKnown(in.Desired, dec), keepsPendingClass(in)
		if storageFloored(in) && s.From != nil {
			s.Requested.Storage = s.From.Storage // the order leaves the disk as it is (windowStorage)
		}
		v.ScheduledChange = PlannedScheduledChange(dec, s)
	}
	return v
}

// specKnown: every value a spec order is made of is known at plan (else the apply may send one,
// or defer one to the window, that this plan cannot name).
func specKnown(c Desired, dec Decision) bool {
	return !c.InstanceClass.IsUnknown() && !c.Storage.IsUnknown() && !c.StorageType.IsUnknown() &&
		dec.AtomicWrite.IsKnown() && dec.BufferPoolExtension.IsKnown()
}

// plannedStorageActual is storage_actual: unknown while autoscaling may grow the disk or the
// storage is known only at apply (issue 39 §3), the storage of a new instance, the storage a
// resize during this apply gives, else the prior one.
func plannedStorageActual(in PlanInput, p ProposedValues, dec Decision) Val[int64] {
	switch want := in.Desired.AutoScale; {
	case !p.StorageActual.IsUnknown():
		return p.StorageActual
	case want.Want.Enabled || want.WantUnknown || in.Desired.Storage.IsUnknown():
		return Unknown[int64]()
	case in.Prior == nil:
		return in.Desired.Storage
	}
	for _, op := range dec.Program.Operations {
		if op.Action == OpModifySpec && op.Spec != nil && op.Spec.Storage != nil && op.When != WhenInWindow {
			return Known(*op.Spec.Storage)
		}
	}
	return p.PriorStorageActual
}

// PlannedLockMode is lock_mode in a plan that changes an instance: an instance that is not locked
// stays so (the plan shows no noise), a lock may be lifted before the apply (that is the fix the
// plan names), so it is known only then.
func PlannedLockMode(proposed Val[string], exists bool) Val[string] {
	if exists && proposed.Is(LockUnlocked) {
		return proposed
	}
	return Unknown[string]()
}

// plannedExpireTime is expire_time: known only at apply for a new instance and for a change of
// pay type (or billing known only then), else the prior one.
func plannedExpireTime(in PlanInput, p ProposedValues) Val[string] {
	b := in.Desired.Billing
	switch {
	case in.Prior == nil:
		return Unknown[string]()
	case b.Set && b.Want.Prepaid() != b.PriorPrepaid:
		return Unknown[string]()
	case p.BillingUnknown:
		return Unknown[string]()
	}
	return p.PriorExpireTime
}

// plannedMinorVersion is minor_version: the target of an upgrade made during this apply (or of a
// create that names one), else the running one; unknown for a new instance without a target and
// across a major version upgrade.
func plannedMinorVersion(in PlanInput, p ProposedValues, dec Decision) Val[string] {
	var follow *MinorFollow
	if in.Prior != nil {
		follow = PlannedMinorFollow(dec, in.Prior.ID)
	}
	switch up := dec.Minor.Upgrade; {
	case follow != nil && follow.When == "": // during the apply, a waiting one too when its window is open now
		return Known(follow.To)
	case up != nil && !dec.Deferred:
		return Known(up.To)
	case dec.Upgrade != nil:
		return Unknown[string]() // a new major version comes with its own minor version
	case in.Prior != nil:
		return p.PriorMinorVersion
	case in.Desired.Minor.Target.IsKnown() && !p.RestoreFrom:
		return in.Desired.Minor.Target // a clone runs what CloneDBInstance gives it
	}
	return Unknown[string]()
}
