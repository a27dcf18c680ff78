package provider

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ resource.Resource                   = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithConfigure      = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithImportState    = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithValidateConfig = (*readonlyInstanceResource)(nil)
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
}

func (r *readonlyInstanceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_readonly_instance"
}

func (r *readonlyInstanceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepReplace := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
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
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"engine_version": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Engine version; the primary's when unset. Changing it creates a new read-only instance.",
				PlanModifiers:       keepReplace,
			},
			"instance_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Read-only instance class, e.g. `mysqlro.n2.medium.1c`. " +
					"**Changing it restarts the instance** (one `ModifyDBInstanceSpec`, announced in the plan).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"storage": schema.Int64Attribute{
				Required: true,
				MarkdownDescription: "Storage in GB: at least the primary's, in steps of 5. " +
					"**Changing it restarts the instance** (one `ModifyDBInstanceSpec`, announced in the plan).",
				Validators: []validator.Int64{int64validator.AtLeast(20), multipleOf(5)},
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
				PlanModifiers:       keepReplace,
			},
			"vswitch_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "VSwitch in the primary's VPC; the primary's when unset. Changing it creates a new read-only instance.",
				PlanModifiers:       keepReplace,
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
					"follows its primary, or a replacement) is an error instead of a warning.",
			},
			"status": schema.StringAttribute{Computed: true, MarkdownDescription: "Instance status (`DBInstanceStatus`). An instance " +
				"that is `Stopped` or `Deleting` (released outside Terraform, e.g. with its primary) takes no change: the plan says so " +
				"(an error for `Deleting`), and an apply fails at once instead of waiting for its timeout."},
			"lock_mode": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Lock of the instance " +
				"(`LockMode`): `Unlock`, or why the cloud refuses changes to it (`ManualLock`, `LockByExpiration`, `LockByRestoration`, " +
				"`LockByDiskQuota`, `LockReadInstanceByDiskQuota`). A plan that changes a locked instance warns and names the way to unlock it."},
			"connection_string":    schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Internal connection string."},
			"port":                 schema.Int64Attribute{Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}, MarkdownDescription: "Port of `connection_string`."},
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
}

func (r *readonlyInstanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_readonly_instance", &resp.Diagnostics)
}

// ValidateConfig checks what the configuration alone decides (nothing here needs the API).
func (r *readonlyInstanceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg readonlyInstanceModel
	resp.Diagnostics.Append(readonlyInstanceCodec.Get(ctx, req.Config.Raw, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if isKnown(cfg.InstanceType) && !strings.Contains(cfg.InstanceType.ValueString(), ".") {
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.RuleReadOnlyClassShape].Problem(cfg.InstanceType.ValueString(), cfg.InstanceType.ValueString())})
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckMaintenanceWindow(valString(cfg.MaintenanceWindow)))
}

func (r *readonlyInstanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var plan, cfg readonlyInstanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	budget, ok := operationBudget(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	master := plan.MasterInstanceID.ValueString()
	primary, err := r.data.API.DescribeDBInstanceAttribute(ctx, master)
	if err != nil {
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.RulePrimaryUnreadable].Problem(master, master, operationError(ctx, err))})
		return
	}

	// The plan's decision again: the primary may not have existed at plan time.
	dec := r.decide(ctx, nil, cfg, plan, primary, nil, nil)
	addProblems(&resp.Diagnostics, dec.Errors())
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.AtomicWrite16K.IsNull() && isKnown(plan.AtomicWrite16K) && dec.AtomicWrite.IsKnown() && plan.AtomicWrite16K.ValueBool() != dec.AtomicWrite.Value() {
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.Rule16KPrimaryChanged].Problem("",
			plan.AtomicWrite16K.ValueBool(), readonlyLabel(&plan), master, dec.AtomicWrite.Value())})
		return
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

	createReq := &rdsapi.CreateReadOnlyDBInstanceRequest{
		RegionID:              r.data.Region,
		PrimaryDBInstanceID:   master,
		ZoneID:                plan.ZoneID.ValueString(),
		EngineVersion:         plan.EngineVersion.ValueString(),
		DBInstanceClass:       plan.InstanceType.ValueString(),
		DBInstanceStorage:     plan.Storage.ValueInt64(),
		DBInstanceStorageType: plan.StorageType.ValueString(),
		PayType:               rdsapi.PayTypePostpaid,
		VSwitchID:             plan.VSwitchID.ValueString(),
		DBInstanceDescription: plan.InstanceName.ValueString(),
		DeletionProtection:    plan.DeletionProtection.ValueBool(),
		// One token for every attempt: a create whose answer was lost is returned, not repeated.
		ClientToken: uuid.NewString(),
	}
	if createReq.VSwitchID != "" {
		createReq.InstanceNetworkType = rdsapi.NetworkTypeVPC
		createReq.VPCID = primary.VpcID
	}
	// Resent while the primary is busy (e.g. a sibling is being created), throttled or silent.
	id, err := rdsservice.CreateReadOnlyDBInstance(ctx, r.data.API, r.data.Waiter, primary, createReq)
	if err != nil {
		if id != "" { // the request made it although no answer came: keep it in state (tainted)
			partial := plan
			partial.ID = types.StringValue(id)
			roNullUnknowns(&partial)
			resp.Diagnostics.Append(resp.State.Set(ctx, &partial)...)
		}
		resp.Diagnostics.AddError("Creating the read-only instance failed",
			fmt.Sprintf("CreateReadOnlyDBInstance for primary %s: %s", master, operationError(ctx, err)))
		return
	}
	tflog.Info(ctx, "read-only instance accepted", map[string]any{"id": id, "primary": master})

	// Record the id at once: if a wait fails, Terraform keeps the instance (tainted) instead of
	// losing track of it.
	partial := plan
	partial.ID = types.StringValue(id)
	roNullUnknowns(&partial)
	resp.Diagnostics.Append(resp.State.Set(ctx, &partial)...)
	if resp.Diagnostics.HasError() {
		return
	}

	plan.ID = types.StringValue(id)
	attr, err := r.data.Waiter.WaitRunning(ctx, id)
	if err != nil {
		// Running just after the deadline is usable: the rest is the remaining change.
		if running, ok := runningNow(ctx, r.data, id); ok {
			r.incompleteCreate(ctx, req, resp, plan, running, "waiting for the read-only instance to be ready", err)
			return
		}
		resp.Diagnostics.AddError("Waiting for the read-only instance failed",
			fmt.Sprintf("Read-only instance %s was created but did not become ready: %s. It is recorded in state and will be "+
				"replaced on the next apply (tainted).", id, operationError(ctx, err)))
		return
	}
	// From here on the instance is usable: a step that fails leaves it in state, not tainted, and
	// the next plan shows what remains (partial_create.go).
	// Parameters before the toggle after creation, whose restart then applies the ones that need one.
	if err := r.data.applyParameters(ctx, id, dec.Parameters); err != nil {
		r.incompleteCreate(ctx, req, resp, plan, attr, "setting the parameters", err)
		return
	}
	if want := dec.ToggleAfterCreate; want != nil {
		toggled, err := rdsservice.ApplySpecChange(ctx, r.data.API, r.data.Waiter, id,
			&rdsapi.ModifyDBInstanceSpecRequest{OptimizedWrites: optimizedWrites(*want)}, want)
		if err != nil {
			r.incompleteCreate(ctx, req, resp, plan, attr, "turning on 16K atomic write", err)
			return
		}
		attr = toggled
	}
	if len(dec.Parameters.Send) > 0 {
		running, err := rdsservice.WaitParametersRunning(ctx, r.data.API, r.data.Waiter, id, dec.Parameters.Send)
		if err != nil {
			r.incompleteCreate(ctx, req, resp, plan, attr, "waiting for the parameters to run", err)
			return
		}
		attr = running
	}
	var stepDiags diag.Diagnostics
	converged, ok := r.converge(ctx, attr, &plan, &stepDiags)
	if !ok {
		r.incompleteCreate(ctx, req, resp, plan, attr, "setting the name, deletion protection and maintenance window",
			errors.New(stepDiags.Errors()[0].Detail()))
		return
	}
	state := readonlyFromAttribute(converged, &plan, &resp.Diagnostics)
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &stepDiags)
	if stepDiags.HasError() {
		r.incompleteCreate(ctx, req, resp, plan, converged, "reading the parameters", errors.New(stepDiags.Errors()[0].Detail()))
		return
	}
	setAppliedState(ctx, req.Plan, &state, &resp.State, &resp.Diagnostics)
}

// converge applies the name and deletion protection (the shared in-place step) when the instance
// differs from the plan, and returns the instance as finally read.
func (r *readonlyInstanceResource) converge(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan *readonlyInstanceModel, diags *diag.Diagnostics) (*rdsapi.DBInstanceAttribute, bool) {
	id := attr.DBInstanceID
	var want inPlaceSettings
	if isKnown(plan.InstanceName) {
		want.Name = ptr(plan.InstanceName.ValueString())
	}
	if isKnown(plan.DeletionProtection) {
		want.DeletionProtection = ptr(plan.DeletionProtection.ValueBool())
	}
	if isKnown(plan.MaintenanceWindow) {
		want.MaintenanceWindow = ptr(plan.MaintenanceWindow.ValueString())
	}
	current := settingsOf(attr)
	current.SecurityIPs = nil
	sent, err := applyInPlaceSettings(ctx, r.data, id, current, want)
	if err != nil {
		diags.AddError("Changing the read-only instance failed", operationError(ctx, err))
		return nil, false
	}
	if !sent {
		return attr, true
	}
	again, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		diags.AddError("Reading the read-only instance failed", fmt.Sprintf("Instance %s: %v", id, err))
		return nil, false
	}
	return again, true
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
	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddWarning("Read-only instance not found",
			fmt.Sprintf("Read-only instance %s no longer exists (deleted outside Terraform, or with its primary); it is removed from the state and the next plan creates it again.", id))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the read-only instance failed", fmt.Sprintf("Instance %s: %v", id, err))
		return
	}
	if attr.MasterInstanceID == "" {
		p := rdsservice.Rules[rdsservice.RuleNotAReadOnly].Problem(id, id, attr.DBInstanceType)
		resp.Diagnostics.AddError(p.Summary, p.Detail)
		return
	}
	state := readonlyFromAttribute(attr, &prior, &resp.Diagnostics)
	state.ScheduledChange = r.data.refreshScheduled(ctx, id, prior.ScheduledChange, specOf(prior.specFields()), state.specFields(),
		state.MaintenanceWindow.ValueString(), resp.Private, &resp.Diagnostics)
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &resp.Diagnostics)
	noteRefreshed(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(readonlyInstanceCodec.Set(ctx, &resp.State, state)...)
}

func (r *readonlyInstanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var plan, state, cfg readonlyInstanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	budget, ok := operationBudget(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	id := state.ID.ValueString()

	// The plan's decision again, against the primary as it is now (it may have changed earlier in
	// this apply): nothing is sent when it refuses.
	primary, err := r.data.API.DescribeDBInstanceAttribute(ctx, state.MasterInstanceID.ValueString())
	if err != nil && !rdsapi.IsNotFound(err) {
		master := state.MasterInstanceID.ValueString()
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.RulePrimaryUnreadable].Problem(master, master, operationError(ctx, err))})
		return
	}
	from := scheduledFrom(ctx, req.Private, &resp.Diagnostics)
	dec := r.decide(ctx, priorForPlan(&state, from), cfg, plan, primary, nil, nil)
	addProblems(&resp.Diagnostics, dec.Errors())
	if resp.Diagnostics.HasError() {
		return
	}
	requested := specOf(plan.specFields())
	dec, plan.ScheduledChange = r.data.scheduleForWindow(ctx, dec, id, state.specFields(), plan.specFields(), &state.MaintenanceWindow,
		plan.MaintenanceWindow, from, plan.ScheduledChange, resp.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// Parameters first: when a spec change follows, its one restart applies the ones that need one.
	if err := r.data.applyParameters(ctx, id, dec.Parameters); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Setting the read-only instance's parameters failed", operationError(ctx, err))
		return
	}
	plan.ScheduledChange = r.data.stillScheduled(ctx, id, plan.ScheduledChange, state.ScheduledChange, resp.Private, &resp.Diagnostics)
	if dec.FollowsPrimary {
		// The cloud turns this instance on with its primary: wait for it, send nothing for it.
		if _, err := r.data.Waiter.WaitRunningWithFlag(ctx, id, true); err != nil {
			resp.Diagnostics.AddError("Waiting for the read-only instance to follow its primary failed", fmt.Sprintf("Instance %s: %s", id, operationError(ctx, err)))
			return
		}
	}
	if len(dec.Restarts) > 0 && !dec.Deferred {
		// This apply restarts the instance now: nothing waits for the window afterwards.
		plan.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
		setScheduledFrom(ctx, resp.Private, nil, &resp.Diagnostics)
	}
	if !dec.Order.Empty() {
		if err := r.applySpecNow(ctx, id, dec.Order, *priorForPlan(&state, from), cfg, plan, primary); err != nil {
			resp.Diagnostics.AddError(specChangeSummary(err, "Changing the read-only instance failed"), fmt.Sprintf("Instance %s: %s", id, operationError(ctx, err)))
			return
		}
		if _, err := rdsservice.WaitParametersRunning(ctx, r.data.API, r.data.Waiter, id, dec.Parameters.Send); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Waiting for the read-only instance's parameters failed", operationError(ctx, err))
			return
		}
	}

	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		resp.Diagnostics.AddError("Reading the read-only instance failed", fmt.Sprintf("Instance %s: %v", id, err))
		return
	}
	attr, ok = r.converge(ctx, attr, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	newState := readonlyFromAttribute(attr, &plan, &resp.Diagnostics)
	if isKnown(newState.ScheduledChange) {
		// Until the window the state keeps what was asked for; scheduled_change says it is pending.
		requested.setSpec(newState.specFields())
	}
	newState.Parameters, newState.ParametersPending = readParameters(ctx, r.data.API, id, newState.Parameters, &resp.Diagnostics)
	clearIncompleteCreate(ctx, resp.Private, &resp.Diagnostics)
	setAppliedState(ctx, req.Plan, &newState, &resp.State, &resp.Diagnostics)
}

func (r *readonlyInstanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var state readonlyInstanceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	budget, ok := operationBudget(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	deleteAndWait(ctx, r.data, state.ID.ValueString(), "", &resp.Diagnostics)
}

// ImportState imports a read-only instance by id, unless it is being deleted; Read fills in the rest.
func (r *readonlyInstanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if refuseImportOfDeleting(ctx, r.data, strings.TrimSpace(req.ID), &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// ModifyPlan reads the primary (within the plan timeout) and shows the planner's decision.
func (r *readonlyInstanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	warnUnrefreshed(ctx, req, &resp.Diagnostics)
	primaryChanges := func() bool {
		var master types.String
		if req.State.GetAttribute(ctx, path.Root("master_instance_id"), &master).HasError() || !isKnown(master) {
			return false
		}
		return !r.data.plans.lookup(master.ValueString()).IsNull()
	}
	lookupCtx, cancel, proceed := planPreamble(ctx, r.data, req, resp, primaryChanges)
	defer cancel()
	if !proceed {
		return
	}
	plan, cfg, state := planModels[readonlyInstanceModel](ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var replace []string
	if state != nil {
		replace = replacedAttributes(req, []string{"master_instance_id", "engine_version", "zone_id", "vswitch_id"}, nil)
	}
	var primary *rdsapi.DBInstanceAttribute
	if isKnown(plan.MasterInstanceID) && len(replace) == 0 {
		master := plan.MasterInstanceID.ValueString()
		attr, err := r.data.API.DescribeDBInstanceAttribute(lookupCtx, master)
		switch {
		case err == nil:
			primary = attr
		case rdsapi.IsNotFound(err) && state == nil:
			addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.RuleReadOnlyPrimaryNotFound].Problem(master, master, r.data.Region)})
			return
		case rdsapi.IsNotFound(err):
			// The read-only instance goes with its primary; refresh removes it, apply reports it.
			tflog.Warn(ctx, "primary of a read-only instance not found while planning", map[string]any{"primary": master})
		default:
			addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Rules[rdsservice.RulePrimaryUnreadable].Problem(master, master, operationError(lookupCtx, err))})
			return
		}
	}
	from := scheduledFrom(ctx, req.Private, &resp.Diagnostics)
	dec := r.decide(lookupCtx, priorForPlan(state, from), cfg, plan, primary, replace, r.classFacts(lookupCtx, state, cfg, plan, primary))
	addProblems(&resp.Diagnostics, dec.Problems)
	if dec.Action == rdsservice.ActionReplace || resp.Diagnostics.HasError() {
		return
	}
	plan.AtomicWrite16K = boolOf(dec.AtomicWrite)
	plan.AtomicWrite16KSupported = boolOf(dec.AtomicWriteSupported)
	plan.InstructionSetArch = stringOf(dec.Architecture)
	plan.Status = stringOf(dec.Status)
	plan.LockMode = plannedLockMode(plan.LockMode, state != nil)
	plan.ParametersPending = plannedPending(cfg.Parameters, dec.Parameters, &resp.Diagnostics)
	if state != nil {
		plan.ScheduledChange = plannedScheduledChange(dec, state.ScheduledChange, from, specOf(plan.specFields()), isKnown(plan.InstanceType))
	}
	if state == nil {
		if dec.EngineVersion.IsKnown() {
			plan.EngineVersion = types.StringValue(dec.EngineVersion.Value())
		}
		if dec.StorageType.IsKnown() {
			plan.StorageType = types.StringValue(dec.StorageType.Value())
		}
		if primary != nil {
			inherit := func(v *types.String, from string) {
				if v.IsUnknown() && from != "" {
					*v = types.StringValue(from)
				}
			}
			inherit(&plan.ZoneID, primary.ZoneID)
			inherit(&plan.VSwitchID, primary.VSwitchID)
			inherit(&plan.Engine, primary.Engine)
			inherit(&plan.Category, primary.Category)
		}
	} else {
		warnIncompleteCreate(ctx, req.Private, state.ID.ValueString(), *state, plan, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// ---- the planner's inputs ----

// decide calls the planner for this read-only instance: cfg tells "unset" from a value, primary
// is the primary as read now (nil while it does not exist), and the primary's planned flag comes
// from this run's plan of the primary when the provider saw it.
func (r *readonlyInstanceResource) decide(ctx context.Context, state *readonlyInstanceModel, cfg, plan readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute, replace []string, classes *rdsservice.ClassFacts) rdsservice.Decision {
	inherited := func(configured, planned types.String) rdsservice.Val[string] {
		if configured.IsNull() && state == nil {
			return rdsservice.Null[string]()
		}
		return valString(planned)
	}
	in := rdsservice.PlanInput{
		Role:  rdsservice.RoleReadOnly,
		Label: readonlyLabel(&plan),
		Desired: rdsservice.Desired{
			EngineVersion: inherited(cfg.EngineVersion, plan.EngineVersion), StorageType: inherited(cfg.StorageType, plan.StorageType),
			InstanceClass: valString(plan.InstanceType), Storage: valInt(plan.Storage),
			AtomicWrite: valBool(cfg.AtomicWrite16K), PreventRestart: plan.PreventRestart.ValueBool(),
			Parameters:    desiredParameters(cfg.Parameters),
			ApplyRestarts: plan.ApplyRestarts.ValueString(), MaintenanceWindow: valString(plan.MaintenanceWindow),
		},
		Facts: rdsservice.Facts{Classes: classes},
	}
	if r.data != nil {
		in.Facts.Now = r.data.Waiter.Now()
	}
	in.Replace = replace
	if state != nil {
		prior := existingFrom(state.ID.ValueString(), state.view(), state.CreationTime)
		in.Prior, in.Label = &prior, prior.ID
		in.Desired.InPlaceChanges = roSettings(plan).changes(roSettings(*state))
	}
	if primary != nil {
		if p, err := rdsservice.ExistingFromAttribute(primary); err == nil {
			in.Facts.Primary = &p
		}
	}
	if r.data != nil && isKnown(plan.MasterInstanceID) {
		in.Facts.PrimaryPlanned = r.data.plans.lookup(plan.MasterInstanceID.ValueString())
	}
	if r.data != nil && len(in.Replace) == 0 {
		if state != nil {
			in.Desired.Parameters.Recorded = state.Parameters.Equal(cfg.Parameters)
			in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, state.ID.ValueString(), state.Engine.ValueString(),
				state.EngineVersion.ValueString(), "", state.Parameters, state.ParametersPending)
		} else if primary != nil {
			// A new read-only instance runs its primary's engine and version.
			in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, "", primary.Engine,
				firstKnown(plan.EngineVersion, string(primary.EngineVersion)), "", types.MapNull(types.StringType), types.MapNull(types.StringType))
		}
	}
	return rdsservice.Plan(in)
}

// classFacts asks the class catalogue about a new read-only instance or a class change. Read-only
// classes (mysqlro.*) are offered with the HighAvailability category (simulator README).
func (r *readonlyInstanceResource) classFacts(ctx context.Context, state *readonlyInstanceModel, cfg, plan readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute) *rdsservice.ClassFacts {
	if primary == nil || !isKnown(plan.InstanceType) || (state != nil && plan.InstanceType.Equal(state.InstanceType)) {
		return nil
	}
	version, storageType := string(primary.EngineVersion), primary.DBInstanceStorageType
	if isKnown(cfg.StorageType) {
		storageType = cfg.StorageType.ValueString()
	} else if cfg.StorageType.IsUnknown() {
		return nil
	}
	if state != nil {
		storageType = stringIfKnown(plan.StorageType)
	}
	zone := primary.ZoneID
	if isKnown(plan.ZoneID) {
		zone = plan.ZoneID.ValueString()
	}
	return classFacts(ctx, r.data, rdsapi.DescribeAvailableClassesRequest{ZoneID: zone, Engine: primary.Engine,
		EngineVersion: version, DBInstanceStorageType: storageType, Category: "HighAvailability"})
}

// roSettings is the in-place settings of a read-only instance's state or plan (it has no allow-list).
func roSettings(m readonlyInstanceModel) inPlaceSettings {
	var s inPlaceSettings
	if isKnown(m.InstanceName) {
		s.Name = ptr(m.InstanceName.ValueString())
	}
	if isKnown(m.DeletionProtection) {
		s.DeletionProtection = ptr(m.DeletionProtection.ValueBool())
	}
	if isKnown(m.MaintenanceWindow) {
		s.MaintenanceWindow = ptr(m.MaintenanceWindow.ValueString())
	}
	return s
}

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

// view is the state in the shared shape the planner reads.
func (m readonlyInstanceModel) view() instanceView {
	return instanceView{ID: m.ID, MasterInstanceID: m.MasterInstanceID, Engine: m.Engine, EngineVersion: m.EngineVersion,
		InstanceType: m.InstanceType, StorageType: m.StorageType, Category: m.Category, Storage: m.Storage,
		Architecture: m.InstructionSetArch, AtomicWrite16K: m.AtomicWrite16K, AtomicWrite16KSupported: m.AtomicWrite16KSupported,
		Status: m.Status, LockMode: m.LockMode, DeletionProtection: m.DeletionProtection}
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
	}
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
	for _, s := range []*types.String{&m.EngineVersion, &m.StorageType, &m.ZoneID, &m.VSwitchID, &m.InstanceName,
		&m.Status, &m.LockMode, &m.ConnectionString, &m.Engine, &m.Category, &m.InstructionSetArch, &m.CreationTime, &m.MaintenanceWindow} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.Port.IsUnknown() {
		m.Port = types.Int64Null()
	}
	if m.ParametersPending.IsUnknown() {
		m.ParametersPending = types.MapNull(types.StringType)
	}
	if m.ScheduledChange.IsUnknown() {
		m.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
	}
	if !isKnown(m.ApplyRestarts) {
		m.ApplyRestarts = types.StringValue(rdsservice.ApplyRestartsImmediately)
	}
	for _, b := range []*types.Bool{&m.AtomicWrite16K, &m.AtomicWrite16KSupported, &m.DeletionProtection, &m.PreventRestart} {
		if b.IsUnknown() {
			*b = types.BoolNull()
		}
	}
}

// firstKnown is v when known, else def.
func firstKnown(v types.String, def string) string {
	if isKnown(v) {
		return v.ValueString()
	}
	return def
}
