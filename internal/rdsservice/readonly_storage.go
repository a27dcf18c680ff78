package rdsservice

import "fmt"

// The cloud checks every ModifyDBInstanceSpec of a read-only instance against its primary's
// storage at the time it is sent (simulator README "Storage"): the order carries the read-only
// instance's whole spec, storage included, so a class change or a flag toggle is refused as much
// as a storage change while the read-only instance has less storage than its primary. Terraform
// changes the primary first, so the storage that counts is the larger of the primary's now and
// the one this run's plan of the primary grows it to (a growth goes now, online, even when the
// rest of the primary's change waits for the window: growNow).

// checkReadOnlySpecStorage refuses a read-only instance's spec order whose storage is below its
// primary's, now or as this apply leaves it; when this run's plan of the primary knows its
// storage only at apply, it names the refusal as possible (issue 39 §3).
func (u *updatePlan) checkReadOnlySpecStorage() {
	in, d := u.in, u.d
	primary := in.Facts.Primary
	if !u.readOnly || primary == nil || d.Order.Empty() || !u.c.Storage.IsKnown() {
		return
	}
	if in.Facts.PrimaryStorage.IsUnknown() {
		d.add(problem(RuleStorageReadOnlyBelowUnknown, fmt.Sprint(u.c.Storage.Value()), in.Label, primary.ID, u.c.Storage.Value()))
	}
	storage, label := primaryStorageAfter(in, primary)
	if s := u.c.Storage.Value(); s < storage {
		d.add(problem(RuleStorageReadOnlyBelow, fmt.Sprint(s), s, in.Label, label, storage))
	}
}

// primaryStorageAfter is the read-only instance's primary's storage as this apply leaves it, and the
// primary's label in messages: the larger of its storage now and the one this run's plan of the
// primary grows it to. A new read-only instance is created after that growth too (found by the
// oracle's proxy factor: a read-only instance added in the run of its primary's growth passed the
// plan and was refused at apply).
func primaryStorageAfter(in PlanInput, primary *ExistingInstance) (int64, string) {
	if planned := in.Facts.PrimaryStorage; planned.IsKnown() && planned.Value() > primary.Storage {
		return planned.Value(), primary.ID + " (as this apply grows it)"
	}
	return primary.Storage, primary.ID
}

// ReadOnlyDiskFloor is a read-only instance's plan input with its disk as read now (disk, in GB)
// as the storage floor: the cloud grows a read-only instance with its primary's autoscaling while
// the state keeps the configured storage, and a spec order carries the disk as it is, so a
// configured storage at or below the disk is the disk (issue 41 §3.15). A larger configured
// storage is a growth, as before.
func ReadOnlyDiskFloor(in PlanInput, disk int64) PlanInput {
	if in.Role != RoleReadOnly || in.Prior == nil || disk <= in.Prior.Storage {
		return in
	}
	prior := *in.Prior
	if in.Desired.Storage.IsKnown() && in.Desired.Storage.Value() <= disk {
		in.Desired.Storage = Known(disk)
	}
	prior.Storage = disk
	in.Prior = &prior
	return in
}
