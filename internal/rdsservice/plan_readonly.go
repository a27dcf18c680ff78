package rdsservice

import "fmt"

// planReadOnlyCreate plans a new read-only instance.
func planReadOnlyCreate(in PlanInput, d *Decision) {
	c := in.Desired
	d.Action = ActionCreate
	d.Status = Known(StatusRunning)
	d.Architecture = architectureOf(c.InstanceClass)
	d.EngineVersion, d.StorageType = c.EngineVersion, c.StorageType
	d.AtomicWriteSupported = Unknown[bool]()
	primary := in.Facts.Primary
	if primary == nil {
		planReadOnlyOfNewPrimary(in, d)
		return
	}
	if !planReadOnlySpecFromPrimary(in, d, primary) {
		return
	}
	planReadOnlyCreateAtomicWrite(in, d, primary)
}

// planReadOnlyOfNewPrimary plans a read-only instance whose primary is created in this apply:
// its values are known only then, and the apply decides again before creating anything.
func planReadOnlyOfNewPrimary(in PlanInput, d *Decision) {
	c := in.Desired
	checkStorageAgainstNewPrimary(in, d)
	d.AtomicWrite = c.AtomicWrite
	if c.AtomicWrite.IsNull() {
		d.AtomicWrite = Unknown[bool]()
	}
	if c.AtomicWrite.Is(true) {
		d.RestartAttribute = AttrAtomicWrite
		d.MayRestart = append(d.MayRestart, "its primary's atomic_write_16k (off means it is created off and then turned on)")
	}
}

// planReadOnlySpecFromPrimary checks the new read-only instance against its primary and takes
// the engine version and storage type the configuration leaves open from it. false: a problem
// that leaves nothing more to decide (a read-only primary, another engine version).
func planReadOnlySpecFromPrimary(in PlanInput, d *Decision, primary *ExistingInstance) bool {
	c := in.Desired
	if primary.MasterID != "" {
		d.add(problem(RuleReadOnlyOfReadOnly, primary.ID, primary.ID, primary.MasterID))
		return false
	}
	if c.EngineVersion.IsKnown() && c.EngineVersion.Value() != primary.EngineVersion {
		d.add(problem(RuleReadOnlyEngineVersion, c.EngineVersion.Value(), primary.ID, primary.EngineVersion, c.EngineVersion.Value()))
		return false
	}
	if to := in.Facts.PrimaryUpgradePending; to != "" {
		// Created on the version the primary runs until its window, it would be behind the upgrade
		// there, which RDS refuses (read-only instances first): PendingBehaviours, engine upgrade.
		d.add(problem(RuleReadOnlyBehindPendingUpgrade, primary.ID, primary.ID, to, primary.EngineVersion))
		return false
	}
	if c.EngineVersion.IsNull() || c.EngineVersion.IsUnknown() {
		d.EngineVersion = Known(primary.EngineVersion)
	}
	if (c.StorageType.IsNull() || c.StorageType.IsUnknown()) && primary.StorageType != "" {
		d.StorageType = Known(primary.StorageType)
	}
	if storage, label := primaryStorageAfter(in, primary); c.Storage.IsKnown() && storage > 0 && c.Storage.Value() < storage {
		d.add(problem(RuleStorageReadOnlyBelow, fmt.Sprint(c.Storage.Value()), c.Storage.Value(), in.Label, label, storage))
	}
	nameNewReadOnlyStorageRefusalPossible(in, d, primary)
	return true
}

// planReadOnlyCreateAtomicWrite decides the new read-only instance's atomic_write_16k: it
// inherits its primary's when eligible (rule 7); turning it on while the primary has it off is
// a toggle right after creation (one restart).
func planReadOnlyCreateAtomicWrite(in PlanInput, d *Decision, primary *ExistingInstance) {
	c := in.Desired
	specKnown := d.EngineVersion.IsKnown() && d.StorageType.IsKnown() && c.InstanceClass.IsKnown()
	var problems []Problem
	if specKnown {
		problems = EligibleForNew(NewInstanceSpec{Engine: primary.Engine, EngineVersion: d.EngineVersion.Value(),
			StorageType: d.StorageType.Value(), Category: primary.Category, InstanceClass: c.InstanceClass.Value()})
		d.AtomicWriteSupported = Known(len(problems) == 0)
	}
	primaryOn := primaryFlag(in.Facts)
	if primaryOn.IsUnknown() {
		d.add(problem(Rule16KPrimaryNotKnown, "", in.Label, primary.ID, primary.Enabled))
		newReadOnlyBesideUnknownPrimary(in, d, problems)
		return
	}
	on := primaryOn.Value()
	inherits := on && len(problems) == 0
	switch {
	case c.AtomicWrite.IsNull():
		d.AtomicWrite = Known(inherits)
		if on && !specKnown {
			d.AtomicWrite = Unknown[bool]()
		}
	case c.AtomicWrite.IsUnknown() || !specKnown:
		d.AtomicWrite = c.AtomicWrite
	case !c.AtomicWrite.Value() && inherits:
		d.AtomicWrite = c.AtomicWrite
		d.add(problem(Rule16KReadOnlyOff, "false", in.Label, primary.ID, hasOrWillHave(in.Facts), readOnlyOffFix(in, primary.ID, false)))
	case c.AtomicWrite.Value() && len(problems) > 0:
		d.AtomicWrite = c.AtomicWrite
		d.add(problems...)
	case c.AtomicWrite.Value() && !on:
		d.AtomicWrite = c.AtomicWrite
		want := true
		d.ToggleAfterCreate = &want
		d.RestartAttribute = AttrAtomicWrite
		d.Restarts = append(d.Restarts, readOnlyToggleAfterCreate(in.Label, primary.ID))
	default:
		d.AtomicWrite = c.AtomicWrite
	}
}

// newReadOnlyBesideUnknownPrimary decides a new read-only instance's atomic_write_16k while its
// primary's planned value is known only at apply. Terraform creates it after the primary's change,
// and it takes the value the primary has then (rule 7): an inherited value is known only at apply
// (the plan promised the primary's current value, and the final plan changed it: sweep seed 63,
// issue 39 §3); when the primary is off and its change would wait for its window, the instance is
// created off and may follow the toggle there (a possible restart in that window, sweep seed 154). A
// configured true is turned on after creation only if the primary is off then (a possible restart).
// A configured false that the primary's value refuses is named by the rule's text.
func newReadOnlyBesideUnknownPrimary(in PlanInput, d *Decision, problems []Problem) {
	c := in.Desired
	switch {
	case c.AtomicWrite.IsNull() && d.AtomicWriteSupported.Is(false):
		d.AtomicWrite = Known(false)
	case c.AtomicWrite.IsNull():
		d.AtomicWrite = Unknown[bool]()
		if in.Facts.PrimaryUnknownFlagStartsAt != "" && !in.Facts.Primary.Enabled {
			d.MayRestart = append(d.MayRestart, followUnknownPrimary(in.Facts.Primary.ID))
		}
	case c.AtomicWrite.Is(true) && len(problems) > 0:
		d.AtomicWrite = c.AtomicWrite
		d.add(problems...)
	case c.AtomicWrite.Is(true):
		d.AtomicWrite = c.AtomicWrite
		d.RestartAttribute = AttrAtomicWrite
		d.MayRestart = append(d.MayRestart, "its primary "+in.Facts.Primary.ID+"'s atomic_write_16k (off then, this instance is turned on after creation)")
	default:
		d.AtomicWrite = c.AtomicWrite
	}
}

func readOnlyToggleAfterCreate(label, primary string) Restart {
	return Restart{InstanceID: label,
		Reasons: []string{fmt.Sprintf("it is created with its primary %s's atomic_write_16k = false and then turned on "+
			"(atomic_write_16k changes from false to true)", primary)},
		Downtime: ExpectedDowntime("", true)}
}
