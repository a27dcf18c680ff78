package rdsservice

import (
	"fmt"
	"strings"
	"time"
)

// planClone predicts a clone: it runs its source's engine and version, keeps the source's product
// line (purchase date and product-type history) and inherits its flag (rule 8) when its own class
// and storage allow it.
func planClone(in PlanInput, d *Decision) {
	c := in.Desired
	d.Action = ActionCreate
	d.Status = Known(StatusRunning)
	d.add(CheckConfig(c)...)
	if in.Facts.CrossCopy != nil {
		if checkCrossRestore(in, d); d.HasErrors() {
			return
		}
	}
	d.Architecture = architectureOf(c.InstanceClass)
	d.EngineVersion, d.StorageType = c.EngineVersion, c.StorageType
	d.BufferPoolExtension = c.BufferPoolExtension
	if c.BufferPoolExtension.IsNull() {
		d.BufferPoolExtension = Known(false)
	}
	src := in.Facts.Source
	if src == nil {
		if in.Facts.SourceError != "" {
			d.add(problem(RuleCloneSourceUnreadable, "", "the restore source", in.Facts.SourceError))
		}
		d.AtomicWrite, d.AtomicWriteSupported = c.AtomicWrite, Unknown[bool]()
		if c.AtomicWrite.IsNull() {
			d.AtomicWrite = Unknown[bool]()
		}
		if in.Facts.SourceError == "" { // the source is known only at apply (created in this run)
			cloneRestartsUnknown(in, d, "the restore source's atomic_write_16k (the clone inherits it)")
		}
		return
	}
	checkCloneAgainstSource(in, d, src)
	if d.HasErrors() {
		return
	}
	if !src.CreationTime.IsZero() {
		d.PurchaseTime = Known(src.CreationTime.UTC().Format("2006-01-02T15:04:05Z"))
	}
	planCloneAfterCreate(in, d, src)
}

// checkCloneAgainstSource refuses an engine, version or restore time the source cannot give.
func checkCloneAgainstSource(in PlanInput, d *Decision, src *ExistingInstance) {
	c := in.Desired
	if c.Engine.IsKnown() && !strings.EqualFold(c.Engine.Value(), src.Engine) {
		d.add(problem(RuleCloneDiffersFromSource, c.Engine.Value(), AttrEngine, c.Engine.Value(), src.ID, src.Engine).At(AttrEngine))
	}
	if c.EngineVersion.IsKnown() && strings.TrimSpace(c.EngineVersion.Value()) != src.EngineVersion {
		d.add(problem(RuleCloneDiffersFromSource, c.EngineVersion.Value(), AttrEngineVersion, c.EngineVersion.Value(), src.ID, src.EngineVersion))
	}
	if c.RestoreTime.IsKnown() && c.RestoreTime.Value() != "" {
		if t, err := ParseAPITime(c.RestoreTime.Value()); err == nil && !in.Facts.Now.IsZero() &&
			((!src.CreationTime.IsZero() && t.Before(src.CreationTime)) || t.After(in.Facts.Now)) {
			d.add(problem(RuleCloneRestoreTimeOutside, c.RestoreTime.Value(), c.RestoreTime.Value(), src.ID,
				src.CreationTime.Format(time.RFC3339), in.Facts.Now.UTC().Format(time.RFC3339)))
		}
	}
}

// planCloneAfterCreate decides what a clone inherits from its source and what goes out right
// after the clone is ready. CloneDBInstance cannot set the flag or Buffer Pool Extension (a clone
// starts with it off), so those go in one spec change (one restart).
func planCloneAfterCreate(in PlanInput, d *Decision, src *ExistingInstance) {
	c := in.Desired
	clone := *src
	clone.ID, clone.MasterID, clone.MasterEnabled, clone.DeletionProtection = in.Label, "", nil, false
	if !c.InstanceClass.IsKnown() || !c.StorageType.IsKnown() {
		d.AtomicWriteSupported = Unknown[bool]()
		d.AtomicWrite = c.AtomicWrite
		if c.AtomicWrite.IsNull() {
			d.AtomicWrite = Unknown[bool]()
		}
		unknown := "instance_type and storage_type (whether the clone keeps " + src.ID + "'s atomic_write_16k)"
		if c.AtomicWrite.Is(false) && !src.Enabled {
			unknown = "" // it inherits false: nothing to toggle
		}
		cloneRestartsUnknown(in, d, unknown)
		return
	}
	change := SpecChange{InstanceClass: c.InstanceClass.Value(), StorageType: c.StorageType.Value()}
	supported, known := PredictSupportedAfterKnown(clone, change)
	d.AtomicWriteSupported = Known(supported)
	if !known {
		d.AtomicWriteSupported = Unknown[bool]()
	}
	var reasons []string
	reason, refused := planCloneAtomicWrite(in, d, clone, change, src.Enabled && supported, known)
	if refused {
		return
	}
	if reason != "" {
		reasons = append(reasons, reason)
	}
	if c.BufferPoolExtension.Is(true) {
		if d.RestartAttribute == "" {
			d.RestartAttribute = AttrBufferPoolExtension
		}
		reasons = append(reasons, "buffer_pool_extension is turned on right after creation (CloneDBInstance cannot set it)")
	}
	if len(reasons) > 0 {
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Reasons: reasons, Downtime: ExpectedDowntime(c.Category.Or(src.Category), false)})
	}
}

// planCloneAtomicWrite decides a clone's atomic_write_16k: the configured value, else the
// inherited one. A value other than the inherited one is toggled right after creation; reason
// says so for the restart, and refused reports a toggle the rules refuse.
func planCloneAtomicWrite(in PlanInput, d *Decision, clone ExistingInstance, change SpecChange, inherited, known bool) (reason string, refused bool) {
	c, src := in.Desired, in.Facts.Source
	switch {
	case c.AtomicWrite.IsUnknown():
		d.AtomicWrite = Unknown[bool]()
		d.MayRestart = append(d.MayRestart, AttrAtomicWrite+" (toggled right after creation when it differs from the value inherited from "+src.ID+")")
		d.RestartAttribute = AttrAtomicWrite
	case c.AtomicWrite.IsNull() && src.Enabled && !known:
		d.AtomicWrite = Unknown[bool]()
	case c.AtomicWrite.IsNull():
		d.AtomicWrite = Known(inherited)
	default:
		want := c.AtomicWrite.Value()
		d.AtomicWrite = Known(want)
		if want == inherited {
			break
		}
		problems := CheckToggle(clone, want, change)
		d.add(problems...)
		if len(problems) > 0 {
			return "", true
		}
		d.add(ToggleWarnings(clone, want, change)...)
		d.ToggleAfterCreate = &want
		d.RestartAttribute = AttrAtomicWrite
		return fmt.Sprintf("it inherits atomic_write_16k = %t from %s and is toggled to %t right after creation", inherited, src.ID, want), false
	}
	return "", false
}

// cloneRestartsUnknown names the restarts right after a clone's creation that a value known only at
// apply (unknown, "" when it cannot cause one) decides: a configured atomic_write_16k other than the
// value the clone inherits is toggled with a restart (rule 8), so it may restart;
// buffer_pool_extension = true is turned on with one in any case (CloneDBInstance cannot set it).
func cloneRestartsUnknown(in PlanInput, d *Decision, unknown string) {
	c := in.Desired
	if unknown != "" && !c.AtomicWrite.IsNull() {
		d.RestartAttribute = AttrAtomicWrite
		d.MayRestart = append(d.MayRestart, unknown+", which decides whether the configured atomic_write_16k is a toggle right after creation,")
	}
	if c.BufferPoolExtension.Is(true) {
		if d.RestartAttribute == "" {
			d.RestartAttribute = AttrBufferPoolExtension
		}
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Downtime: ExpectedDowntime(c.Category.Or(""), false),
			Reasons: []string{"buffer_pool_extension is turned on right after creation (CloneDBInstance cannot set it)"}})
	}
}

// primaryFlag is the primary's atomic_write_16k once the primary's own plan is applied.
func primaryFlag(f Facts) Val[bool] {
	if !f.PrimaryPlanned.IsNull() {
		return f.PrimaryPlanned
	}
	if f.Primary == nil {
		return Unknown[bool]()
	}
	return Known(f.Primary.Enabled)
}

func hasOrWillHave(f Facts) string {
	if f.Primary != nil && f.PrimaryPlanned.IsKnown() && f.PrimaryPlanned.Value() != f.Primary.Enabled {
		return "will have"
	}
	return "has"
}
