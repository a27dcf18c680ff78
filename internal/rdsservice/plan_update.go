package rdsservice

import (
	"fmt"
	"strings"
)

// cloudStorage reports whether a storage type is a cloud disk (ESSD, general ESSD or standard SSD).
func cloudStorage(storageType string) bool {
	s := strings.ToLower(strings.TrimSpace(storageType))
	return strings.HasPrefix(s, "cloud_") || s == "general_essd"
}

// StorageChangeRestarts is the storage fact the planner and the docs follow: growing cloud-disk
// storage of the same type happens online; any other storage change (a reduction, local disks, a
// new storage type) ends with a switchover.
func StorageChangeRestarts(fromStorage, toStorage int64, fromType, toType string) bool {
	if fromType != toType {
		return true
	}
	if toStorage < fromStorage {
		return true
	}
	return toStorage > fromStorage && !cloudStorage(toType)
}

// shrinkOffered is the storage scale-in prerequisite: MySQL 5.7/8.0 on ESSD.
func shrinkOffered(engine, version, storageType string) bool {
	return IsMySQL(engine) && versionEligible(version) && storageEligible(storageType)
}

// planUpdate plans a change of an existing primary or read-only instance.
func planUpdate(in PlanInput, d *Decision) {
	u := newUpdatePlan(in, d)
	u.planEngineUpgrade()
	u.planZoneMove()
	u.checkStorage()
	u.planAtomicWrite()
	u.recordRestartAttributes()
	u.planSupportAndArchitecture()
	u.checkAtomicWriteRules()
	u.name16KRefusalPossible()
	u.refuse16KWhateverTheChange()
	u.planEditionUpgrade()
	if !u.readOnly {
		u.planBufferPoolExtension()
	}
	u.planRestarts()
	u.checkReadOnlySpecStorage()
	u.planFollowers()
	u.settleEngineUpgrade()
	u.settleZoneMove()
	u.settleActionAndStatus()
}

// updatePlan is planUpdate's working state, shared by its steps: the steps run in a fixed order
// because later ones read what earlier ones decided (and problems keep the order found).
type updatePlan struct {
	in       PlanInput
	d        *Decision
	cur      ExistingInstance
	c        Desired
	readOnly bool
	// change is the one spec change; the flags say which of its parts the configuration changes.
	change                                    SpecChange
	classChanged, typeChanged, storageChanged bool
	// changeKnown: instance class and storage type are known at plan; newType is the storage
	// type after the change.
	changeKnown bool
	newType     string
	// flag is the planned atomic_write_16k; primaryOn is a read-only instance's primary's.
	flag, primaryOn Val[bool]
	flagChanged     bool
}

// newUpdatePlan sets the starting status and works out the spec change the configuration asks
// for; attributes not known at plan may add a restart.
func newUpdatePlan(in PlanInput, d *Decision) *updatePlan {
	cur, c := *in.Prior, in.Desired
	u := &updatePlan{in: in, d: d, cur: cur, c: c, readOnly: in.Role == RoleReadOnly}
	d.Action = ActionNoop
	d.Status = Known(cur.Status)
	if cur.Status == StatusRunning || cur.Status == "" {
		d.Status = Known(StatusRunning)
	}
	u.classChanged = c.InstanceClass.IsKnown() && c.InstanceClass.Value() != cur.InstanceClass && !keepsPendingClass(in)
	u.typeChanged = c.StorageType.IsKnown() && c.StorageType.Value() != cur.StorageType
	u.storageChanged = c.Storage.IsKnown() && c.Storage.Value() != cur.Storage
	for _, unknown := range []struct {
		name    string
		unknown bool
	}{{AttrInstanceType, c.InstanceClass.IsUnknown()}, {AttrStorage, c.Storage.IsUnknown()}, {AttrStorageType, c.StorageType.IsUnknown()}} {
		if unknown.unknown {
			d.MayRestart = append(d.MayRestart, unknown.name)
			u.trigger(unknown.name)
		}
	}
	if u.classChanged {
		u.change.InstanceClass = c.InstanceClass.Value()
		d.Order.InstanceClass = &u.change.InstanceClass
	}
	if u.typeChanged {
		u.change.StorageType = c.StorageType.Value()
		d.Order.StorageType = &u.change.StorageType
	}
	if u.storageChanged {
		u.change.Storage = c.Storage.Value()
		d.Order.Storage = &u.change.Storage
	}
	u.changeKnown = !c.InstanceClass.IsUnknown() && !c.StorageType.IsUnknown()
	u.newType = cur.StorageType
	if u.typeChanged {
		u.newType = u.change.StorageType
	}
	return u
}

// trigger names the restart's attribute: the first one found restarts the instance.
func (u *updatePlan) trigger(name string) {
	if u.d.RestartAttribute == "" {
		u.d.RestartAttribute = name
	}
}

// checkStorage applies the storage rules (cloud facts, simulator README "Storage").
func (u *updatePlan) checkStorage() {
	cur, change, in, d := u.cur, u.change, u.in, u.d
	if u.typeChanged && cloudStorage(cur.StorageType) && !cloudStorage(change.StorageType) {
		d.add(problem(RuleStorageTypeCloudToLocal, change.StorageType, cur.StorageType, change.StorageType))
	}
	if u.storageChanged && change.Storage < cur.Storage {
		if !shrinkOffered(cur.Engine, cur.EngineVersion, u.newType) {
			d.add(problem(RuleStorageShrinkNotOffered, fmt.Sprint(change.Storage), cur.Storage, change.Storage, cur.Engine, cur.EngineVersion, u.newType))
		} else {
			d.add(problem(RuleStorageShrinkLimits, fmt.Sprint(change.Storage), cur.Storage, change.Storage))
		}
	}
	if !u.readOnly && u.storageChanged && change.Storage > cur.Storage {
		var below []string
		for _, ro := range in.Facts.ReadOnly {
			if ro.Storage > 0 && ro.Storage < change.Storage {
				below = append(below, fmt.Sprintf("%s (%d GB)", ro.ID, ro.Storage))
			}
		}
		if len(below) > 0 {
			d.add(problem(RuleStoragePrimaryAbove, fmt.Sprint(change.Storage), in.Label, change.Storage, strings.Join(below, ", ")))
		}
	}
}

// planAtomicWrite decides atomic_write_16k: the configured value; else for a read-only instance
// its primary's planned value when that turns it on (rule 7), else the current value unless the
// change makes the instance ineligible.
func (u *updatePlan) planAtomicWrite() {
	cur, c, change, in, d := u.cur, u.c, u.change, u.in, u.d
	flag := c.AtomicWrite
	u.primaryOn = Known(false)
	mayFollow := false
	if u.readOnly {
		u.primaryOn = primaryFlag(in.Facts)
		if u.primaryOn.IsUnknown() && in.Facts.Primary != nil && !c.AtomicWrite.Is(true) {
			// The primary's plan is known only at apply: the apply checks again before any write.
			d.add(problem(Rule16KPrimaryNotKnown, "", in.Label, in.Facts.Primary.ID, in.Facts.Primary.Enabled))
			mayFollow = u.mayFollowPrimary()
		}
	}
	switch {
	case c.AtomicWrite.IsKnown():
	case c.AtomicWrite.IsUnknown() || !u.changeKnown:
		flag = Unknown[bool]()
	case u.readOnly && u.primaryOn.Is(true) && !cur.Enabled && cur.Supported &&
		(!u.classChanged && !u.typeChanged || c.ApplyRestarts != ApplyRestartsInWindow && PredictSupportedAfter(cur, change)):
		// The primary turns on in this run (or did earlier in this apply): the cloud turns this
		// instance on with it, and keeps it on through a spec change sent now that keeps it eligible.
		flag = Known(true)
		d.FollowsPrimary = true
	default:
		flag = Known(cur.Enabled)
		if cur.Enabled && (u.classChanged || u.typeChanged) && !PredictSupportedAfter(cur, change) {
			flag = Known(false)
			if !u.readOnly || !u.primaryOn.Is(true) { // a read-only instance of a primary with it on: rule 7 refuses it, with its own fix
				d.add(problem(Rule16KTurnedOffChange, "false", in.Label, describeChange(cur, change), permanence(cur, change)).
					At(firstNonEmpty(attrIf(u.classChanged, AttrInstanceType), AttrStorageType)))
			}
		}
	}
	if mayFollow && flag.IsKnown() && in.Facts.PrimaryUnknownFlagStartsAt == "" {
		flag = Unknown[bool]() // it follows during this apply, if at all (in the primary's window it keeps its value until then)
	}
	d.AtomicWrite = flag
	u.flag = flag
	u.flagChanged = flag.IsKnown() && flag.Value() != cur.Enabled && IsMySQL(cur.Engine)
}

// mayFollowPrimary: a read-only instance that inherits the flag, off and eligible, restarts with
// its primary if the primary's value, known only at apply, turns it on (rule 7): a possible restart.
func (u *updatePlan) mayFollowPrimary() bool {
	cur, primary := u.cur, u.in.Facts.Primary
	if !u.c.AtomicWrite.IsNull() || cur.Enabled || !cur.Supported || primary.Enabled || !IsMySQL(cur.Engine) {
		return false
	}
	u.d.MayRestart = append(u.d.MayRestart, followUnknownPrimary(primary.ID))
	u.trigger(AttrAtomicWrite)
	return true
}

// recordRestartAttributes names the restart's attribute in a fixed order (class, storage, type,
// flag) and orders the flag change unless the cloud makes it for the primary.
func (u *updatePlan) recordRestartAttributes() {
	cur, d := u.cur, u.d
	if u.flag.IsUnknown() {
		d.MayRestart = append(d.MayRestart, AttrAtomicWrite)
		u.trigger(AttrAtomicWrite)
	}
	if u.classChanged {
		u.trigger(AttrInstanceType)
	}
	if u.storageChanged && StorageChangeRestarts(cur.Storage, u.change.Storage, cur.StorageType, u.newType) {
		u.trigger(AttrStorage)
	}
	if u.typeChanged {
		u.trigger(AttrStorageType)
	}
	if u.flagChanged {
		u.trigger(AttrAtomicWrite)
		if !d.FollowsPrimary {
			d.Order.AtomicWrite = u.flag.Ptr()
		}
	}
}

// planSupportAndArchitecture predicts atomic_write_16k_supported and the architecture after the
// change.
func (u *updatePlan) planSupportAndArchitecture() {
	cur, d := u.cur, u.d
	d.AtomicWriteSupported = Known(cur.Supported)
	switch {
	case !u.changeKnown:
		d.AtomicWriteSupported = Unknown[bool]()
	case u.classChanged || u.typeChanged:
		if supported, known := PredictSupportedAfterKnown(cur, u.change); known {
			d.AtomicWriteSupported = Known(supported)
		} else {
			d.AtomicWriteSupported = Unknown[bool]()
		}
	}
	d.Architecture = Known(currentArchitecture(cur))
	if u.classChanged {
		d.Architecture = Known(Architecture(u.change.InstanceClass))
	} else if u.c.InstanceClass.IsUnknown() {
		d.Architecture = Unknown[string]()
	}
}

// checkAtomicWriteRules checks the planned flag, when something that matters changes.
// Rule 7: off is impossible while the primary has it on, and an eligible read-only instance
// that is off now is turned on by its primary turning on.
func (u *updatePlan) checkAtomicWriteRules() {
	cur, c, in, d, flag := u.cur, u.c, u.in, u.d, u.flag
	if u.readOnly && flag.Is(false) && u.primaryOn.Is(true) && (cur.Enabled || cur.Supported) {
		d.add(problem(Rule16KReadOnlyOff, "false", in.Label, cur.MasterID, hasOrWillHave(in.Facts), readOnlyOffFix(in, cur.MasterID, !c.AtomicWrite.IsKnown())))
	}
	if flag.IsKnown() && u.changeKnown && !d.FollowsPrimary && (u.flagChanged || (flag.Value() && (u.classChanged || u.typeChanged))) {
		d.add(CheckToggle(cur, flag.Value(), u.change)...)
		d.add(ToggleWarnings(cur, flag.Value(), u.change)...)
		if u.flagChanged && !flag.Value() && strings.EqualFold(cur.Category, "Basic") && !u.readOnly {
			d.add(problem(Rule16KBasicOffForGood, "false", in.Label))
		}
	}
}
