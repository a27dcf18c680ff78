package rdsservice

import "time"

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
	// PreventRestartUnknown: prevent_restart is known only at apply, so the apply may refuse a
	// restart or replacement this plan names (the plan says so).
	PreventRestartUnknown bool
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
	// Tags are tags_all and resource_group_id (tags_program.go).
	Tags TagPlan
	// Minor is target_minor_version and auto_upgrade_minor_version (minor_version_rules.go).
	Minor DesiredMinor
	// Placement is zone_id, zone_id_slave_a/_b and vswitch_id (zone_rules.go).
	Placement Placement
	// AutoScale is storage_auto_scale (storage_autoscale_rules.go).
	AutoScale AutoScalePlan
	// SQLAudit is sql_audit (sql_audit_rules.go).
	SQLAudit SQLAuditPlan
	// Monitoring is monitoring_period (monitoring_rules.go).
	Monitoring MonitoringPlan
	// HASwitch is ha_config (ha_switch_rules.go).
	HASwitch HASwitchPlan
	// SyncMode is sync_mode (sync_mode_rules.go).
	SyncMode SyncModePlan
	// PreventDataLoss is prevent_data_loss: every data loss the plan names is refused (data_loss.go).
	PreventDataLoss bool
	// Billing is billing and deletion_protection (billing_rules.go).
	Billing BillingPlan
	// Endpoints are connection_string_prefix, port, public_endpoint and prevent_endpoint_change (endpoint_rules.go).
	Endpoints EndpointPlan
	// IPGroups is security_ip_groups (ip_groups.go).
	IPGroups IPGroupsPlan
	// SecurityGroups is security_group_ids (security_groups.go).
	SecurityGroups IDSetPlan
	// TemplateLinks is whitelist_template_ids (whitelist_template.go).
	TemplateLinks IDSetPlan
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
	// CrossCopy is the cross-region backup a clone restores (nil: not one); cross_restore.go.
	CrossCopy *CrossCopyFacts
	// ReadOnly are a primary's read-only instances; ReadOnlyError why they could not be read.
	ReadOnly      []ExistingInstance
	ReadOnlyError string
	// Parameters are the template and running values; nil when parameters are not managed or
	// engine and version are not known yet.
	Parameters *ParameterFacts
	// SpecChangePending: a spec change waits for the maintenance window (Prior is the instance's
	// spec before it).
	SpecChangePending bool
	// PendingClass is the class that spec change makes, as the state records it ("": none known);
	// pending_spec_task.go.
	PendingClass string
	// PrimaryScheduled is a read-only instance's primary's change of atomic_write_16k waiting for
	// the primary's maintenance window (nil: none).
	PrimaryScheduled *ScheduledFlag
	// PrimaryUpgradePending is the major version a new read-only instance's primary upgrades to in
	// its maintenance window ("" when no upgrade waits).
	PrimaryUpgradePending string
	// PrimaryZoneMoveInWindow: this run's plan of a read-only instance's primary moves it to
	// another zone in its maintenance window (zone_rules.go).
	PrimaryZoneMoveInWindow bool
	// PrimaryUnknownFlagStartsAt: the primary's atomic_write_16k is known only at apply and its
	// change would wait for the primary's window starting then (PrimaryPlan.UnknownFlagStartsAt).
	PrimaryUnknownFlagStartsAt string
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
	// Release is what a replacement's release of a primary on cloud disks deletes; nil: not read
	// (no replacement, or local disks). cross_region.go.
	Release *ReleaseFacts
}

// ScheduledFlag is a change of atomic_write_16k the cloud makes in a maintenance window.
type ScheduledFlag struct {
	On bool
	// StartsAt is when the cloud starts it (the task's StartTime, by the cloud's clock).
	StartsAt string
	// MayBeCancelled: this run's plan of the primary may cancel or replace the task that makes it (a
	// spec value known only at apply: taskMayBeReplaced), so following it is possible, not certain.
	MayBeCancelled bool
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
