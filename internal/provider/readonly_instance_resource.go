package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ resource.Resource                = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithConfigure   = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithImportState = (*readonlyInstanceResource)(nil)
)

// NewReadonlyInstanceResource returns the rds_readonly_instance resource.
func NewReadonlyInstanceResource() resource.Resource {
	return &readonlyInstanceResource{}
}

// readonlyInstanceResource manages a read-only instance of an RDS primary. 16K atomic write is
// coupled to the primary (spec rule 7), so planning reads the primary from the API.
type readonlyInstanceResource struct {
	data *ProviderData
}

// readonlyInstanceModel maps rds_readonly_instance.
type readonlyInstanceModel struct {
	ID                      types.String   `tfsdk:"id"`
	MasterInstanceID        types.String   `tfsdk:"master_instance_id"`
	EngineVersion           types.String   `tfsdk:"engine_version"`
	InstanceType            types.String   `tfsdk:"instance_type"`
	Storage                 types.Int64    `tfsdk:"storage"`
	StorageType             types.String   `tfsdk:"storage_type"`
	ZoneID                  types.String   `tfsdk:"zone_id"`
	VSwitchID               types.String   `tfsdk:"vswitch_id"`
	InstanceName            types.String   `tfsdk:"instance_name"`
	DeletionProtection      types.Bool     `tfsdk:"deletion_protection"`
	AtomicWrite16K          types.Bool     `tfsdk:"atomic_write_16k"`
	AtomicWrite16KSupported types.Bool     `tfsdk:"atomic_write_16k_supported"`
	PreventRestart          types.Bool     `tfsdk:"prevent_restart"`
	Status                  types.String   `tfsdk:"status"`
	LockMode                types.String   `tfsdk:"lock_mode"`
	ConnectionString        types.String   `tfsdk:"connection_string"`
	Port                    types.Int64    `tfsdk:"port"`
	Engine                  types.String   `tfsdk:"engine"`
	Category                types.String   `tfsdk:"category"`
	InstructionSetArch      types.String   `tfsdk:"instruction_set_arch"`
	CreationTime            types.String   `tfsdk:"creation_time"`
	Timeouts                timeouts.Value `tfsdk:"timeouts"`
	MaintenanceWindow       types.String   `tfsdk:"maintenance_window"`
	ApplyRestarts           types.String   `tfsdk:"apply_restarts"`
	ScheduledChange         types.Object   `tfsdk:"scheduled_change"`
	Parameters              types.Map      `tfsdk:"parameters"`
	ParametersPending       types.Map      `tfsdk:"parameters_pending"`
	ParameterGroupID        types.String   `tfsdk:"parameter_group_id"`
	ParameterGroupValues    types.Map      `tfsdk:"parameter_group_values"`
	Tags                    types.Map      `tfsdk:"tags"`
	TagsAll                 types.Map      `tfsdk:"tags_all"`
	ResourceGroupID         types.String   `tfsdk:"resource_group_id"`
	MinorVersion            types.String   `tfsdk:"minor_version"`
	// Endpoints (endpoints.go).
	ConnectionStringPrefix types.String `tfsdk:"connection_string_prefix"`
	PublicEndpoint         types.Object `tfsdk:"public_endpoint"`
	PublicConnectionString types.String `tfsdk:"public_connection_string"`
	PreventEndpointChange  types.Bool   `tfsdk:"prevent_endpoint_change"`
	SecurityIPGroups       types.Map    `tfsdk:"security_ip_groups"`
	SecurityGroupIDs       types.Set    `tfsdk:"security_group_ids"`
	WhitelistTemplateIDs   types.Set    `tfsdk:"whitelist_template_ids"`
}

func (r *readonlyInstanceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_readonly_instance"
}

func (r *readonlyInstanceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepReplace := func(attribute string) []planmodifier.String {
		return append(keep, requiresReplace(rdsservice.ResourceReadOnlyInstance, attribute)...)
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A read-only instance of an ApsaraDB RDS primary (`CreateReadOnlyDBInstance`). " +
			"16K atomic write (`atomic_write_16k`) is inherited from the primary and checked against it at plan time: " +
			"the primary is read from the API while planning.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Instance id (`rr-…`).",
				PlanModifiers:       keep,
			},
			"master_instance_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the primary instance. Changing it creates a new read-only instance.",
				PlanModifiers:       requiresReplace(rdsservice.ResourceReadOnlyInstance, rdsservice.AttrMasterInstanceID),
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"engine_version": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Engine version; the primary's when unset. Upgrade read-only instances before their primary. " + engineVersionEffect,
				PlanModifiers:       keep,
			},
			"instance_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Read-only instance class, e.g. `mysqlro.n2.medium.1c`. " +
					"**Changing it restarts the instance** (one `ModifyDBInstanceSpec`, announced in the plan).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"storage": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "Storage in GB: at least the primary's, in steps of 5. " + rdsservice.StorageChangeEffect(),
				Validators:          []validator.Int64{int64validator.AtLeast(20), multipleOf(5)},
			},
			"storage_type": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Storage type, e.g. `cloud_essd`; the primary's when unset. " +
					"**Changing it restarts the instance.**",
				PlanModifiers: keep,
				Validators:    []validator.String{stringvalidator.OneOf(storageTypes...)},
			},
			"zone_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Zone; the primary's when unset. Changing it creates a new read-only instance.",
				PlanModifiers:       keepReplace(rdsservice.AttrZoneID),
			},
			"vswitch_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "VSwitch in the primary's VPC; the primary's when unset. Changing it creates a new read-only instance.",
				PlanModifiers:       keepReplace(rdsservice.AttrVSwitchID),
			},
			"instance_name": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Description of the instance (`DBInstanceDescription`).",
				PlanModifiers:       keep,
				Validators:          []validator.String{instanceNameValidator{}},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "Refuse deletion while true (default false).",
			},
			"atomic_write_16k": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "16K atomic write (`OptimizedWrites`). Unset, the instance inherits the primary's value and the plan " +
					"shows it whenever the primary already exists. `false` while the primary has it on is an error. `true` while the " +
					"primary has it off creates the instance and then turns it on: **one restart**, announced in the plan.",
			},
			"atomic_write_16k_supported": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the instance is eligible for 16K atomic write (`init_optimized_writes`).",
				// Changes only with the class or storage type; ModifyPlan marks it unknown then.
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"prevent_restart": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "When true, a plan that takes this instance out of service (a restart, also one that " +
					"follows its primary, or a replacement) is an error instead of a warning; so is a restart that depends on a " +
					"value known only at apply (such as the flag of a primary created in the same run).",
			},
			"status": schema.StringAttribute{Computed: true, MarkdownDescription: "Instance status (`DBInstanceStatus`). An instance " +
				"that is `Stopped` or `Deleting` (released outside Terraform, e.g. with its primary) takes no change: the plan says so " +
				"(an error for `Deleting`), and an apply fails at once instead of waiting for its timeout."},
			"lock_mode": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Lock of the instance " +
				"(`LockMode`): `Unlock`, or why the cloud refuses changes to it (`ManualLock`, `LockByExpiration`, `LockByRestoration`, " +
				"`LockByDiskQuota`, `LockReadInstanceByDiskQuota`). A plan that changes a locked instance warns and names the way to unlock it."},
			"connection_string":    schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Internal connection string."},
			"port":                 portAttribute(),
			"engine":               schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Engine, the primary's."},
			"category":             schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Edition (`Category`)."},
			"instruction_set_arch": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "`x86` or `arm` (YiTian)."},
			"creation_time":        schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Creation time (UTC)."},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{
				Create: true, Update: true, Delete: true,
				CreateDescription: "Budget for creating the instance and any toggle after creation (default 50m).",
				UpdateDescription: "Budget for one update, all waits included (default 30m).",
				DeleteDescription: "Budget for deleting the instance (default 30m).",
			}),
		},
	}
	for name, a := range maintenanceAttributes() {
		resp.Schema.Attributes[name] = a
	}
	for name, a := range parameterSchemaAttributes() {
		resp.Schema.Attributes[name] = a
	}
	resp.Schema.Attributes["parameter_group_id"] = readonlyParameterGroupIDAttribute()
	resp.Schema.Attributes["parameter_group_values"] = parameterGroupValuesAttribute()
	addTagAttributes(resp.Schema.Attributes)
	resp.Schema.Attributes["minor_version"] = readonlyMinorVersionAttribute()
	maps.Copy(resp.Schema.Attributes, endpointAttributes())
	resp.Schema.Attributes["security_ip_groups"] = ipGroupsAttribute()
	resp.Schema.Attributes["security_group_ids"] = securityGroupIDsAttribute()
	resp.Schema.Attributes["whitelist_template_ids"] = whitelistTemplateIDsAttribute()
}

func (r *readonlyInstanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_readonly_instance", &resp.Diagnostics)
}

// Create creates the read-only instance and runs the rest of its program (apply.go).
func (r *readonlyInstanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createInstance[readonlyInstanceModel](ctx, &readonlyKind{r: r}, r.data, req, resp)
}

func (r *readonlyInstanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var prior readonlyInstanceModel
	resp.Diagnostics.Append(readonlyInstanceCodec.Get(ctx, req.State.Raw, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := prior.ID.ValueString()
	r.data.Journal.Recorded(id) // in a state: no longer an interrupted create's (issue 29)
	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddWarning("Read-only instance not found",
			fmt.Sprintf("Read-only instance %s no longer exists (deleted outside Terraform, or with its primary); it is removed from the state and the next plan creates it again.", id))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS read-only instance", fmt.Sprintf("Instance %s: %v", id, err))
		return
	}
	if attr.MasterInstanceID == "" {
		p := rdsservice.Raise(rdsservice.RuleNotAReadOnly, id, id, attr.DBInstanceType)
		resp.Diagnostics.AddError(p.Summary, p.Detail)
		return
	}
	state := readonlyFromAttribute(attr, &prior, &resp.Diagnostics)
	readEndpoints(ctx, r.data.API, id, state.endpointParts(), &resp.Diagnostics)
	refreshTags(ctx, r.data, attr, &state.Tags, &state.TagsAll, &resp.Diagnostics)
	state.SecurityIPGroups = refreshIPGroups(ctx, r.data.API, id, prior.SecurityIPGroups, &resp.Diagnostics)
	state.SecurityGroupIDs = refreshSecurityGroups(ctx, r.data.API, id, prior.SecurityGroupIDs, &resp.Diagnostics)
	state.WhitelistTemplateIDs = refreshTemplateLinks(ctx, r.data.API, id, prior.WhitelistTemplateIDs, &resp.Diagnostics)
	state.Storage = readOnlyStorageFloor(ctx, r.data.API, attr.MasterInstanceID, prior.Storage, state.Storage, &resp.Diagnostics)
	state.ScheduledChange = r.data.refreshScheduled(ctx, scheduledRead{id: id, engine: state.Engine.ValueString(), window: state.MaintenanceWindow.ValueString(),
		recorded: prior.ScheduledChange, private: resp.Private}, specOf(prior.specFields()), state.specFields(), &resp.Diagnostics)
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &resp.Diagnostics)
	state.ParameterGroupID, state.ParameterGroupValues = readGroupApplied(ctx, r.data.API, id, state.ParameterGroupID, state.Parameters, &resp.Diagnostics)
	state.Parameters = requestedDoublewrite(state.Parameters, state.ScheduledChange, state.AtomicWrite16K)
	noteRefreshed(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(readonlyInstanceCodec.Set(ctx, &resp.State, state)...)
}

// Update runs the update's program (apply.go), against the primary as it is now.
func (r *readonlyInstanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateInstance[readonlyInstanceModel](ctx, &readonlyKind{r: r}, r.data, req, resp)
}

// Delete runs the destroy's program (instance_destroy.go); not found counts as deleted.
func (r *readonlyInstanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var budgets timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &budgets)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	destroyInstance(ctx, r.data, req.State, budgets, &resp.Diagnostics)
}

// ImportState imports a read-only instance by id, unless it is being deleted; Read fills in the rest.
func (r *readonlyInstanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if addProblems(&resp.Diagnostics, rdsservice.CheckImportID("rds_readonly_instance", id)); resp.Diagnostics.HasError() {
		return
	}
	if refuseImportOfDeleting(ctx, r.data, id, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	importTags(ctx, &resp.State, &resp.Diagnostics)
	importScheduled(ctx, r.data, id, &resp.State, &resp.Diagnostics)
}

// ModifyPlan reads the primary (within the plan timeout) and shows the planner's decision (modifyplan.go).
func (r *readonlyInstanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyPlan(ctx, readonlyPlan{}, r.data, req, resp)
}

// readonlyPlan is rds_readonly_instance's part of the shared ModifyPlan.
type readonlyPlan struct{}

func (readonlyPlan) before(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	recordPlannedConfig(ctx, req, resp) // planned_config.go: the apply decides from it
	warnUnrefreshed(ctx, req, &resp.Diagnostics)
	if !req.Plan.Raw.IsNull() {
		addProblems(&resp.Diagnostics, rdsservice.CheckReadOnlyConfig(attrValueOf(req.Config.Raw)))
	}
}

func (readonlyPlan) ownTags() int { return 0 }

func (readonlyPlan) resourceType() string { return rdsservice.ResourceReadOnlyInstance }

func (readonlyPlan) plan(ctx context.Context, env rdsservice.Env, m rdsservice.ModelRequest, state rdsservice.AttrValue, diags *diag.Diagnostics) (rdsservice.InstancePlan, bool) {
	out := rdsservice.PlanInstance(ctx, env, rdsservice.ReadOnlyRequest(ctx, env.API, m, state.Get(rdsservice.AttrInstanceType).Str()))
	if out.Stopped {
		addProblems(diags, out.Problems)
	}
	return out, !out.Stopped
}

// ---- the planner's inputs ----

// readonlyLabel names the instance in messages: its id, or for a new one its name.
func readonlyLabel(m *readonlyInstanceModel) string {
	if isKnown(m.ID) && m.ID.ValueString() != "" {
		return "read-only instance " + m.ID.ValueString()
	}
	if isKnown(m.InstanceName) && m.InstanceName.ValueString() != "" {
		return fmt.Sprintf("the new read-only instance %q", m.InstanceName.ValueString())
	}
	return "the new read-only instance"
}

// readonlyFromAttribute builds the state from the API's view of the instance (the shared
// conversion); base supplies what the API does not hold (prevent_restart, timeouts).
func readonlyFromAttribute(attr *rdsapi.DBInstanceAttribute, base *readonlyInstanceModel, diags *diag.Diagnostics) readonlyInstanceModel {
	v := viewOf(attr, diags)
	m := readonlyInstanceModel{
		ID: v.ID, MasterInstanceID: v.MasterInstanceID, EngineVersion: v.EngineVersion, InstanceType: v.InstanceType,
		Storage: v.Storage, StorageType: v.StorageType, ZoneID: v.ZoneID, VSwitchID: emptyAsNull(v.VSwitchID),
		InstanceName: emptyAsNull(v.InstanceName), DeletionProtection: v.DeletionProtection, Status: v.Status, LockMode: v.LockMode,
		ConnectionString: v.ConnectionString, Port: v.Port, Engine: v.Engine, Category: v.Category,
		InstructionSetArch: v.Architecture, CreationTime: v.CreationTime, AtomicWrite16K: v.AtomicWrite16K,
		AtomicWrite16KSupported: v.AtomicWrite16KSupported, PreventRestart: types.BoolValue(false), Timeouts: base.Timeouts,
		MaintenanceWindow: types.StringValue(attr.MaintainTime),
		ApplyRestarts:     types.StringValue(rdsservice.ApplyRestartsImmediately), ScheduledChange: types.ObjectNull(scheduledChangeAttrTypes),
		Parameters: base.Parameters, ParametersPending: types.MapNull(types.StringType),
		ParameterGroupID: base.ParameterGroupID, ParameterGroupValues: base.ParameterGroupValues,
		Tags: base.Tags, TagsAll: base.TagsAll, ResourceGroupID: emptyAsNull(types.StringValue(attr.ResourceGroupID)),
		MinorVersion:     emptyAsNull(types.StringValue(attr.CurrentKernelVersion)),
		SecurityIPGroups: ipGroupsOrNull(base.SecurityIPGroups), SecurityGroupIDs: securityGroupsOrNull(base.SecurityGroupIDs),
		WhitelistTemplateIDs: securityGroupsOrNull(base.WhitelistTemplateIDs),
	}
	m.carryEndpoints(base)
	if isKnown(base.ApplyRestarts) {
		m.ApplyRestarts = base.ApplyRestarts
	}
	if isKnown(base.ScheduledChange) {
		m.ScheduledChange = base.ScheduledChange
	}
	if isKnown(base.PreventRestart) {
		m.PreventRestart = base.PreventRestart
	}
	return m
}

// roNullUnknowns turns leftover unknowns into nulls so that a partial state never holds an unknown.
func roNullUnknowns(m *readonlyInstanceModel) {
	if !isKnown(m.ApplyRestarts) {
		m.ApplyRestarts = types.StringValue(rdsservice.ApplyRestartsImmediately)
	}
	nullUnknowns(context.Background(), m)
}

// ---- the apply (apply.go) ----

// readonlyKind is rds_readonly_instance's part of the shared apply. The apply reads the primary
// again: it may not have existed at plan time, or changed earlier in this apply.
type readonlyKind struct {
	r       *readonlyInstanceResource
	primary *rdsapi.DBInstanceAttribute
}

func (k *readonlyKind) planInput(ctx context.Context, m rdsservice.ModelRequest, diags *diag.Diagnostics) rdsservice.PlanInput {
	master := m.Plan.Get(rdsservice.AttrMasterInstanceID).String()
	primary, err := k.r.data.API.DescribeDBInstanceAttribute(ctx, master)
	if err != nil && (m.State.IsNull() || !rdsapi.IsNotFound(err)) {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RulePrimaryUnreadable, master, master, rdsservice.OperationError(ctx, err))})
		return rdsservice.PlanInput{}
	}
	k.primary = primary
	return rdsservice.ReadOnlyInput(ctx, k.r.data.planEnv(), rdsservice.ReadOnlyRequest(ctx, k.r.data.API, m, rdsservice.Null[string]()), primary)
}

func (k *readonlyKind) parts(m *readonlyInstanceModel) modelParts {
	return modelParts{ID: &m.ID, Timeouts: m.Timeouts, Spec: m.specFields(), MaintenanceWindow: &m.MaintenanceWindow,
		ScheduledChange: &m.ScheduledChange, Parameters: &m.Parameters, Pending: &m.ParametersPending}
}

func (k *readonlyKind) settings(ctx context.Context, m readonlyInstanceModel, diags *diag.Diagnostics) rdsservice.Settings {
	return settingsOf(ctx, readonlyInstanceCodec, m, diags)
}

// execution is the executor's input; for a create, the values the plan left to the primary are
// filled from the primary as it is now, and a flag the plan promised that the primary no longer
// gives is refused before anything is created.
func (k *readonlyKind) execution(ctx context.Context, plan *readonlyInstanceModel, dec rdsservice.Decision, diags *diag.Diagnostics) rdsservice.Execution {
	e := rdsservice.Execution{Settings: settingsOf(ctx, readonlyInstanceCodec, *plan, diags), TargetClass: plan.InstanceType.ValueString(), TargetStorage: plan.Storage.ValueInt64()}
	if dec.Action != rdsservice.ActionCreate {
		return e
	}
	primary := k.primary
	if isKnown(plan.AtomicWrite16K) && dec.AtomicWrite.IsKnown() && plan.AtomicWrite16K.ValueBool() != dec.AtomicWrite.Value() {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.Rule16KPrimaryChanged, "",
			plan.AtomicWrite16K.ValueBool(), readonlyLabel(plan), primary.DBInstanceID, dec.AtomicWrite.Value())})
		return e
	}
	fill := func(v *types.String, from rdsservice.Val[string]) {
		if !isKnown(*v) && from.IsKnown() {
			*v = types.StringValue(from.Value())
		}
	}
	fill(&plan.EngineVersion, dec.EngineVersion)
	fill(&plan.StorageType, dec.StorageType)
	fill(&plan.ZoneID, rdsservice.Known(primary.ZoneID))
	fill(&plan.VSwitchID, rdsservice.Known(primary.VSwitchID))
	e.Create.Primary = primary
	e.Create.ReadOnly = &rdsapi.CreateReadOnlyDBInstanceRequest{
		RegionID: k.r.data.Region, PrimaryDBInstanceID: primary.DBInstanceID, ZoneID: plan.ZoneID.ValueString(),
		EngineVersion: plan.EngineVersion.ValueString(), DBInstanceClass: plan.InstanceType.ValueString(),
		DBInstanceStorage: plan.Storage.ValueInt64(), DBInstanceStorageType: plan.StorageType.ValueString(),
		PayType: rdsapi.PayTypePostpaid, VSwitchID: plan.VSwitchID.ValueString(), DBInstanceDescription: plan.InstanceName.ValueString(),
		DeletionProtection: plan.DeletionProtection.ValueBool(),
		// One token for every attempt: a create whose answer was lost is returned, not repeated.
		ClientToken: uuid.NewString(),
	}
	if e.Create.ReadOnly.VSwitchID != "" {
		e.Create.ReadOnly.InstanceNetworkType, e.Create.ReadOnly.VPCID = rdsapi.NetworkTypeVPC, primary.VpcID
	}
	return e
}

func (k *readonlyKind) accepted(plan readonlyInstanceModel, id string) readonlyInstanceModel {
	plan.ID = types.StringValue(id)
	roNullUnknowns(&plan)
	return plan
}

func (k *readonlyKind) applied(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan, config readonlyInstanceModel, _ privateSetter, diags *diag.Diagnostics) readonlyInstanceModel {
	m := readonlyFromAttribute(attr, &plan, diags)
	m.ParameterGroupValues = appliedGroupValues(ctx, k.r.data.API, plan.ParameterGroupID, config.Parameters, plan.ParameterGroupValues, diags)
	readEndpoints(ctx, k.r.data.API, attr.DBInstanceID, m.endpointParts(), diags)
	return m
}

func (k *readonlyKind) incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan readonlyInstanceModel, stop createStop) {
	k.r.incompleteCreate(ctx, req, resp, plan, stop)
}
