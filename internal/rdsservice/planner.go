package rdsservice

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The planner: one pure function from facts to a decision. The resources fetch the facts (prior
// state, configuration, primary, restore source, read-only instances, class catalogue), call Plan,
// and translate the Decision into plan values and diagnostics; their apply calls Plan again with
// the values known by then and stops on its errors before any write. Every rule and message comes
// from the rule table (ruletable.go).

// Val is a configured or planned value: null (not set), unknown (known only at apply) or known.
type Val[T comparable] struct {
	v     T
	known bool
	unk   bool
}

// Known returns a known value.
func Known[T comparable](v T) Val[T] { return Val[T]{v: v, known: true} }

// Unknown returns a value known only at apply.
func Unknown[T comparable]() Val[T] { return Val[T]{unk: true} }

// Null returns an unset value.
func Null[T comparable]() Val[T] { return Val[T]{} }

// IsKnown, IsUnknown and IsNull tell the three states apart.
func (x Val[T]) IsKnown() bool   { return x.known }
func (x Val[T]) IsUnknown() bool { return x.unk }
func (x Val[T]) IsNull() bool    { return !x.known && !x.unk }

// Value is the value, or T's zero value when it is not known.
func (x Val[T]) Value() T { return x.v }

// Is reports whether the value is known and equal to v.
func (x Val[T]) Is(v T) bool { return x.known && x.v == v }

// Or is the value when known, def otherwise.
func (x Val[T]) Or(def T) T {
	if x.known {
		return x.v
	}
	return def
}

// Ptr is a pointer to the value when known, nil otherwise.
func (x Val[T]) Ptr() *T {
	if !x.known {
		return nil
	}
	v := x.v
	return &v
}

// Role is what the planned instance is.
type Role int

const (
	// RolePrimary is an rds_instance created from scratch (or existing).
	RolePrimary Role = iota
	// RoleReadOnly is an rds_readonly_instance of a primary.
	RoleReadOnly
	// RoleClone is an rds_instance created with restore_from (CloneDBInstance).
	RoleClone
)

// Desired is what the configuration asks for, merged with schema defaults. Null means "not set in
// the configuration" for the values the planner computes (flag, Buffer Pool Extension, and the
// values a read-only instance takes from its primary).
type Desired struct {
	Engine, EngineVersion, InstanceClass, StorageType, Category Val[string]
	Storage                                                     Val[int64]
	AtomicWrite, BufferPoolExtension                            Val[bool]
	PreventRestart                                              bool
	// InPlaceChanges: the apply also changes settings the planner does not decide (name, allow-list,
	// deletion protection, maintenance window), so it writes to the instance.
	InPlaceChanges bool
	// ApplyRestarts is apply_restarts: ApplyRestartsImmediately or ApplyRestartsInWindow.
	ApplyRestarts string
	// MaintenanceWindow is the window the instance will have after this apply (the configured
	// one, or the current one when unset).
	MaintenanceWindow Val[string]
	// RestoreTime is restore_from.restore_time of a clone (null for a backup).
	RestoreTime Val[string]
	// Parameters is `parameters` (parameters.go).
	Parameters DesiredParameters
	// Security is ssl_enabled and tde_enabled (security_rules.go).
	Security DesiredSecurity
	// Tags are tags_all and resource_group_id (tags_ops.go).
	Tags TagPlan
	// Minor is target_minor_version and auto_upgrade_minor_version (minor_version_rules.go).
	Minor DesiredMinor
	// Placement is zone_id, zone_id_slave_a/_b and vswitch_id (zone_rules.go).
	Placement Placement
	// AutoScale is storage_auto_scale (storage_autoscale_rules.go).
	AutoScale AutoScalePlan
	// Billing is billing and deletion_protection (billing_rules.go).
	Billing BillingPlan
}

// OfferedClass is one DescribeAvailableClasses answer row.
type OfferedClass struct {
	Class                        string
	MinStorage, MaxStorage, Step int64
}

// ClassFacts is the class catalogue's answer for the planned engine, version, category, storage
// type and zone.
type ClassFacts struct {
	Offered []OfferedClass
	// LookupError is a failure that says nothing about the values (throttling after every retry,
	// a busy or failing service): a warning.
	LookupError string
	// Unavailable is a lookup that got no answer at all, or was refused for the credentials or the
	// clock: nothing can be checked or applied until the environment is fixed, so the plan fails.
	Unavailable string
	// Refusal is a definite refusal of the combination; RefusedAttribute the attribute it names.
	Refusal, RefusedAttribute string
	// Combination describes the request for messages ("MySQL 8.0, category ..., storage_type ...").
	Combination string
}

// Facts is what the cloud says, fetched by the resource before it calls Plan.
type Facts struct {
	Now time.Time
	// Classes is nil when the catalogue was not asked (inputs unknown, or nothing that it decides changes).
	Classes *ClassFacts
	// Primary is the primary of a read-only instance as it is now; nil while it does not exist.
	Primary *ExistingInstance
	// PrimaryPlanned is the primary's planned atomic_write_16k when this run planned the primary
	// before this instance (null: not seen; unknown: planned, value known only at apply).
	PrimaryPlanned Val[bool]
	// PrimaryMinor is the minor version upgrade this run's plan of the primary makes (minor_version_rules.go).
	PrimaryMinor *MinorFollow
	// Source is the restore source of a clone; SourceError why it could not be read.
	Source      *ExistingInstance
	SourceError string
	// ReadOnly are a primary's read-only instances; ReadOnlyError why they could not be read.
	ReadOnly      []ExistingInstance
	ReadOnlyError string
	// Parameters are the template and running values; nil when parameters are not managed or
	// engine and version are not known yet.
	Parameters *ParameterFacts
	// SpecChangePending: a spec change waits for the maintenance window (Prior is the instance's
	// spec before it).
	SpecChangePending bool
	// PrimaryScheduled is a read-only instance's primary's change of atomic_write_16k waiting for
	// the primary's maintenance window (nil: none).
	PrimaryScheduled *ScheduledFlag
	// PrimaryReplaced is the read-only instance's primary as this run replaces it (nil:
	// not replaced, or not planned before this instance); primary_replaced.go.
	PrimaryReplaced *ReplacedPrimary
	// PrimaryStorage is the storage this run's plan of the read-only instance's primary gives it
	// in place (null: not planned before this instance); readonly_storage.go.
	PrimaryStorage Val[int64]
	// Pending is the task waiting for the instance's maintenance window (pending_change.go).
	Pending *PendingChange
	// Security is the instance's SSL and TDE now (security_rules.go).
	Security SecurityFacts
	// Placement is a primary's zones, vSwitch and minor version now; nil: not read (zone_rules.go).
	Placement *PlacementFacts
}

// ScheduledFlag is a change of atomic_write_16k the cloud makes in a maintenance window.
type ScheduledFlag struct {
	On bool
	// StartsAt is when the cloud starts it (the task's StartTime, by the cloud's clock).
	StartsAt string
}

// PlanInput is everything Plan decides from.
type PlanInput struct {
	Role Role
	// Label names the instance in messages: its id, or a description of a new one.
	Label string
	// Prior is the instance as the last refresh saw it; nil when this plan creates it.
	Prior   *ExistingInstance
	Desired Desired
	// Replace lists the attributes whose change makes Terraform replace the instance.
	Replace []string
	Facts   Facts
}

// Action is what the apply does to the planned instance.
type Action int

const (
	ActionNoop Action = iota
	ActionCreate
	ActionUpdate
	ActionUpdateWithRestart
	ActionReplace
)

func (a Action) String() string {
	return [...]string{"no-op", "create", "update in place", "update in place with restart", "replace"}[a]
}

// Restart is one instance that an apply restarts, and why.
type Restart struct {
	InstanceID string
	Reasons    []string
	Downtime   string
	// When is empty for a restart during this apply, else when the cloud restarts the instance
	// ("in the maintenance window 02:00Z-03:00Z (next: 2026-12-01T02:00Z)").
	When string
	// ByPrimary: the cloud restarts it when its primary's scheduled change runs; this apply
	// orders nothing for it.
	ByPrimary bool
	// Task is the cloud's pending task that restarts it, scheduled before this plan
	// (pending_change.go); this apply orders nothing for it.
	Task string
	// Op is the operation that causes it when that is not the spec order or the parameters
	// (ModifyDBInstanceSSL, ModifyDBInstanceTDE: security_rules.go).
	Op string
}

// SpecOrder is the one ModifyDBInstanceSpec an update sends; nil fields are unchanged.
type SpecOrder struct {
	InstanceClass       *string
	Storage             *int64
	StorageType         *string
	AtomicWrite         *bool
	BufferPoolExtension *bool
}

// Empty reports whether there is nothing to send.
func (o SpecOrder) Empty() bool {
	return o.InstanceClass == nil && o.Storage == nil && o.StorageType == nil && o.AtomicWrite == nil && o.BufferPoolExtension == nil
}

// Guard names the setting that refused the plan.
type Guard string

const (
	GuardNone               Guard = ""
	GuardPreventRestart     Guard = AttrPreventRestart
	GuardDeletionProtection Guard = AttrDeletionProtection
)

// Decision is the planner's answer.
type Decision struct {
	// Problems are errors and warnings in the order found.
	Problems []Problem
	// Computed values for the plan.
	AtomicWrite, AtomicWriteSupported, BufferPoolExtension Val[bool]
	Architecture, EngineVersion, StorageType, Status       Val[string]
	// PurchaseTime is a clone's product-line date (its source's purchase time, rule 8); unknown
	// for a new instance (its creation time).
	PurchaseTime Val[string]

	Action Action
	// ReplacedBy lists the attributes forcing a replacement.
	ReplacedBy []string
	// Restarts lists every instance the apply restarts (this one, read-only instances that follow
	// a primary, a clone toggled after creation); MayRestart the attributes not known at plan
	// that may add a restart.
	Restarts   []Restart
	MayRestart []string
	// RestartAttribute is the first attribute whose change restarts the instance.
	RestartAttribute string
	// Order is the update's one spec change; Followers are read-only instances the cloud turns on
	// with their primary (the apply waits for them).
	Order     SpecOrder
	Followers []string
	// FollowsPrimary: a read-only instance's flag changes because its primary's does; the apply
	// waits for it instead of sending it.
	FollowsPrimary bool
	// ToggleAfterCreate is the flag a new clone or read-only instance is switched to right after
	// creation (one restart), nil when none.
	ToggleAfterCreate *bool
	Guard             Guard
	// Deferred: the update's spec order is sent for the maintenance window (apply_restarts =
	// "in_maintenance_window"); the apply does not wait for it, and the restarts carry When.
	// DeferredStartsAt is when that window starts (UTC, the API's layout).
	Deferred         bool
	DeferredStartsAt string
	// Parameters is what the apply does with `parameters`.
	Parameters ParameterDecision
	// Program is the operations the apply runs (program.go); the restart messages come from it.
	Program Program
	// Security is what the apply sends of ssl_enabled and tde_enabled (security_rules.go).
	Security SecurityDecision
	// Upgrade is the major version upgrade in place (upgrade_rules.go); nil when none.
	Upgrade *EngineUpgrade
	// Minor is the minor version upgrade and upgrade setting (minor_version_rules.go).
	Minor MinorDecision
	// ZoneMove is the zone move in place (zone_rules.go); nil when none.
	ZoneMove *ZoneMove
}

// Errors returns the error problems.
func (d Decision) Errors() []Problem { return d.filter(SeverityError) }

// Warnings returns the warning problems.
func (d Decision) Warnings() []Problem { return d.filter(SeverityWarning) }

// HasErrors reports whether the plan is refused.
func (d Decision) HasErrors() bool { return len(d.Errors()) > 0 }

func (d Decision) filter(s Severity) []Problem {
	var out []Problem
	for _, p := range d.Problems {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

func (d *Decision) add(p ...Problem) { d.Problems = append(d.Problems, p...) }

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
		checkStorageAgainstNewPrimary(in, &d)
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
	planBilling(in, &d)
	checkUpgradeAlone(in, &d)
	checkPlacement(in, &d)
	planInstanceState(in, &d)
	guardRestarts(in, &d)
	return d
}

// PlanDestroy refuses at plan what the cloud refuses at apply: deleting a protected instance.
func PlanDestroy(label string, deletionProtection bool) []Problem {
	if deletionProtection {
		return []Problem{problem(RuleDestroyRefusedProtection, "true", label)}
	}
	return nil
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

// CheckRestoreFrom checks restore_from's shape: exactly one of backup_id and restore_time.
func CheckRestoreFrom(backupID, restoreTime Val[string]) []Problem {
	if backupID.IsUnknown() || restoreTime.IsUnknown() {
		return nil
	}
	if (backupID.Or("") != "") == (restoreTime.Or("") != "") {
		return []Problem{problem(RuleRestoreFromExactlyOne, "")}
	}
	return nil
}

// guardRestarts turns the restarts into the warning, or with prevent_restart into the error. A
// plan refused for another reason shows only that reason.
func guardRestarts(in PlanInput, d *Decision) {
	if len(d.Restarts) > 0 {
		d.Action = maxAction(d.Action, ActionUpdateWithRestart)
	}
	deferToWindow(in, d)
	followScheduledPrimary(in, d)
	planPendingChange(in, d)
	d.Program = programOf(in, *d)
	if d.HasErrors() {
		return
	}
	at := d.RestartAttribute
	if at == "" {
		at = AttrAtomicWrite
	}
	restarts := d.Program.Restarts()
	switch {
	case len(restarts) > 0 && in.Desired.PreventRestart:
		d.Guard = GuardPreventRestart
		d.add(RestartProblem(restarts, false, true, at))
	case len(restarts) > 0:
		d.add(RestartProblem(restarts, false, false, at))
	case len(d.MayRestart) > 0:
		d.add(RestartProblem([]Restart{{InstanceID: in.Label,
			Reasons:  []string{strings.Join(d.MayRestart, ", ") + " known only at apply"},
			Downtime: downtimeOf(in)}}, true, false, at))
	}
}

// followScheduledPrimary: a read-only instance that is off, and eligible, after this apply is
// turned on with a restart when its primary's scheduled toggle runs (rule 7), in the primary's
// window. Its plan names that restart, and prevent_restart refuses it, as the primary's own guard
// refuses the toggle.
func followScheduledPrimary(in PlanInput, d *Decision) {
	s, primary := in.Facts.PrimaryScheduled, in.Facts.Primary
	if in.Role != RoleReadOnly || s == nil || !s.On || primary == nil || primary.Enabled || !d.AtomicWrite.Is(false) || !d.AtomicWriteSupported.Is(true) {
		return
	}
	if in.Desired.AtomicWrite.Is(false) {
		d.add(problem(Rule16KReadOnlyOff, "false", in.Label, primary.ID, "will have", readOnlyOffFix(in, primary.ID, false)))
		return
	}
	when := "in the maintenance window of its primary " + primary.ID + " (starts " + s.StartsAt + ")"
	d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, When: when, ByPrimary: true, Downtime: ExpectedDowntime("", true),
		Reasons: []string{"follows its primary " + primary.ID + " turning atomic_write_16k on in the primary's maintenance window (atomic_write_16k changes from false to true)"}})
	if d.RestartAttribute == "" {
		d.RestartAttribute = AttrAtomicWrite
	}
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

// planClone predicts a clone: it runs its source's engine and version, keeps the source's product
// line (purchase date and product-type history) and inherits its flag (rule 8) when its own class
// and storage allow it.
func planClone(in PlanInput, d *Decision) {
	c := in.Desired
	d.Action = ActionCreate
	d.Status = Known(StatusRunning)
	d.add(CheckConfig(c)...)
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
	if c.EngineVersion.IsNull() || c.EngineVersion.IsUnknown() {
		d.EngineVersion = Known(primary.EngineVersion)
	}
	if (c.StorageType.IsNull() || c.StorageType.IsUnknown()) && primary.StorageType != "" {
		d.StorageType = Known(primary.StorageType)
	}
	if c.Storage.IsKnown() && primary.Storage > 0 && c.Storage.Value() < primary.Storage {
		d.add(problem(RuleStorageReadOnlyBelow, fmt.Sprint(c.Storage.Value()), c.Storage.Value(), in.Label, primary.ID, primary.Storage))
	}
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
		primaryOn = Known(primary.Enabled)
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

func readOnlyToggleAfterCreate(label, primary string) Restart {
	return Restart{InstanceID: label,
		Reasons: []string{fmt.Sprintf("it is created with its primary %s's atomic_write_16k = false and then turned on "+
			"(atomic_write_16k changes from false to true)", primary)},
		Downtime: ExpectedDowntime("", true)}
}

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
	return isMySQL(engine) && versionEligible(version) && storageEligible(storageType)
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
	u.classChanged = c.InstanceClass.IsKnown() && c.InstanceClass.Value() != cur.InstanceClass
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
	if u.readOnly {
		u.primaryOn = primaryFlag(in.Facts)
		if u.primaryOn.IsUnknown() && in.Facts.Primary != nil && !c.AtomicWrite.Is(true) {
			// The primary's plan is known only at apply: the apply checks again before any write.
			d.add(problem(Rule16KPrimaryNotKnown, "", in.Label, in.Facts.Primary.ID, in.Facts.Primary.Enabled))
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
	d.AtomicWrite = flag
	u.flag = flag
	u.flagChanged = flag.IsKnown() && flag.Value() != cur.Enabled && isMySQL(cur.Engine)
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

// planBufferPoolExtension decides Buffer Pool Extension (primary only): the configured value,
// else the current one (off when the storage type no longer allows it).
func (u *updatePlan) planBufferPoolExtension() {
	cur, c, d := u.cur, u.c, u.d
	bpe := c.BufferPoolExtension
	switch {
	case c.BufferPoolExtension.IsKnown():
	case c.BufferPoolExtension.IsUnknown() || c.StorageType.IsUnknown():
		bpe = Unknown[bool]()
	default:
		bpe = Known(cur.BufferPoolExtension && strings.EqualFold(u.newType, "general_essd"))
	}
	d.BufferPoolExtension = bpe
	if bpe.IsUnknown() {
		d.MayRestart = append(d.MayRestart, AttrBufferPoolExtension)
	} else if bpe.Value() != cur.BufferPoolExtension {
		d.Order.BufferPoolExtension = bpe.Ptr()
		u.trigger(AttrBufferPoolExtension)
		if c.StorageType.IsKnown() {
			d.add(CheckBufferPoolExtension(u.newType, bpe.Value())...)
		}
	}
}

// planRestarts lists this instance's restarts: every spec change is one ModifyDBInstanceSpec,
// one restart (or none for an online storage growth alone).
func (u *updatePlan) planRestarts() {
	cur, in, d := u.cur, u.in, u.d
	var wantFlag *bool
	if u.flagChanged && !d.FollowsPrimary {
		wantFlag = u.flag.Ptr()
	}
	reasons := SpecChangeRestarts(cur, wantFlag, u.change)
	if d.Order.BufferPoolExtension != nil {
		reasons = append(reasons, fmt.Sprintf("buffer_pool_extension changes from %t to %t", cur.BufferPoolExtension, *d.Order.BufferPoolExtension))
	}
	if len(reasons) > 0 && endsWithSwitchover(in, d.Order) {
		reasons = append(reasons, switchoverReason)
	}
	if d.FollowsPrimary {
		// The cloud's own restart, apart from any spec change this plan sends (rule 7).
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label,
			Reasons:  []string{"follows its primary " + cur.MasterID + " turning atomic_write_16k on (atomic_write_16k changes from false to true)"},
			Downtime: ExpectedDowntime(cur.Category, u.readOnly)})
	}
	switch {
	case len(reasons) > 0 && cur.Status != "" && cur.Status != StatusRunning && cur.Status != StatusStopped && cur.Status != StatusDeleting:
		// A change is still under way (e.g. an update that timed out): the apply waits for it and
		// sends only what is still missing, so the plan cannot promise this restart.
		d.add(problem(RuleChangeInProgress, cur.Status, in.Label, cur.Status))
		d.MayRestart = append(d.MayRestart, "the change under way (status "+cur.Status+")")
	case len(reasons) > 0:
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Reasons: reasons, Downtime: ExpectedDowntime(cur.Category, u.readOnly)})
	}
	if !d.Order.Empty() || d.FollowsPrimary {
		d.Action = ActionUpdate
	}
}

// planFollowers: turning a primary on turns on its read-only instances that have it off (one
// restart each).
func (u *updatePlan) planFollowers() {
	in, d := u.in, u.d
	if u.readOnly || !u.flagChanged || !u.flag.Value() || d.HasErrors() {
		return
	}
	if in.Facts.ReadOnlyError != "" {
		d.add(problem(Rule16KReadOnlyNotKnown, "true", in.Label, in.Facts.ReadOnlyError))
	}
	d.Followers = FollowingReadOnly(u.cur.Enabled, true, in.Facts.ReadOnly)
	for _, ro := range d.Followers {
		d.Restarts = append(d.Restarts, Restart{InstanceID: ro + " (read-only instance)",
			Reasons: []string{"follows its primary turning atomic_write_16k on"}, Downtime: ExpectedDowntime("", true)})
	}
}

// settleActionAndStatus: attributes known only at apply make it an update; the status of an
// instance not Running is known only after the apply.
func (u *updatePlan) settleActionAndStatus() {
	d := u.d
	if d.Action == ActionNoop && len(d.MayRestart) > 0 {
		d.Action = ActionUpdate
	}
	if d.Action != ActionNoop && d.Status.Is(u.cur.Status) && u.cur.Status != StatusRunning {
		d.Status = Unknown[string]()
	}
}

// readOnlyOffFix is rule 7's advice for a read-only instance planned off while its primary has
// 16K atomic write on; byChange: the planned change itself makes it ineligible, so true is
// refused too. Both can change in one apply only when the primary's change is not deferred.
func readOnlyOffFix(in PlanInput, primary string, byChange bool) string {
	fix := "Remove atomic_write_16k (the read-only instance then inherits the primary's value) or set it to true"
	if byChange {
		fix = "Keep an instance_type and storage_type with which this read-only instance can have 16K atomic write"
	}
	fix += ", or turn 16K atomic write off on the primary " + primary + " first"
	if in.Facts.PrimaryScheduled != nil {
		return fix + " and let that apply finish: the primary's change waits for its maintenance window, so both cannot change in one apply."
	}
	return fix + " (both can change in one apply)."
}

// permanence says when turning 16K atomic write off by a change is for good: an instance bought
// before 2025-05-14 whose product type changes (x86 <-> YiTian) never gets it back (rule 9).
func permanence(cur ExistingInstance, change SpecChange) string {
	if ChangesProductType(cur, change) && boughtBeforeCutoff(cur) {
		return fmt.Sprintf(" The loss is permanent: %s was bought before 2025-05-14 and its product type changes, so it never gets 16K atomic write back, even on its current architecture.", cur.ID)
	}
	return ""
}

func attrIf(cond bool, name string) string {
	if cond {
		return name
	}
	return ""
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func describeChange(cur ExistingInstance, change SpecChange) string {
	var parts []string
	if change.InstanceClass != "" {
		parts = append(parts, fmt.Sprintf("instance_type %q -> %q", cur.InstanceClass, change.InstanceClass))
	}
	if change.StorageType != "" {
		parts = append(parts, fmt.Sprintf("storage_type %q -> %q", cur.StorageType, change.StorageType))
	}
	return strings.Join(parts, ", ")
}

// classProblems checks instance_type and storage against the class catalogue's answer.
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

// Now is the waiter's clock (the planner's Facts.Now), so tests with an injected clock agree.
func (w *Waiter) Now() time.Time { return w.clock().Now() }

// deferToWindow marks an update's restarts for the maintenance window when apply_restarts asks
// for it: the spec order and the parameters that need a restart wait for the window, and every
// restart they cause (the instance's and its followers') happens there, as one restart of the
// instance. A deferred restart is still a restart: prevent_restart refuses it. A read-only
// instance that follows its primary's toggle restarts when its primary does: not deferred here.
func deferToWindow(in PlanInput, d *Decision) {
	if in.Prior == nil || in.Desired.ApplyRestarts != ApplyRestartsInWindow || len(d.Restarts) == 0 || d.FollowsPrimary ||
		(d.Order.Empty() && !d.Parameters.NeedsRestart() && d.Upgrade == nil && d.Minor.Upgrade == nil && d.ZoneMove == nil) {
		return
	}
	window, err := ParseMaintenanceWindow(in.Desired.MaintenanceWindow.Or(""))
	if err != nil {
		return // an invalid window is refused by its own rule; the plan then stops there
	}
	d.Deferred = true
	start, _ := window.Next(in.Facts.Now)
	d.DeferredStartsAt = start.UTC().Format(APITimeLayout)
	when := window.When(in.Facts.Now)
	for i := range d.Restarts {
		if restartDeferrable(d.Restarts[i].Op) { // SSL and TDE cannot wait for the window (security_rules.go)
			d.Restarts[i].When = when
		}
	}
	// Until the window the restart-needing values wait, with those already waiting.
	if d.Parameters.PendingKnown && in.Facts.Parameters != nil {
		pending := map[string]string{}
		for name, v := range in.Facts.Parameters.Pending {
			if !slices.Contains(d.Parameters.Withdrawn, name) && !d.Security.Restarts() { // an SSL or TDE restart applies them now
				pending[name] = v
			}
		}
		for _, name := range d.Parameters.Restart {
			pending[name] = d.Parameters.Send[name]
		}
		d.Parameters.Pending = pending
	}
}
