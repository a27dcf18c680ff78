package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ resource.Resource                = (*instanceResource)(nil)
	_ resource.ResourceWithConfigure   = (*instanceResource)(nil)
	_ resource.ResourceWithImportState = (*instanceResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*instanceResource)(nil)
)

// NewInstanceResource returns the rds_instance resource.
func NewInstanceResource() resource.Resource {
	return &instanceResource{}
}

// instanceResource manages one primary ApsaraDB RDS instance.
type instanceResource struct {
	data *ProviderData
}

var (
	// engines are those the provider supports end to end (the class catalogue offers classes for
	// them); 16K atomic write and the provider's rules are MySQL's, PostgreSQL instances get the rest.
	engines      = []string{"MySQL", "PostgreSQL"}
	storageTypes = []string{"cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd", "cloud_ssd", "local_ssd"}
	categories   = []string{"HighAvailability", "Basic", "cluster"}
)

const (
	defaultStorageType = rdsservice.DefaultStorageType
	defaultCategory    = "HighAvailability"
	defaultSecurityIP  = "127.0.0.1"
)

// Metadata returns the resource type name.
func (r *instanceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance"
}

// Configure receives the API client from the provider.
func (r *instanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_instance", &resp.Diagnostics)
}

// Create creates the instance (or clones it) and runs the rest of its program (apply.go).
func (r *instanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createInstance[instanceModel](ctx, primaryKind{r}, r.data, req, resp)
}

// Read refreshes the state with one DescribeDBInstanceAttribute, plus one DescribeParameters when
// parameters are managed and one DescribeDBInstanceIPArrayList when security_ips is (security_ips.go).
func (r *instanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state instanceModel
	resp.Diagnostics.Append(instanceCodec.Get(ctx, req.State.Raw, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.ID.ValueString()
	r.data.Journal.Recorded(id) // in a state: no longer an interrupted create's (issue 29)
	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddWarning("RDS instance no longer exists",
			fmt.Sprintf("Instance %s was not found (deleted outside Terraform?); it is removed from state and the next plan creates it again.", id))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err))
		return
	}
	if attr.MasterInstanceID != "" {
		p := rdsservice.Raise(rdsservice.RuleNotAPrimary, id, id, attr.MasterInstanceID)
		resp.Diagnostics.AddError(p.Summary, p.Detail)
		return
	}
	if state.PreventRestart.IsNull() || state.PreventRestart.IsUnknown() {
		state.PreventRestart = types.BoolValue(false)
	}
	if state.DeletionProtection.IsNull() || state.DeletionProtection.IsUnknown() {
		state.DeletionProtection = types.BoolValue(false)
	}
	state.PreventDataLoss = withPreventDataLoss(state.PreventDataLoss)
	requested := state
	r.writeState(attr, &state, &resp.Diagnostics)
	readSecurity(ctx, r.data.API, id, &state, &resp.Diagnostics)
	warnMinorBehind(requested, state, &resp.Diagnostics)
	readBilling(ctx, r.data.API, attr, &state, &resp.Diagnostics)
	refreshTags(ctx, r.data, attr, &state.Tags, &state.TagsAll, &resp.Diagnostics)
	r.refreshConfigured(ctx, id, requested, &state, &resp.Diagnostics)
	state.ScheduledChange = r.data.refreshScheduled(ctx, scheduledRead{id: id, engine: state.Engine.ValueString(), window: state.MaintenanceWindow.ValueString(),
		recorded: requested.ScheduledChange, private: resp.Private}, specOf(requested.specFields()), state.specFields(), &resp.Diagnostics)
	holdPlacement(ctx, r.data, requested, &state, &resp.Diagnostics)
	// With named lists managed, security_ips is the default list even where unconfigured: the attribute's
	// SecurityIPList joins every list (oracle, connectivity "access lists changed").
	if securityIPsManaged(ctx, req.Private, &resp.Diagnostics) || !state.SecurityIPGroups.IsNull() {
		state.SecurityIPs = readDefaultSecurityIPs(ctx, r.data.API, id, state.SecurityIPs, &resp.Diagnostics)
	}
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &resp.Diagnostics)
	state.ParameterGroupID, state.ParameterGroupValues = readGroupApplied(ctx, r.data.API, id, state.ParameterGroupID, state.Parameters, &resp.Diagnostics)
	state.Parameters = requestedDoublewrite(state.Parameters, state.ScheduledChange, state.AtomicWrite16K)
	if resp.Diagnostics.HasError() {
		return
	}
	noteRefreshed(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(instanceCodec.Set(ctx, &resp.State, state)...)
}

// refreshConfigured reads back the settings the refresh reads only where they are configured
// (requested: the prior state): endpoints, storage autoscaling, SQL audit, monitoring, HA, access
// lists. An instance without them costs no call here.
func (r *instanceResource) refreshConfigured(ctx context.Context, id string, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	readEndpoints(ctx, r.data.API, id, state.endpointParts(), diags)
	refreshStorageAutoScale(ctx, r.data.API, requested, state, diags)
	refreshSQLAudit(ctx, r.data.API, requested, state, diags)
	refreshMonitoring(ctx, r.data.API, requested, state, diags)
	r.data.refreshHASwitch(ctx, requested, state, diags)
	refreshSyncMode(ctx, r.data.API, requested, state, diags)
	state.SecurityIPGroups = refreshIPGroups(ctx, r.data.API, id, requested.SecurityIPGroups, diags)
	state.SecurityGroupIDs = refreshSecurityGroups(ctx, r.data.API, id, requested.SecurityGroupIDs, diags)
	state.WhitelistTemplateIDs = refreshTemplateLinks(ctx, r.data.API, id, requested.WhitelistTemplateIDs, diags)
}

// Update runs the update's program (apply.go): one spec change (one restart) now or for the
// maintenance window, with the parameters it shares its restart with, then the in-place settings.
func (r *instanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateInstance[instanceModel](ctx, primaryKind{r}, r.data, req, resp)
}

// Delete runs the destroy's program (instance_destroy.go); not found counts as deleted.
func (r *instanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var budgets timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &budgets)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	destroyInstance(ctx, r.data, req.State, budgets, &resp.Diagnostics)
}

// ImportState imports an instance by id; Read fills in the rest.
func (r *instanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if addProblems(&resp.Diagnostics, rdsservice.CheckImportID("rds_instance", id)); resp.Diagnostics.HasError() {
		return
	}
	if refuseImportOfDeleting(ctx, r.data, id, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("prevent_restart"), false)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(rdsservice.AttrPreventDataLoss), false)...)
	importTags(ctx, &resp.State, &resp.Diagnostics)
	importScheduled(ctx, r.data, id, &resp.State, &resp.Diagnostics)
}

// cloudNow is the waiter's clock set to the cloud's, as the API client last saw it: the window a
// deferred change runs in is the cloud's, and the plan names it as scheduled_change.starts_at will.
func (p *ProviderData) cloudNow() time.Time {
	now := p.Waiter.Now()
	if c, ok := p.API.(interface{ CloudOffset() time.Duration }); ok {
		now = now.Add(c.CloudOffset())
	}
	return now
}

// importScheduled imports a change waiting for the instance's window as an apply that deferred it
// leaves the state: scheduled_change lists it, the spec attributes hold its target (Read keeps them
// while the task waits), and apply_restarts = "in_maintenance_window", so that the next plan, and
// configuration generated from the state, keep the change scheduled rather than order it at once.
func importScheduled(ctx context.Context, data *ProviderData, id string, state *tfsdk.State, diags *diag.Diagnostics) {
	task, err := rdsservice.PendingTask(ctx, data.API, id)
	if err == nil && task == nil {
		return
	}
	var attr *rdsapi.DBInstanceAttribute
	if err == nil {
		attr, err = data.API.DescribeDBInstanceAttribute(ctx, id)
	}
	scheduled := rdsservice.ScheduledTaskOf(task)
	if err != nil || scheduled == nil {
		diags.AddWarning("Cannot read the instance's scheduled change", fmt.Sprintf("Instance %s: %v; scheduled_change is left empty.", id, err))
		return
	}
	cur, err := rdsservice.ExistingFromAttribute(attr)
	if err != nil {
		diags.AddWarning("Cannot read the instance's scheduled change", fmt.Sprintf("Instance %s: %v; scheduled_change is left empty.", id, err))
		return
	}
	set := func(name string, v any) { diags.Append(state.SetAttribute(ctx, path.Root(name), v)...) }
	set("apply_restarts", rdsservice.ApplyRestartsInWindow)
	set("scheduled_change", scheduledChangeValue(ctx, task, attr.MaintainTime, scheduled.Changes(cur), diags))
	if spec := scheduled.Spec; spec != nil {
		set("instance_type", spec.InstanceClass)
		set("storage", spec.Storage)
		set("storage_type", spec.StorageType)
		set("atomic_write_16k", spec.AtomicWrite)
		set("atomic_write_16k_supported", cur.Supported)
		if _, ok := state.Schema.GetAttributes()["buffer_pool_extension"]; ok {
			set("buffer_pool_extension", spec.BufferPoolExtension)
		}
	}
}

// ---- the apply (apply.go) ----

// primaryKind is rds_instance's part of the shared apply.
type primaryKind struct{ r *instanceResource }

func (k primaryKind) planInput(ctx context.Context, m rdsservice.ModelRequest, diags *diag.Diagnostics) rdsservice.PlanInput {
	in, failures := rdsservice.InstanceInput(ctx, k.r.data.planEnv(), rdsservice.PrimaryRequest(ctx, k.r.data.API, m))
	addReadFailures(diags, failures)
	return in
}

func (k primaryKind) parts(m *instanceModel) modelParts {
	return modelParts{ID: &m.ID, Timeouts: m.Timeouts, Spec: m.specFields(), MaintenanceWindow: &m.MaintenanceWindow,
		ScheduledChange: &m.ScheduledChange, Parameters: &m.Parameters, Pending: &m.ParametersPending}
}

func (k primaryKind) settings(ctx context.Context, m instanceModel, diags *diag.Diagnostics) rdsservice.Settings {
	return settingsOf(ctx, instanceCodec, m, diags)
}

// execution is the executor's input: for a create, CreateDBInstance (or CloneDBInstance) with
// every setting it can carry; a clone gets the default allow-list afterwards when none is set.
func (k primaryKind) execution(ctx context.Context, plan *instanceModel, dec rdsservice.Decision, diags *diag.Diagnostics) rdsservice.Execution {
	e := rdsservice.Execution{Settings: settingsOf(ctx, instanceCodec, *plan, diags), TargetClass: plan.InstanceType.ValueString(),
		TargetStorage: plan.Storage.ValueInt64()}
	if dec.Action != rdsservice.ActionCreate {
		return e
	}
	if e.Settings.SecurityIPs == nil {
		e.Settings.SecurityIPs = []string{defaultSecurityIP}
	}
	restore := plan.restoreFrom(ctx, diags)
	if restore != nil && restore.crossRestore() != nil {
		e.Create.Ddr = ddrRequest(k.r.data.Region, *restore, *plan, e.Settings.SecurityIPs)
		return e
	}
	if restore != nil {
		e.Create.Clone = &rdsapi.CloneDBInstanceRequest{
			RegionID: k.r.data.Region, SourceDBInstanceID: restore.SourceInstanceID.ValueString(),
			BackupID: restore.BackupID.ValueString(), RestoreTime: restore.RestoreTime.ValueString(),
			PayType: rdsapi.PayTypePostpaid, DBInstanceClass: plan.InstanceType.ValueString(), DBInstanceStorage: plan.Storage.ValueInt64(),
			DBInstanceStorageType: plan.StorageType.ValueString(), Category: plan.Category.ValueString(), ZoneID: plan.ZoneID.ValueString(),
			InstanceNetworkType: networkType(*plan), VPCID: plan.VpcID.ValueString(), VSwitchID: plan.VSwitchID.ValueString(),
		}
		return e
	}
	e.Create.Instance = &rdsapi.CreateDBInstanceRequest{
		RegionID: k.r.data.Region, ZoneID: plan.ZoneID.ValueString(), Engine: plan.Engine.ValueString(),
		EngineVersion: plan.EngineVersion.ValueString(), DBInstanceClass: plan.InstanceType.ValueString(),
		DBInstanceStorage: plan.Storage.ValueInt64(), DBInstanceStorageType: plan.StorageType.ValueString(),
		Category: plan.Category.ValueString(), PayType: rdsapi.PayTypePostpaid, DBInstanceNetType: rdsapi.NetTypeIntranet,
		InstanceNetworkType: networkType(*plan), VPCID: plan.VpcID.ValueString(), VSwitchID: plan.VSwitchID.ValueString(),
		SecurityIPList: strings.Join(e.Settings.SecurityIPs, ","), DBInstanceDescription: plan.InstanceName.ValueString(),
		DeletionProtection: plan.DeletionProtection.ValueBool(), ZoneIDSlave1: stringIfKnown(plan.ZoneIDSlaveA), ZoneIDSlave2: stringIfKnown(plan.ZoneIDSlaveB),
		Tags: createTags(ctx, plan.TagsAll, diags), ResourceGroupID: stringIfKnown(plan.ResourceGroupID),
		TargetMinorVersion: stringIfKnown(plan.TargetMinorVersion), DBParamGroupID: stringIfKnown(plan.ParameterGroupID),
	}
	e.Create.Instance.PayType, e.Create.Instance.Subscription = createSubscription(ctx, *plan)
	// The provider's computed default goes out explicitly, so the result never depends on the
	// server's default (spec rule 4). Other engines have no such setting.
	if flag := dec.AtomicWrite; rdsservice.IsMySQL(plan.Engine.ValueString()) && flag.IsKnown() {
		e.Create.Instance.OptimizedWrites = optimizedWrites(flag.Value())
	}
	if bpe := plan.BufferPoolExtension; isKnown(bpe) && (bpe.ValueBool() || strings.EqualFold(plan.StorageType.ValueString(), "general_essd")) {
		e.Create.Instance.IoAccelerationEnabled = switchValue(bpe.ValueBool())
	}
	return e
}

func (k primaryKind) accepted(plan instanceModel, id string) instanceModel {
	plan.ID = types.StringValue(id)
	return plan.knownOrNull()
}

func (k primaryKind) applied(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan, config instanceModel, private privateSetter, diags *diag.Diagnostics) instanceModel {
	planned := plan.SecurityIPs
	k.r.writeState(attr, &plan, diags)
	readEndpoints(ctx, k.r.data.API, attr.DBInstanceID, plan.endpointParts(), diags)
	readSecurity(ctx, k.r.data.API, attr.DBInstanceID, &plan, diags)
	readBilling(ctx, k.r.data.API, attr, &plan, diags)
	k.r.settleSecurityIPs(ctx, config.SecurityIPs, planned, &plan, private, diags)
	plan.ParameterGroupValues = appliedGroupValues(ctx, k.r.data.API, plan.ParameterGroupID, config.Parameters, plan.ParameterGroupValues, diags)
	return plan
}

func (k primaryKind) incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan instanceModel, stop createStop) {
	k.r.incompleteCreate(ctx, req, resp, plan, stop)
}
