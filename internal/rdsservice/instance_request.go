package rdsservice

import (
	"context"
	"fmt"
	"slices"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The typed request of an instance's plan, read by attribute name from the resource's objects as
// Terraform sends them (AttrValue): the provider converts the objects, this file reads them.

// ModelRequest is one plan of an instance resource as Terraform sends it. Config tells "unset"
// from a value; Plan carries defaults and the planned tags_all; State is null for a create (and,
// while a spec change waits for the window, holds the spec the instance still runs). Replace lists
// what Terraform replaces the instance for; SpecPending says a spec change waits for the window.
type ModelRequest struct {
	Config, Plan, State AttrValue
	Replace             []string
	SpecPending         bool
	// PendingClass is the class the waiting spec change makes, as the state records it (State holds
	// the spec before the change).
	PendingClass string
	// From is the spec the instance runs while that change waits (private state; nil: none).
	From *SpecValues
}

func (m ModelRequest) create() bool { return m.State.IsNull() }

// PrimaryRequest is the request of one rds_instance plan. api reads an existing instance's hidden
// IP arrays (a failed read leaves them to the apply's own read).
func PrimaryRequest(ctx context.Context, api rdsapi.API, m ModelRequest) InstanceRequest {
	config, plan := m.Config, m.Plan
	in := PlanInput{Role: RolePrimary, Label: "the new instance", Desired: desiredPrimary(config, plan)}
	if name := plan.Get("instance_name").String(); name != "" {
		in.Label = fmt.Sprintf("the new instance %q", name)
	}
	in.Desired.Security = DesiredSecurity{SSL: config.Get("ssl_enabled").Bool(), TDE: config.Get("tde_enabled").Bool(),
		TDEKey: config.Get("tde_encryption_key").String(), TDERole: config.Get("tde_role_arn").String()}
	settingsRequest(m, &in.Desired)
	in.Desired.Billing = billingRequest(m)
	accessRequest(ctx, api, m, &in)
	req := InstanceRequest{Proposed: proposedOf(m), Zone: plan.Get("zone_id").Str(),
		Parameters: ParameterQuery{Engine: plan.Get("engine").String(), Version: plan.Get("engine_version").String(), Category: plan.Get("category").String()}}
	sharedRequest(m, m.create() && plan.Get("restore_from").IsNull(), &in, &req)
	if !m.create() {
		existingRequest(m, &in, &req)
	} else if restore := plan.Get("restore_from"); restore.IsKnown() {
		in.Role, in.Desired.RestoreTime = RoleClone, restore.Get("restore_time").Str()
		req.CloneSource = restore.Get("source_instance_id").String()
		req.CrossRestore = crossRestoreOf(restore)
	}
	req.Input = in
	return req
}

// desiredPrimary is what the configuration (and, for what Terraform plans itself, the plan) asks of a primary.
func desiredPrimary(config, plan AttrValue) Desired {
	return Desired{
		Engine: plan.Get("engine").Str(), EngineVersion: plan.Get("engine_version").Str(), InstanceClass: plan.Get("instance_type").Str(),
		StorageType: plan.Get("storage_type").Str(), Category: plan.Get("category").Str(), Storage: plan.Get("storage").Int(),
		AtomicWrite: config.Get("atomic_write_16k").Bool(), BufferPoolExtension: config.Get("buffer_pool_extension").Bool(),
		PreventRestart: plan.Get("prevent_restart").Bool().Value(), PreventRestartUnknown: plan.Get("prevent_restart").IsUnknown(),
		Parameters: DesiredParametersOf(config.Get("parameters")), ApplyRestarts: plan.Get("apply_restarts").String(),
		MaintenanceWindow: plan.Get("maintenance_window").Str(),
		Minor:             DesiredMinor{Target: config.Get(AttrTargetMinorVersion).Str(), AutoUpgrade: config.Get(AttrAutoUpgradeMinor).Str()},
		Placement: Placement{Zone: config.Get("zone_id").String(), SlaveA: config.Get("zone_id_slave_a").String(),
			SlaveB: config.Get("zone_id_slave_b").String(), VSwitch: config.Get("vswitch_id").String()},
	}
}

// existingRequest adds an existing primary's prior state, and the facts its state holds, to the request.
func existingRequest(m ModelRequest, in *PlanInput, req *InstanceRequest) {
	state, plan := m.State, m.Plan
	purchase := state.Get("purchase_time")
	if purchase.String() == "" {
		purchase = state.Get("creation_time")
	}
	prior := existingOf(primaryLabel(state), state, purchase.String())
	prior.MinorVersion, prior.AutoUpgradeMinorVersion = state.Get(AttrMinorVersion).String(), state.Get(AttrAutoUpgradeMinor).String()
	in.Prior, in.Label = &prior, prior.ID
	req.ID, req.PriorZone, req.VPC = state.Get("id").String(), state.Get("zone_id").Str(), state.Get("vpc_id").String()
	req.PriorPlacement = Placement{Zone: state.Get("zone_id").String(), SlaveA: state.Get("zone_id_slave_a").String(),
		SlaveB: state.Get("zone_id_slave_b").String(), VSwitch: state.Get("vswitch_id").String()}
	req.KeepPolicy = state.Get(AttrReleasedKeepPolicy).String()
	req.PriorSecurity = &SecurityState{SSL: state.Get("ssl_enabled").Bool(), TDE: state.Get("tde_enabled").Bool(),
		TDEKey: state.Get("tde_encryption_key").String(), TDERole: state.Get("tde_role_arn").String()}
	a := &in.Desired.AutoScale
	scale, _ := AutoScaleOf(state.Get("storage_auto_scale"))
	a.Prior, a.PriorStorage = &scale, state.Get("storage").Int().Value()
	if a.On() && state.Get("storage_actual").IsKnown() {
		in.Prior.Storage = state.Get("storage_actual").Int().Value()
	}
	in.Desired.InPlaceChanges = SettingsOfAttrs(plan).Changes(SettingsOfAttrs(state))
	if len(req.Replaced) > 0 {
		return // the new instance's parameters decide whether it restarts right after creation
	}
	req.Parameters = parameterQueryOf(ParameterQuery{InstanceID: req.ID, Category: state.Get("category").String()}, state, plan)
}

// primaryLabel names an instance in messages: its id, and its name when it has another.
func primaryLabel(state AttrValue) string {
	id := state.Get("id").String()
	if name := state.Get("instance_name").String(); name != "" && name != id {
		return fmt.Sprintf("%s (%s)", id, name)
	}
	return id
}

// existingOf describes an instance for the planner from its state; created is its purchase or
// creation time as the API spells it.
func existingOf(label string, state AttrValue, created string) ExistingInstance {
	s := func(name string) string { return state.Get(name).String() }
	b := func(name string) bool { return state.Get(name).Bool().Value() }
	inst := ExistingInstance{ID: label, Engine: s("engine"), EngineVersion: s("engine_version"), StorageType: s("storage_type"),
		Category: s("category"), InstanceClass: s("instance_type"), Storage: state.Get("storage").Int().Value(),
		Architecture: s("instruction_set_arch"), Supported: b("atomic_write_16k_supported"), Enabled: b("atomic_write_16k"),
		MasterID: s("master_instance_id"), Status: s("status"), LockMode: s("lock_mode"), DeletionProtection: b("deletion_protection"),
		BufferPoolExtension: b("buffer_pool_extension")}
	if t, err := ParseAPITime(created); err == nil {
		inst.CreationTime = t
	}
	return inst
}

// parameterQueryOf names the parameter facts of an existing instance's plan: the template (of the
// new version for an upgrade, so that a parameter it lacks is refused at plan) and the running
// values from the state when it holds them.
func parameterQueryOf(q ParameterQuery, state, plan AttrValue) ParameterQuery {
	engine, version := state.Get("engine").String(), state.Get("engine_version").String()
	q.Engine, q.Version = engine, version
	if planned := plan.Get("engine_version").String(); IsEngineUpgrade(engineOrMySQL(engine), version, planned) {
		q.Version = planned
	}
	params, pending := state.Get("parameters"), state.Get("parameters_pending")
	q.State, q.StatePending = params.StringMap(), pending.StringMap()
	q.StateKnown = params.IsKnown() && pending.IsKnown()
	return q
}

func engineOrMySQL(engine string) string {
	if engine == "" {
		return "MySQL"
	}
	return engine
}

// SettingsOfAttrs is the in-place settings of a state or plan; unknown values are left alone.
func SettingsOfAttrs(m AttrValue) Settings {
	var s Settings
	if v := m.Get("instance_name"); v.IsKnown() {
		s.Name = ptrTo(v.String())
	}
	if v := m.Get("security_ips"); v.IsKnown() {
		s.SecurityIPs = sortedStrings(v)
	}
	if v := m.Get("deletion_protection"); v.IsKnown() {
		s.DeletionProtection = ptrTo(v.Bool().Value())
	}
	if v := m.Get("maintenance_window"); v.IsKnown() {
		s.MaintenanceWindow = ptrTo(v.String())
	}
	return s
}

func ptrTo[T any](v T) *T { return &v }

// sortedStrings are a known set's strings, sorted (nil when null or unknown).
func sortedStrings(v AttrValue) []string {
	if !v.IsKnown() {
		return nil
	}
	out := v.Strings()
	slices.Sort(out)
	return out
}

// proposedOf are the computed values as proposed and the prior state's, for the planned values.
func proposedOf(m ModelRequest) ProposedValues {
	p := ProposedValues{StorageActual: m.Plan.Get("storage_actual").Int(), LockMode: m.Plan.Get("lock_mode").Str(),
		BillingUnknown: m.Plan.Get(AttrBilling).IsUnknown(), RestoreFrom: !m.Config.Get("restore_from").IsNull()}
	if !m.create() {
		p.PriorStorageActual, p.PriorExpireTime = m.State.Get("storage_actual").Int(), m.State.Get("expire_time").Str()
		p.PriorMinorVersion = m.State.Get(AttrMinorVersion).Str()
		p.Scheduled = m.scheduledInputs(true)
	}
	return p
}

// crossRestoreOf is restore_from's cross-region backup (nil: none, or a part not known yet).
func crossRestoreOf(restore AttrValue) *CrossRestore {
	id, source, region := restore.Get("cross_region_backup_id"), restore.Get("source_instance_id"), restore.Get("source_region")
	if !id.IsKnown() || id.String() == "" || !source.IsKnown() || !region.IsKnown() {
		return nil
	}
	return &CrossRestore{SourceID: source.String(), SourceRegion: region.String(), CopyID: id.String()}
}

// ReadOnlyRequest is the request of one rds_readonly_instance plan; PlanInstance reads the primary
// and the facts it needs. stateClass is the state's instance_type as refreshed (null for a create).
func ReadOnlyRequest(ctx context.Context, api rdsapi.API, m ModelRequest, stateClass Val[string]) InstanceRequest {
	config, plan, state := m.Config, m.Plan, m.State
	inherited := func(name string) Val[string] {
		if config.Get(name).IsNull() && m.create() {
			return Null[string]()
		}
		return plan.Get(name).Str()
	}
	in := PlanInput{Role: RoleReadOnly, Label: readOnlyLabel(plan), Replace: m.Replace, Desired: Desired{
		EngineVersion: inherited("engine_version"), StorageType: inherited("storage_type"),
		InstanceClass: plan.Get("instance_type").Str(), Storage: plan.Get("storage").Int(), AtomicWrite: config.Get("atomic_write_16k").Bool(),
		PreventRestart: plan.Get("prevent_restart").Bool().Value(), PreventRestartUnknown: plan.Get("prevent_restart").IsUnknown(),
		Parameters: DesiredParametersOf(config.Get("parameters")), ApplyRestarts: plan.Get("apply_restarts").String(),
		MaintenanceWindow: plan.Get("maintenance_window").Str(),
	}}
	req := InstanceRequest{Zone: plan.Get("zone_id").Str(),
		ReadOnly: ReadOnlyQuery{Primary: plan.Get("master_instance_id").String(), StorageTypeConfig: config.Get("storage_type").Str(), StateClass: stateClass}}
	sharedRequest(m, false, &in, &req)
	accessRequest(ctx, api, m, &in)
	if !m.create() {
		prior := existingOf(state.Get("id").String(), state, state.Get("creation_time").String())
		in.Prior, in.Label = &prior, prior.ID
		in.Desired.InPlaceChanges = SettingsOfAttrs(plan).Changes(SettingsOfAttrs(state))
		req.ID, req.ReadOnly.PriorPrimary, req.ReadOnly.PriorMinor = prior.ID, state.Get("master_instance_id").String(), state.Get(AttrMinorVersion).String()
		if len(m.Replace) == 0 {
			req.Parameters = parameterQueryOf(ParameterQuery{InstanceID: req.ID}, state, plan)
		}
	}
	req.Input = in
	return req
}

// readOnlyLabel names a new read-only instance in messages (an existing one is named by its id).
func readOnlyLabel(plan AttrValue) string {
	if name := plan.Get("instance_name").String(); name != "" {
		return fmt.Sprintf("the new read-only instance %q", name)
	}
	return "the new read-only instance"
}
