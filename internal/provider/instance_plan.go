package provider

// What both instance resources share at plan time: the preamble of ModifyPlan, the instance as the
// planner sees it, the primaries planned earlier in this run, and the class catalogue's facts.

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// ---- shared by rds_instance and rds_readonly_instance ----

// Default operation budgets of both resources (alicloud's defaults for RDS); the timeouts
// attribute overrides them.
const (
	defaultCreateTimeout = 50 * time.Minute
	defaultUpdateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 30 * time.Minute
	// planLookupTimeout bounds the API reads ModifyPlan makes (primary, read-only instances,
	// restore source, class catalogue), so a slow API cannot hang a plan.
	planLookupTimeout = 2 * time.Minute
)

// planPreamble is the start of both resources' ModifyPlan: a destroy's plan is shown, timeouts must be positive, and an unchanged or unconfigured plan stops here. It
// returns the context for the plan's API reads (bounded by planLookupTimeout) and whether ModifyPlan
// goes on. replanUnchanged says whether an unchanged plan must still be decided (a read-only
// instance whose primary changes in this run).
func planPreamble(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, replanUnchanged func() bool) (context.Context, context.CancelFunc, bool) {
	done := func() (context.Context, context.CancelFunc, bool) { return ctx, func() {}, false }
	if req.Plan.Raw.IsNull() {
		planDestroy(ctx, data, req.State, &resp.Diagnostics) // instance_destroy.go
		return done()
	}
	// Problems found before (tags, the configuration's own checks) do not stop the planner: every
	// refusal of the plan is reported at once (issue 41 §2.12).
	var budgets timeouts.Value
	read := req.Config.GetAttribute(ctx, path.Root("timeouts"), &budgets)
	resp.Diagnostics.Append(read...)
	if read.HasError() {
		return done()
	}
	addProblems(&resp.Diagnostics, checkTimeouts(budgets))
	if data == nil {
		// The provider is not configured yet (unknown provider configuration); apply checks again.
		return done()
	}
	if !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw) && (replanUnchanged == nil || !replanUnchanged()) && !groupReplanned(ctx, data, req) {
		// Nothing changes: nothing to predict, nothing restarts, and no API call. The refreshed
		// state still tells of an instance that is being deleted or is locked.
		addProblems(&resp.Diagnostics, unchangedStateProblems(ctx, req))
		planUnchangedPending(ctx, data, req, &resp.Diagnostics)
		return done()
	}
	lookupCtx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	return lookupCtx, cancel, true
}

// unchangedStateProblems is the planner's word on an unchanged instance in the state the refresh
// found (status and lock_mode of both instance resources).
func unchangedStateProblems(ctx context.Context, req resource.ModifyPlanRequest) []rdsservice.Problem {
	var id, status, lock types.String
	var diags diag.Diagnostics
	diags.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	diags.Append(req.State.GetAttribute(ctx, path.Root("status"), &status)...)
	diags.Append(req.State.GetAttribute(ctx, path.Root("lock_mode"), &lock)...)
	if diags.HasError() {
		return nil
	}
	return rdsservice.StateProblems(id.ValueString(), status.ValueString(), lock.ValueString(), "", false, false)
}

// refuseImportOfDeleting stops the import of an instance that is being deleted (one read; Read
// reports the other failures, and a missing instance, as it does for every refresh).
func refuseImportOfDeleting(ctx context.Context, data *ProviderData, id string, diags *diag.Diagnostics) {
	if !requireConfigured(data, diags) {
		return
	}
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, id)
	if err == nil && attr.DBInstanceStatus == rdsservice.StatusDeleting {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleImportDeleting, id, id)})
	}
}

// instanceView is the one conversion of a DescribeDBInstanceAttribute answer into attribute values,
// shared by both resources and both data sources.
type instanceView struct {
	ID, MasterInstanceID, Engine, EngineVersion, InstanceType, StorageType, Category, DBInstanceType types.String
	ZoneID, VpcID, VSwitchID, InstanceName, Status, ConnectionString, CreationTime, Architecture     types.String
	LockMode                                                                                         types.String
	Storage, Port                                                                                    types.Int64
	DeletionProtection, AtomicWrite16K, AtomicWrite16KSupported, BufferPoolExtension                 types.Bool
	SecurityIPs                                                                                      types.Set
	ReadOnlyInstanceIDs                                                                              types.List
}

func viewOf(a *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) instanceView {
	v := instanceView{
		ID:                  types.StringValue(a.DBInstanceID),
		MasterInstanceID:    types.StringValue(a.MasterInstanceID),
		Engine:              types.StringValue(a.Engine),
		EngineVersion:       types.StringValue(string(a.EngineVersion)),
		InstanceType:        types.StringValue(a.DBInstanceClass),
		StorageType:         types.StringValue(a.DBInstanceStorageType),
		Category:            types.StringValue(a.Category),
		DBInstanceType:      types.StringValue(a.DBInstanceType),
		ZoneID:              types.StringValue(a.ZoneID),
		VpcID:               types.StringValue(a.VpcID),
		VSwitchID:           types.StringValue(a.VSwitchID),
		InstanceName:        types.StringValue(a.DBInstanceDescription),
		Status:              types.StringValue(a.DBInstanceStatus),
		LockMode:            types.StringValue(lockModeOf(a)),
		ConnectionString:    types.StringValue(a.ConnectionString),
		CreationTime:        types.StringValue(a.CreationTime),
		Architecture:        attrArchitecture(a),
		Storage:             types.Int64Value(int64(a.DBInstanceStorage)),
		Port:                attrPort(a, diags),
		DeletionProtection:  types.BoolValue(bool(a.DeletionProtection)),
		BufferPoolExtension: types.BoolValue(rdsservice.SwitchOn(string(a.IoAccelerationEnabled))),
		SecurityIPs:         stringSetValue(rdsservice.SplitList(a.SecurityIPList), diags),
		ReadOnlyInstanceIDs: stringListValue(a.ReadOnlyDBInstanceIDs, diags),
	}
	v.AtomicWrite16K, v.AtomicWrite16KSupported = attrAtomicWrite(a)
	return v
}

// plannedLockMode is lock_mode in a plan that changes an instance: an instance that is not locked
// stays so (the plan shows no noise), a lock may be lifted before the apply (that is the fix the
// plan names), so it is known only then.
func plannedLockMode(prior types.String, exists bool) types.String {
	if exists && prior.ValueString() == rdsservice.LockUnlocked {
		return prior
	}
	return types.StringUnknown()
}

// lockModeOf is LockMode, "Unlock" when the cloud leaves it out.
func lockModeOf(a *rdsapi.DBInstanceAttribute) string {
	if m := strings.TrimSpace(a.LockMode); m != "" {
		return m
	}
	return rdsservice.LockUnlocked
}

// plannedPrimaries remembers, for one provider process, the atomic_write_16k each primary was
// planned with in this run: Terraform plans a read-only instance after the primary it references,
// so the read-only instance's plan can use the primary's planned value (rule 7). The zero value is
// ready to use.
type plannedPrimaries struct {
	mu    sync.Mutex
	flags map[string]rdsservice.Val[bool]
	// scheduled are the toggles this run's primary plans defer to their maintenance window.
	scheduled map[string]*rdsservice.ScheduledFlag
	// replaced are the primaries this run replaces (primary_replaced.go).
	replaced replacedPrimaries
	// storage is the storage this run's in-place plans give the primaries (primary_replaced.go).
	storage plannedStorage
	// minor are the minor version upgrades this run's primary plans make (instance_minor_version.go).
	minor map[string]*rdsservice.MinorFollow
	// zoneMoves are the primaries whose plans in this run move them to another zone in their window.
	zoneMoves idSet
	// replacesTask are the primaries whose plans in this run replace their pending task (pending_follow.go).
	replacesTask idSet
	// pendingTask are the unchanged primaries whose state holds a task waiting for their window: their
	// read-only instances are planned in full, so a toggle they follow there is named.
	pendingTask idSet
	// released are the read-only instances this run destroys. Terraform destroys them before it
	// updates their primary, so the primary's plan leaves them out (readonly_released.go).
	released idSet
	// followers are "primary read-only" pairs: the read-only instances a primary's plan in this run
	// names as restarting with it.
	followers idSet
}

// idSet is a set of ids recorded by one resource's plan for another's in the same run.
type idSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *idSet) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[id] = true
}

func (s *idSet) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[id]
}

func (p *plannedPrimaries) recordScheduled(id string, s *rdsservice.ScheduledFlag) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.scheduled == nil {
		p.scheduled = map[string]*rdsservice.ScheduledFlag{}
	}
	p.scheduled[id] = s
}

func (p *plannedPrimaries) lookupScheduled(id string) *rdsservice.ScheduledFlag {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.scheduled[id]
}

func (p *plannedPrimaries) record(id string, flag rdsservice.Val[bool]) {
	if id == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.flags == nil {
		p.flags = map[string]rdsservice.Val[bool]{}
	}
	p.flags[id] = flag
}

func (p *plannedPrimaries) lookup(id string) rdsservice.Val[bool] {
	p.mu.Lock()
	defer p.mu.Unlock()
	if flag, ok := p.flags[id]; ok {
		return flag
	}
	return rdsservice.Null[bool]()
}

// classFacts asks the class catalogue (cached per process) about one combination.
func classFacts(ctx context.Context, data *ProviderData, req rdsapi.DescribeAvailableClassesRequest) *rdsservice.ClassFacts {
	req.RegionID = data.Region
	req.InstanceChargeType = rdsapi.PayTypePostpaid
	return data.classes.ClassFacts(ctx, data.API, req)
}

// existingFrom describes an instance for the planner from its state values.
func existingFrom(label string, v instanceView, prior types.String) rdsservice.ExistingInstance {
	inst := rdsservice.ExistingInstance{
		ID:                  label,
		Engine:              v.Engine.ValueString(),
		EngineVersion:       v.EngineVersion.ValueString(),
		StorageType:         v.StorageType.ValueString(),
		Category:            v.Category.ValueString(),
		InstanceClass:       v.InstanceType.ValueString(),
		Storage:             v.Storage.ValueInt64(),
		Architecture:        v.Architecture.ValueString(),
		Supported:           v.AtomicWrite16KSupported.ValueBool(),
		Enabled:             v.AtomicWrite16K.ValueBool(),
		MasterID:            v.MasterInstanceID.ValueString(),
		Status:              v.Status.ValueString(),
		LockMode:            v.LockMode.ValueString(),
		DeletionProtection:  v.DeletionProtection.ValueBool(),
		BufferPoolExtension: v.BufferPoolExtension.ValueBool(),
	}
	if t, err := rdsservice.ParseAPITime(prior.ValueString()); err == nil {
		inst.CreationTime = t
	}
	return inst
}

// planModels decodes a ModifyPlan request into a resource's model: the plan, the configuration,
// and the prior state (nil for a create).
func planModels[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (plan, config M, state *M) {
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.Config.Get(ctx, &config)...)
	if !req.State.Raw.IsNull() {
		state = new(M)
		diags.Append(req.State.Get(ctx, state)...)
	}
	return plan, config, state
}
