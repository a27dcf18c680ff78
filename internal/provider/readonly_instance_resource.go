package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// Default operation budgets of rds_readonly_instance; the timeouts attribute overrides them.
const (
	readonlyCreateTimeout = 50 * time.Minute
	readonlyUpdateTimeout = 30 * time.Minute
	readonlyDeleteTimeout = 30 * time.Minute
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
	ConnectionString        types.String   `tfsdk:"connection_string"`
	Port                    types.Int64    `tfsdk:"port"`
	Engine                  types.String   `tfsdk:"engine"`
	Category                types.String   `tfsdk:"category"`
	InstructionSetArch      types.String   `tfsdk:"instruction_set_arch"`
	CreationTime            types.String   `tfsdk:"creation_time"`
	Timeouts                timeouts.Value `tfsdk:"timeouts"`
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
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "When true, a plan that would restart this instance is an error instead of a warning.",
			},
			"status":               schema.StringAttribute{Computed: true, MarkdownDescription: "Instance status (`DBInstanceStatus`)."},
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
}

func (r *readonlyInstanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_readonly_instance", &resp.Diagnostics)
}

// ValidateConfig checks what the configuration alone decides (nothing here needs the API).
func (r *readonlyInstanceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg readonlyInstanceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if isKnown(cfg.InstanceType) && !strings.Contains(cfg.InstanceType.ValueString(), ".") {
		resp.Diagnostics.AddAttributeError(path.Root("instance_type"), "Invalid read-only instance type",
			fmt.Sprintf("instance_type must be an RDS class code such as mysqlro.n2.medium.1c; got %q.", cfg.InstanceType.ValueString()))
	}
}

// readonlyLabel names the instance in messages: its id, or for a new one its name and primary.
func readonlyLabel(m *readonlyInstanceModel) string {
	if isKnown(m.ID) && m.ID.ValueString() != "" {
		return "read-only instance " + m.ID.ValueString()
	}
	if isKnown(m.InstanceName) && m.InstanceName.ValueString() != "" {
		return fmt.Sprintf("the new read-only instance %q", m.InstanceName.ValueString())
	}
	return "the new read-only instance"
}

// readonlyOffProblem is rule 7: a read-only instance cannot have the flag off while its primary has
// it on. Plan and apply use the same text.
func readonlyOffProblem(label, masterID string) rdsservice.Problem {
	return rdsservice.Problem{
		Attribute: rdsservice.AttrAtomicWrite,
		Value:     "false",
		Summary:   "16K atomic write cannot be off on a read-only instance whose primary has it on",
		Detail: fmt.Sprintf("atomic_write_16k = false is not possible for %s: its primary %s has 16K atomic write on, and a "+
			"read-only instance cannot turn it off while its primary has it on. Remove atomic_write_16k (the read-only instance "+
			"then inherits the primary's value) or set it to true, or turn 16K atomic write off on the primary %s first.",
			label, masterID, masterID),
	}
}

// readonlyToggleAfterCreate describes the restart of a new read-only instance that is turned on
// after creation because its primary has the flag off.
func readonlyToggleAfterCreate(label, masterID string) rdsservice.Restart {
	return rdsservice.Restart{
		InstanceID: label,
		Reasons: []string{fmt.Sprintf("it is created with its primary %s's atomic_write_16k = false and then turned on "+
			"(atomic_write_16k changes from false to true)", masterID)},
		Downtime: rdsservice.ExpectedDowntime("", true),
	}
}

const primaryChangedSummary = "The primary's 16K atomic write changed since the plan"

func roAddProblems(diags *diag.Diagnostics, problems []rdsservice.Problem) {
	for _, p := range problems {
		diags.AddAttributeError(problemPath(p), p.Summary, p.Detail)
	}
}

// addRestart adds the restart warning, or the prevent_restart error, at the triggering attribute.
func roAddRestart(diags *diag.Diagnostics, at path.Path, preventRestart bool, restarts []rdsservice.Restart) {
	summary, detail := rdsservice.RestartWarning(restarts)
	if preventRestart {
		diags.AddAttributeError(at, "prevent_restart: "+summary,
			detail+"\nprevent_restart = true refuses this plan. Set prevent_restart = false to allow the restart, or undo the change.")
		return
	}
	diags.AddAttributeWarning(at, summary, detail)
}

func (r *readonlyInstanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		// Destroy: refuse at plan time what the cloud will refuse at apply time.
		var id types.String
		var protected types.Bool
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("deletion_protection"), &protected)...)
		if protected.ValueBool() {
			resp.Diagnostics.AddAttributeError(path.Root("deletion_protection"), deletionProtectedSummary, deletionProtectedDetail(id.ValueString()))
		}
		return
	}
	if !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw) {
		// Nothing changes: no restart to announce and no reason to read the primary, so a refresh
		// costs one API call per read-only instance.
		return
	}
	var plan, cfg readonlyInstanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *readonlyInstanceModel
	if !req.State.Raw.IsNull() {
		state = &readonlyInstanceModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if r.data == nil {
		// The provider is not configured yet (its own settings are unknown); Create and Update
		// repeat every check against the API.
		return
	}

	var primary *rdsapi.DBInstanceAttribute
	if isKnown(plan.MasterInstanceID) {
		attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, plan.MasterInstanceID.ValueString())
		switch {
		case err == nil:
			primary = attr
		case rdsapi.IsNotFound(err) && state == nil:
			resp.Diagnostics.AddAttributeError(path.Root("master_instance_id"), "Primary instance not found",
				fmt.Sprintf("The primary instance %s does not exist in region %s. Check master_instance_id.",
					plan.MasterInstanceID.ValueString(), r.data.Region))
			return
		case rdsapi.IsNotFound(err):
			// The read-only instance goes with its primary; refresh removes it, apply reports it.
			tflog.Warn(ctx, "primary of a read-only instance not found while planning", map[string]any{"primary": plan.MasterInstanceID.ValueString()})
		default:
			resp.Diagnostics.AddAttributeError(path.Root("master_instance_id"), "Cannot read the primary instance",
				fmt.Sprintf("Reading primary %s to check 16K atomic write failed: %v", plan.MasterInstanceID.ValueString(), err))
			return
		}
	}

	if state == nil {
		r.planCreate(ctx, &plan, &cfg, primary, &resp.Diagnostics)
	} else {
		r.planUpdate(ctx, &plan, &cfg, state, primary, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func roPrimaryFlag(primary *rdsapi.DBInstanceAttribute) bool {
	return primary != nil && primary.OptimizedWrites != nil && primary.OptimizedWrites.Enabled
}

// planCreate fills the values a new read-only instance takes from its primary and checks rule 7.
func (r *readonlyInstanceResource) planCreate(_ context.Context, plan, cfg *readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) {
	label := readonlyLabel(plan)
	if primary == nil {
		// The primary is created in this apply: its value is unknown; Create checks again.
		if plan.AtomicWrite16K.IsUnknown() || plan.AtomicWrite16K.IsNull() {
			plan.AtomicWrite16K = types.BoolUnknown()
		}
		if isKnown(cfg.AtomicWrite16K) && cfg.AtomicWrite16K.ValueBool() {
			diags.AddAttributeWarning(path.Root("atomic_write_16k"), "A restart of the new read-only instance may follow its creation",
				fmt.Sprintf("The primary's 16K atomic write is not known yet. If the primary has it off, %s is created with it off "+
					"and then turned on, which restarts it once (expected downtime %s). With prevent_restart = true that apply fails "+
					"before anything is created.", label, rdsservice.ExpectedDowntime("", true)))
		}
		return
	}
	master := primary.DBInstanceID
	if isKnown(cfg.EngineVersion) && cfg.EngineVersion.ValueString() != string(primary.EngineVersion) {
		diags.AddAttributeError(path.Root("engine_version"), "Read-only instance engine version differs from the primary's",
			fmt.Sprintf("A read-only instance runs its primary's engine version: primary %s has %q, engine_version is %q. "+
				"Remove engine_version (it defaults to the primary's) or set it to %q.",
				master, string(primary.EngineVersion), cfg.EngineVersion.ValueString(), string(primary.EngineVersion)))
		return
	}
	if plan.EngineVersion.IsUnknown() {
		plan.EngineVersion = types.StringValue(string(primary.EngineVersion))
	}
	if plan.StorageType.IsUnknown() && primary.DBInstanceStorageType != "" {
		plan.StorageType = types.StringValue(primary.DBInstanceStorageType)
	}
	if plan.ZoneID.IsUnknown() && primary.ZoneID != "" {
		plan.ZoneID = types.StringValue(primary.ZoneID)
	}
	if plan.VSwitchID.IsUnknown() && primary.VSwitchID != "" {
		plan.VSwitchID = types.StringValue(primary.VSwitchID)
	}
	if plan.Engine.IsUnknown() && primary.Engine != "" {
		plan.Engine = types.StringValue(primary.Engine)
	}

	// A new read-only instance gets the primary's value if it is eligible itself; an ineligible
	// one cannot carry the flag.
	on := roPrimaryFlag(primary)
	problems, specKnown := newReadonlyEligibility(primary, plan)
	inherits := on && len(problems) == 0
	switch {
	case cfg.AtomicWrite16K.IsNull():
		if on && !specKnown {
			plan.AtomicWrite16K = types.BoolUnknown()
		} else {
			plan.AtomicWrite16K = types.BoolValue(inherits)
		}
	case cfg.AtomicWrite16K.IsUnknown(), !specKnown:
		// Checked at apply.
	case !cfg.AtomicWrite16K.ValueBool() && inherits:
		roAddProblems(diags, []rdsservice.Problem{readonlyOffProblem(label, master)})
	case cfg.AtomicWrite16K.ValueBool() && len(problems) > 0:
		roAddProblems(diags, problems)
	case cfg.AtomicWrite16K.ValueBool() && !on:
		prevent := isKnown(plan.PreventRestart) && plan.PreventRestart.ValueBool()
		roAddRestart(diags, path.Root("atomic_write_16k"), prevent, []rdsservice.Restart{readonlyToggleAfterCreate(label, master)})
	}
}

// newReadonlyEligibility applies rules 1-2 to a new read-only instance (bought now, so only engine,
// version and storage type matter). ok is false while an input is unknown.
func newReadonlyEligibility(primary *rdsapi.DBInstanceAttribute, plan *readonlyInstanceModel) ([]rdsservice.Problem, bool) {
	if !isKnown(plan.EngineVersion) || !isKnown(plan.StorageType) || !isKnown(plan.InstanceType) {
		return nil, false
	}
	return rdsservice.EligibleForNew(rdsservice.NewInstanceSpec{
		Engine:        primary.Engine,
		EngineVersion: plan.EngineVersion.ValueString(),
		StorageType:   plan.StorageType.ValueString(),
		Category:      primary.Category,
		InstanceClass: plan.InstanceType.ValueString(),
	}), true
}

// existingFromState describes the instance as the refreshed state has it.
func roExistingFromState(s *readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute) rdsservice.ExistingInstance {
	inst := rdsservice.ExistingInstance{
		ID:            s.ID.ValueString(),
		Engine:        s.Engine.ValueString(),
		EngineVersion: s.EngineVersion.ValueString(),
		StorageType:   s.StorageType.ValueString(),
		Category:      s.Category.ValueString(),
		InstanceClass: s.InstanceType.ValueString(),
		Storage:       s.Storage.ValueInt64(),
		Architecture:  s.InstructionSetArch.ValueString(),
		Supported:     s.AtomicWrite16KSupported.ValueBool(),
		Enabled:       s.AtomicWrite16K.ValueBool(),
		MasterID:      s.MasterInstanceID.ValueString(),
	}
	if t, err := rdsservice.ParseAPITime(s.CreationTime.ValueString()); err == nil {
		inst.CreationTime = t
	}
	if primary != nil {
		on := roPrimaryFlag(primary)
		inst.MasterEnabled = &on
	}
	return inst
}

// roSpecChange lists the planned class, storage type and storage changes ("" or 0 = unchanged or unknown).
func roSpecChange(plan, state *readonlyInstanceModel) rdsservice.SpecChange {
	var c rdsservice.SpecChange
	if isKnown(plan.InstanceType) && plan.InstanceType.ValueString() != state.InstanceType.ValueString() {
		c.InstanceClass = plan.InstanceType.ValueString()
	}
	if isKnown(plan.StorageType) && plan.StorageType.ValueString() != state.StorageType.ValueString() {
		c.StorageType = plan.StorageType.ValueString()
	}
	if isKnown(plan.Storage) && plan.Storage.ValueInt64() != state.Storage.ValueInt64() {
		c.Storage = plan.Storage.ValueInt64()
	}
	return c
}

// planUpdate keeps inherited values stable and announces restarts.
func (r *readonlyInstanceResource) planUpdate(_ context.Context, plan, cfg, state *readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) {
	// Unset: keep what the instance has (it follows the primary through the cloud, not through
	// Terraform), so a cascade from the primary never shows as a diff.
	if cfg.AtomicWrite16K.IsNull() {
		plan.AtomicWrite16K = state.AtomicWrite16K
	}
	current := roExistingFromState(state, primary)
	change := roSpecChange(plan, state)
	var wantFlag *bool
	if isKnown(plan.AtomicWrite16K) && plan.AtomicWrite16K.ValueBool() != state.AtomicWrite16K.ValueBool() {
		want := plan.AtomicWrite16K.ValueBool()
		wantFlag = &want
	}

	if wantFlag != nil && !*wantFlag && roPrimaryFlag(primary) {
		roAddProblems(diags, []rdsservice.Problem{readonlyOffProblem(readonlyLabel(state), state.MasterInstanceID.ValueString())})
		return
	}
	if isKnown(plan.AtomicWrite16K) && plan.AtomicWrite16K.ValueBool() && (wantFlag != nil || change != (rdsservice.SpecChange{})) {
		if problems := rdsservice.CheckToggle(current, true, change); len(problems) > 0 {
			roAddProblems(diags, problems)
			return
		}
	}

	reasons := rdsservice.SpecChangeRestarts(current, wantFlag, change)
	// The class decides the architecture, and class or storage type can change eligibility:
	// the cloud reports both after the change.
	if change.InstanceClass != "" {
		plan.InstructionSetArch = types.StringUnknown()
	}
	if change.InstanceClass != "" || change.StorageType != "" {
		plan.AtomicWrite16KSupported = types.BoolUnknown()
	}
	if len(reasons) == 0 {
		return
	}
	prevent := isKnown(plan.PreventRestart) && plan.PreventRestart.ValueBool()
	roAddRestart(diags, roRestartTrigger(plan, state, wantFlag), prevent, []rdsservice.Restart{{
		InstanceID: state.ID.ValueString(),
		Reasons:    reasons,
		Downtime:   rdsservice.ExpectedDowntime(state.Category.ValueString(), true),
	}})
}

// restartTrigger is the first attribute whose change restarts the instance.
func roRestartTrigger(plan, state *readonlyInstanceModel, wantFlag *bool) path.Path {
	switch {
	case wantFlag != nil:
		return path.Root("atomic_write_16k")
	case isKnown(plan.InstanceType) && plan.InstanceType.ValueString() != state.InstanceType.ValueString():
		return path.Root("instance_type")
	case isKnown(plan.StorageType) && plan.StorageType.ValueString() != state.StorageType.ValueString():
		return path.Root("storage_type")
	default:
		return path.Root("storage")
	}
}

// readonlyFromAttribute builds the state from the API's view of the instance; base supplies what
// the API does not hold (prevent_restart, timeouts).
func readonlyFromAttribute(attr *rdsapi.DBInstanceAttribute, base *readonlyInstanceModel, diags *diag.Diagnostics) readonlyInstanceModel {
	m := readonlyInstanceModel{
		ID:                 types.StringValue(attr.DBInstanceID),
		MasterInstanceID:   types.StringValue(attr.MasterInstanceID),
		EngineVersion:      types.StringValue(string(attr.EngineVersion)),
		InstanceType:       types.StringValue(attr.DBInstanceClass),
		Storage:            types.Int64Value(int64(attr.DBInstanceStorage)),
		StorageType:        types.StringValue(attr.DBInstanceStorageType),
		ZoneID:             types.StringValue(attr.ZoneID),
		VSwitchID:          types.StringValue(attr.VSwitchID),
		InstanceName:       types.StringValue(attr.DBInstanceDescription),
		DeletionProtection: types.BoolValue(bool(attr.DeletionProtection)),
		Status:             types.StringValue(attr.DBInstanceStatus),
		ConnectionString:   types.StringValue(attr.ConnectionString),
		Port:               attrPort(attr, diags),
		Engine:             types.StringValue(attr.Engine),
		Category:           types.StringValue(attr.Category),
		InstructionSetArch: attrArchitecture(attr),
		CreationTime:       types.StringValue(attr.CreationTime),
		PreventRestart:     types.BoolValue(false),
		Timeouts:           base.Timeouts,
	}
	m.AtomicWrite16K, m.AtomicWrite16KSupported = attrAtomicWrite(attr)
	if isKnown(base.PreventRestart) {
		m.PreventRestart = base.PreventRestart
	}
	return m
}

// nullUnknowns turns leftover unknowns into nulls so that a partial state never holds an unknown.
func roNullUnknowns(m *readonlyInstanceModel) {
	for _, s := range []*types.String{&m.EngineVersion, &m.StorageType, &m.ZoneID, &m.VSwitchID, &m.InstanceName,
		&m.Status, &m.ConnectionString, &m.Engine, &m.Category, &m.InstructionSetArch, &m.CreationTime} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.Port.IsUnknown() {
		m.Port = types.Int64Null()
	}
	for _, b := range []*types.Bool{&m.AtomicWrite16K, &m.AtomicWrite16KSupported, &m.DeletionProtection, &m.PreventRestart} {
		if b.IsUnknown() {
			*b = types.BoolNull()
		}
	}
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
	timeout, d := plan.Timeouts.Create(ctx, readonlyCreateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	master := plan.MasterInstanceID.ValueString()
	primary, err := r.data.API.DescribeDBInstanceAttribute(ctx, master)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("master_instance_id"), "Cannot read the primary instance",
			fmt.Sprintf("Reading primary %s before creating its read-only instance failed: %v", master, err))
		return
	}

	// Defaults the plan could not fill (the primary did not exist yet).
	fill := func(v *types.String, from string) {
		if !isKnown(*v) && from != "" {
			*v = types.StringValue(from)
		}
	}
	fill(&plan.EngineVersion, string(primary.EngineVersion))
	fill(&plan.StorageType, primary.DBInstanceStorageType)
	fill(&plan.ZoneID, primary.ZoneID)
	fill(&plan.VSwitchID, primary.VSwitchID)

	// The checks of ModifyPlan, again: the primary may not have existed at plan time, and the
	// messages must be the same.
	label := readonlyLabel(&plan)
	on := roPrimaryFlag(primary)
	problems, _ := newReadonlyEligibility(primary, &plan)
	inherits := on && len(problems) == 0
	toggle := false
	switch {
	case cfg.AtomicWrite16K.IsNull() && isKnown(plan.AtomicWrite16K) && plan.AtomicWrite16K.ValueBool() != inherits:
		resp.Diagnostics.AddAttributeError(path.Root("atomic_write_16k"), primaryChangedSummary,
			fmt.Sprintf("The plan showed atomic_write_16k = %t for %s, inherited from its primary %s, but it would now inherit %t "+
				"(the primary was changed after the plan, possibly earlier in this apply). Nothing was created. Run terraform apply "+
				"again so that the plan shows the inherited value; to change the primary and add read-only instances in one apply, "+
				"set atomic_write_16k = <primary resource>.atomic_write_16k on the read-only instance.",
				plan.AtomicWrite16K.ValueBool(), label, master, inherits))
		return
	case !isKnown(plan.AtomicWrite16K):
	case !plan.AtomicWrite16K.ValueBool() && inherits:
		roAddProblems(&resp.Diagnostics, []rdsservice.Problem{readonlyOffProblem(label, master)})
		return
	case plan.AtomicWrite16K.ValueBool() && len(problems) > 0:
		roAddProblems(&resp.Diagnostics, problems)
		return
	case plan.AtomicWrite16K.ValueBool() && !on:
		if plan.PreventRestart.ValueBool() {
			roAddRestart(&resp.Diagnostics, path.Root("atomic_write_16k"), true, []rdsservice.Restart{readonlyToggleAfterCreate(label, master)})
			return
		}
		toggle = true
	}

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
			fmt.Sprintf("CreateReadOnlyDBInstance for primary %s: %v", master, err))
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

	attr, err := r.data.Waiter.WaitRunning(ctx, id)
	if err != nil {
		resp.Diagnostics.AddError("Waiting for the read-only instance failed", err.Error())
		return
	}
	if toggle {
		want := true
		attr, err = rdsservice.ApplySpecChange(ctx, r.data.API, r.data.Waiter, id,
			&rdsapi.ModifyDBInstanceSpecRequest{OptimizedWrites: rdsapi.OptimizedWritesOn}, &want)
		if err != nil {
			resp.Diagnostics.AddError("Turning on 16K atomic write failed",
				fmt.Sprintf("Read-only instance %s was created; turning on 16K atomic write failed: %v", id, err))
			return
		}
	}
	attr, ok := r.converge(ctx, attr, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	state := readonlyFromAttribute(attr, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// converge sends what CreateReadOnlyDBInstance or ModifyDBInstanceSpec do not cover (name,
// deletion protection) when the instance differs from the plan, and returns the instance as
// finally read.
func (r *readonlyInstanceResource) converge(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan *readonlyInstanceModel, diags *diag.Diagnostics) (*rdsapi.DBInstanceAttribute, bool) {
	id := attr.DBInstanceID
	changed := false
	if isKnown(plan.InstanceName) && plan.InstanceName.ValueString() != attr.DBInstanceDescription {
		err := r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifyDBInstanceDescription(ctx, id, plan.InstanceName.ValueString())
		})
		if err != nil {
			diags.AddAttributeError(path.Root("instance_name"), "Setting the instance name failed", fmt.Sprintf("Instance %s: %v", id, err))
			return nil, false
		}
		changed = true
	}
	if isKnown(plan.DeletionProtection) && plan.DeletionProtection.ValueBool() != bool(attr.DeletionProtection) {
		err := r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifyDBInstanceDeletionProtection(ctx, id, plan.DeletionProtection.ValueBool())
		})
		if err != nil {
			diags.AddAttributeError(path.Root("deletion_protection"), "Setting deletion protection failed", fmt.Sprintf("Instance %s: %v", id, err))
			return nil, false
		}
		changed = true
	}
	if !changed {
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
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
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
		resp.Diagnostics.AddError("Not a read-only instance",
			fmt.Sprintf("Instance %s has no primary (DBInstanceType %q). Manage a primary with rds_instance instead of rds_readonly_instance.", id, attr.DBInstanceType))
		return
	}
	state := readonlyFromAttribute(attr, &prior, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
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
	timeout, d := plan.Timeouts.Update(ctx, readonlyUpdateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := state.ID.ValueString()

	change := roSpecChange(&plan, &state)
	var wantFlag *bool
	if isKnown(plan.AtomicWrite16K) && plan.AtomicWrite16K.ValueBool() != state.AtomicWrite16K.ValueBool() {
		want := plan.AtomicWrite16K.ValueBool()
		wantFlag = &want
	}
	restart := wantFlag != nil || change != (rdsservice.SpecChange{})
	if restart {
		// Plan-time checks again, for values that were unknown then.
		if wantFlag != nil && !*wantFlag {
			primary, err := r.data.API.DescribeDBInstanceAttribute(ctx, state.MasterInstanceID.ValueString())
			if err != nil && !rdsapi.IsNotFound(err) {
				resp.Diagnostics.AddError("Cannot read the primary instance", fmt.Sprintf("Primary %s: %v", state.MasterInstanceID.ValueString(), err))
				return
			}
			if roPrimaryFlag(primary) {
				roAddProblems(&resp.Diagnostics, []rdsservice.Problem{readonlyOffProblem(readonlyLabel(&state), state.MasterInstanceID.ValueString())})
				return
			}
		}
		if plan.PreventRestart.ValueBool() {
			resp.Diagnostics.AddAttributeError(roRestartTrigger(&plan, &state, wantFlag), "prevent_restart: this apply would restart read-only instance "+id,
				"prevent_restart = true refuses changes that restart the instance. Set prevent_restart = false to allow the restart, or undo the change.")
			return
		}
		spec := &rdsapi.ModifyDBInstanceSpecRequest{
			DBInstanceClass:   plan.InstanceType.ValueString(),
			DBInstanceStorage: plan.Storage.ValueInt64(),
			PayType:           rdsapi.PayTypePostpaid,
		}
		if change.StorageType != "" {
			spec.DBInstanceStorageType = change.StorageType
		}
		if wantFlag != nil {
			spec.OptimizedWrites = rdsapi.OptimizedWritesOff
			if *wantFlag {
				spec.OptimizedWrites = rdsapi.OptimizedWritesOn
			}
		}
		if _, err := rdsservice.ApplySpecChange(ctx, r.data.API, r.data.Waiter, id, spec, wantFlag); err != nil {
			resp.Diagnostics.AddError("Changing the read-only instance failed", fmt.Sprintf("Instance %s: %v", id, err))
			return
		}
	}

	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		resp.Diagnostics.AddError("Reading the read-only instance failed", fmt.Sprintf("Instance %s: %v", id, err))
		return
	}
	attr, ok := r.converge(ctx, attr, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	newState := readonlyFromAttribute(attr, &plan, &resp.Diagnostics)
	// Left unset, the flag follows the primary through the cloud. If the primary was turned on
	// earlier in this same apply, the instance may already show the cascade: keep the planned
	// value so Terraform sees the result it was promised; the next refresh records the real one
	// without a diff (the attribute is unset in the configuration).
	if cfg.AtomicWrite16K.IsNull() && isKnown(plan.AtomicWrite16K) && plan.AtomicWrite16K.ValueBool() != newState.AtomicWrite16K.ValueBool() {
		tflog.Info(ctx, "atomic_write_16k changed through the primary during this apply", map[string]any{"id": id, "now": newState.AtomicWrite16K.ValueBool()})
		newState.AtomicWrite16K = plan.AtomicWrite16K
	}
	// The status is whatever the cloud says now; the plan left it unknown.
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
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
	timeout, d := state.Timeouts.Delete(ctx, readonlyDeleteTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := state.ID.ValueString()

	deleteAndWait(ctx, r.data, id, &resp.Diagnostics)
}

func (r *readonlyInstanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
