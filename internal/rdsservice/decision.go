package rdsservice

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
	// TurnsAtomicWriteOn: the task's restart turns atomic_write_16k on, which the primary's
	// read-only instances follow (PlannedScheduledFlag).
	TurnsAtomicWriteOn bool
	// Possible: the restart depends on a value known only at apply (unknown_restarts.go).
	Possible bool
}

// SpecOrder is the one ModifyDBInstanceSpec an update sends; nil fields are unchanged.
type SpecOrder struct {
	InstanceClass       *string
	Storage             *int64
	StorageType         *string
	AtomicWrite         *bool
	BufferPoolExtension *bool
	// Category is the edition of an edition upgrade (edition_rules.go).
	Category *string
}

// Empty reports whether there is nothing to send.
func (o SpecOrder) Empty() bool {
	return o.InstanceClass == nil && o.Storage == nil && o.StorageType == nil && o.AtomicWrite == nil && o.BufferPoolExtension == nil &&
		o.Category == nil
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
	// Endpoints are the endpoints after the apply (endpoint_rules.go).
	Endpoints EndpointsPlanned

	Action Action
	// ReplacedBy lists the attributes forcing a replacement.
	ReplacedBy []string
	// Restarts lists every instance the apply restarts (this one, read-only instances that follow
	// a primary, a clone toggled after creation); MayRestart the attributes not known at plan
	// that may add a restart.
	Restarts   []Restart
	MayRestart []string
	// MayRestartWhen is when the possible restarts come: empty during this apply, else as
	// Restart.When (unknown_restarts.go).
	MayRestartWhen string
	// RestartAttribute is the first attribute whose change restarts the instance.
	RestartAttribute string
	// Order is the update's one spec change; Followers are read-only instances the cloud turns on
	// with their primary (the apply waits for them).
	Order     SpecOrder
	Followers []string
	// FollowsWithdrawn are the read-only instances that were to follow the primary's toggle waiting
	// for its window, which this plan cancels (pending_follow_withdrawn.go).
	FollowsWithdrawn []string
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
	// PendingMoves: a task waiting for the window moves to the new maintenance_window this apply
	// sets (pending_later.go): scheduled_change is read back after the apply.
	PendingMoves bool
	// ParametersStillWait: this apply cancels the waiting spec change, and the parameters deferred
	// with it still wait for the window (pending_revert_parameters.go): scheduled_change is read back.
	ParametersStillWait bool
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
