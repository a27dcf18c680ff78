package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// The planner: one pure function from facts to a decision. The resources fetch the facts (prior
// state, configuration, primary, restore source, read-only instances, class catalogue), call Plan,
// and translate the Decision into plan values and diagnostics; their apply calls Plan again with
// the values known by then and stops on its errors before any write. Every rule and message comes
// from the rule table (ruletable.go).

// StatusRunning is the status every apply ends in.
const StatusRunning = "Running"

// Plan decides a plan. It makes no API call.
func Plan(in PlanInput) Decision {
	var d Decision
	in = applyStorageFloor(in, &d)
	switch {
	case in.Prior != nil && len(in.Replace) > 0:
		planReplace(in, &d)
		planBillingReplace(in, &d)
		checkReleasedCopies(in, &d)
		checkStorageAgainstNewPrimary(in, &d)
		checkEndpoints(in, &d)
		d.Program = programOf(in, d)
		if d.Guard == GuardNone {
			planReplacement(in, &d)
		}
		return d
	case in.Prior == nil && in.Role == RoleClone:
		planClone(in, &d)
	case in.Prior == nil && in.Role == RoleReadOnly:
		planReadOnlyCreate(in, &d)
	case in.Prior == nil:
		planCreate(in, &d)
	default:
		planUpdate(in, &d)
	}
	if in.Facts.Classes != nil {
		d.add(classProblems(in, *in.Facts.Classes)...)
	}
	planParameters(in, &d)
	planMinorVersion(in, &d) // before planSecurity: TDE on MySQL 5.6 reads the planned minor version
	planSecurity(in, &d)
	checkStorageAutoScale(in, &d)
	checkIPGroups(in, &d)
	checkSecurityGroups(in, &d)
	checkTemplateLinks(in, &d)
	checkSQLAudit(in, &d)
	checkMonitoring(in, &d)
	checkHASwitch(in, &d)
	checkSyncMode(in, &d)
	checkEndpoints(in, &d)
	planBilling(in, &d)
	checkUpgradeAlone(in, &d)
	checkPlacement(in, &d)
	planInstanceState(in, &d)
	guardRestarts(in, &d)
	return d
}

// CheckConfig is what the configuration alone decides (ValidateConfig): 16K prerequisites when
// the flag is asked for, and Buffer Pool Extension's storage type. Unknown values are skipped.
func CheckConfig(c Desired) []Problem {
	var problems []Problem
	if c.AtomicWrite.Is(true) && c.Engine.IsKnown() && c.EngineVersion.IsKnown() && c.StorageType.IsKnown() {
		for _, p := range prerequisiteProblems(c.Engine.Value(), c.EngineVersion.Value(), "", c.StorageType.Value(), "") {
			problems = append(problems, p.At(AttrAtomicWrite))
		}
	}
	if c.BufferPoolExtension.IsKnown() && c.StorageType.IsKnown() {
		problems = append(problems, CheckBufferPoolExtension(c.StorageType.Value(), c.BufferPoolExtension.Value())...)
	}
	return problems
}

// CheckRestoreFrom checks restore_from's shape: exactly one of backup_id, restore_time and
// cross_region_backup_id (cross_restore.go), the last with source_region.
func CheckRestoreFrom(backupID, restoreTime, crossID, sourceRegion Val[string]) []Problem {
	problems := CheckCrossRestoreShape(crossID, sourceRegion)
	if backupID.IsUnknown() || restoreTime.IsUnknown() || crossID.IsUnknown() {
		return problems
	}
	set := 0
	for _, v := range []Val[string]{backupID, restoreTime, crossID} {
		if v.Or("") != "" {
			set++
		}
	}
	if set != 1 {
		problems = append(problems, problem(RuleRestoreFromExactlyOne, ""))
	}
	return problems
}

func maxAction(a, b Action) Action {
	if a == ActionCreate || a == ActionReplace {
		return a
	}
	return max(a, b)
}

func downtimeOf(in PlanInput) string {
	category := in.Desired.Category.Or("")
	if in.Prior != nil {
		category = in.Prior.Category
	}
	return ExpectedDowntime(category, in.Role == RoleReadOnly)
}

func planReplace(in PlanInput, d *Decision) {
	d.Action = ActionReplace
	d.ReplacedBy = append([]string(nil), in.Replace...)
	attrs := strings.Join(in.Replace, ", ")
	switch {
	case in.Prior.DeletionProtection:
		d.Guard = GuardDeletionProtection
		d.add(problem(RuleReplaceRefusedProtection, "true", in.Label, attrs))
	case in.Desired.PreventRestart:
		d.Guard = GuardPreventRestart
		d.add(problem(RuleReplaceRefusedRestart, "true", in.Label, attrs).At(in.Replace[0]))
	case in.Role == RoleReadOnly:
		d.add(problem(RuleReplaceReadOnly, "", in.Label, attrs).At(in.Replace[0]))
	default:
		d.add(problem(RuleReplace, "", in.Label, attrs).At(in.Replace[0]))
	}
	if in.Desired.PreventRestartUnknown && !d.HasErrors() {
		d.add(problem(RuleRestartGuardUnknown, "", in.Label, "a replacement"))
	}
	noteVersionBehind(in, d)
}

// noteVersionBehind names, beside a replacement for engine_version, the version the instance runs
// when the configuration asks for an older one (an upgrade made outside Terraform): "undo the
// change" then means setting engine_version to what it runs.
func noteVersionBehind(in PlanInput, d *Decision) {
	want, running := in.Desired.EngineVersion, in.Prior.EngineVersion
	if !slices.Contains(in.Replace, AttrEngineVersion) || !want.IsKnown() || !IsEngineUpgrade(in.Prior.Engine, want.Value(), running) {
		return
	}
	d.add(problem(RuleReplaceVersionBehind, want.Value(), want.Value(), in.Label, running))
}

// planReplacement announces what the new instance undergoes right after its creation (a toggle
// of its flag, parameters that need a restart), as the plan of a plain create does.
func planReplacement(in PlanInput, d *Decision) {
	fresh := in
	fresh.Prior, fresh.Replace = nil, nil
	fresh.Label = "the new instance replacing " + in.Label
	created := Plan(fresh)
	if created.HasErrors() {
		return
	}
	d.Program = d.Program.replacedBy(created.Program)
	d.add(possibleRefusals(created)...)
	if len(created.Restarts) == 0 && len(created.MayRestart) == 0 {
		return
	}
	d.Restarts, d.MayRestart, d.ToggleAfterCreate = created.Restarts, created.MayRestart, created.ToggleAfterCreate
	at := firstNonEmpty(created.RestartAttribute, in.Replace[0])
	if restarts := d.Program.Restarts(); len(restarts) > 0 {
		d.add(RestartProblem(restarts, false, false, at))
		return
	}
	d.add(RestartProblem([]Restart{{InstanceID: fresh.Label, Reasons: []string{strings.Join(created.MayRestart, ", ") + " known only at apply"},
		Downtime: downtimeOf(fresh)}}, true, false, at))
}

func newSpecOf(c Desired) (NewInstanceSpec, bool) {
	if !c.Engine.IsKnown() || !c.EngineVersion.IsKnown() || !c.StorageType.IsKnown() || !c.Category.IsKnown() || !c.InstanceClass.IsKnown() {
		return NewInstanceSpec{}, false
	}
	return NewInstanceSpec{Engine: c.Engine.Value(), EngineVersion: c.EngineVersion.Value(), StorageType: c.StorageType.Value(),
		Category: c.Category.Value(), InstanceClass: c.InstanceClass.Value()}, true
}

func architectureOf(class Val[string]) Val[string] {
	if !class.IsKnown() {
		return Unknown[string]()
	}
	return Known(Architecture(class.Value()))
}

func planCreate(in PlanInput, d *Decision) {
	c := in.Desired
	d.Action = ActionCreate
	d.Status = Known(StatusRunning)
	d.add(CheckConfig(c)...)
	name16KRefusalPossibleOnCreate(in, d)
	d.AtomicWrite, d.AtomicWriteSupported = c.AtomicWrite, Unknown[bool]()
	if spec, ok := newSpecOf(c); ok {
		eligible := len(EligibleForNew(spec)) == 0
		d.AtomicWriteSupported = Known(eligible)
		if c.AtomicWrite.IsNull() {
			d.AtomicWrite = Known(eligible)
		}
	} else if c.AtomicWrite.IsNull() {
		d.AtomicWrite = Unknown[bool]()
	}
	d.BufferPoolExtension = c.BufferPoolExtension
	if c.BufferPoolExtension.IsNull() {
		d.BufferPoolExtension = Known(false)
	}
	d.Architecture = architectureOf(c.InstanceClass)
	d.EngineVersion, d.StorageType = c.EngineVersion, c.StorageType
}

func classProblems(in PlanInput, f ClassFacts) []Problem {
	c := in.Desired
	switch {
	case f.Unavailable != "":
		return []Problem{problem(RuleCloudUnavailable, "", f.Unavailable)}
	case f.LookupError != "":
		return []Problem{problem(RuleClassCannotCheck, c.InstanceClass.Or(""), f.LookupError)}
	case f.Refusal != "":
		p := problem(RuleClassCombinationRefused, "", f.Combination, f.Refusal)
		if f.RefusedAttribute != "" {
			p = p.At(f.RefusedAttribute)
		}
		return []Problem{p}
	}
	want := c.InstanceClass.Or("")
	var names []string
	for _, o := range f.Offered {
		names = append(names, o.Class)
		if o.Class != want {
			continue
		}
		size := c.Storage.Or(0)
		if c.Storage.IsKnown() && o.MaxStorage > 0 && (size < o.MinStorage || size > o.MaxStorage ||
			(o.Step > 0 && (size-o.MinStorage)%o.Step != 0)) {
			return []Problem{problem(RuleClassStorageRange, fmt.Sprint(size), want, c.StorageType.Or(""), o.MinStorage, o.MaxStorage, max(o.Step, 1), size)}
		}
		return nil
	}
	return []Problem{problem(RuleClassNotOffered, want, want, f.Combination, CloseMatches(want, names))}
}
