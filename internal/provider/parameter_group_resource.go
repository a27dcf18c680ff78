package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewParameterGroupResource returns the rds_parameter_group resource.
func NewParameterGroupResource() resource.Resource {
	return &parameterGroupResource{resourceBase{typeName: parameterGroupKind}}
}

// parameterGroupResource is an adapter: the rules, the decision and the program are
// rdsservice's (parameter_group.go, parameter_group_program.go).
type parameterGroupResource struct {
	resourceBase
}

// parameterGroupModel is rds_parameter_group's state.
type parameterGroupModel struct {
	ID              types.String `tfsdk:"id"`
	Name            types.String `tfsdk:"name"`
	Description     types.String `tfsdk:"description"`
	Engine          types.String `tfsdk:"engine"`
	EngineVersion   types.String `tfsdk:"engine_version"`
	Parameters      types.Map    `tfsdk:"parameters"`
	ResourceGroupID types.String `tfsdk:"resource_group_id"`
	Restarts        types.Bool   `tfsdk:"restarts"`
}

func (r *parameterGroupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	replace := func(attribute string) []planmodifier.String { return requiresReplace("rds_parameter_group", attribute) }
	resp.Schema = schema.Schema{
		MarkdownDescription: "A parameter group (Alibaba's parameter template): MySQL parameter values kept in the cloud and applied to " +
			"instances with `parameter_group_id`. The group holds exactly `parameters`: changes are sent with " +
			"`ModifyParameterGroup` and `ModifyMode = Individual`, so a parameter removed from the configuration is removed from the " +
			"group. Every name and value is checked at plan against the engine version's template, with the same messages as an " +
			"instance's `parameters`; `restarts` says whether applying the group restarts an instance.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The group's id (`rpg-...`).", PlanModifiers: keep},
			rdsservice.AttrName: schema.StringAttribute{Required: true,
				MarkdownDescription: "The group's name: 8 to 64 letters, digits, periods and underscores, starting with a letter."},
			rdsservice.AttrDescription: schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep,
				MarkdownDescription: "The group's description. Removing it keeps the current one."},
			rdsservice.AttrEngine: schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsservice.EngineMySQL),
				PlanModifiers: replace(rdsservice.AttrEngine), MarkdownDescription: "The engine: `MySQL` (the default). Changing it replaces the group."},
			rdsservice.AttrEngineVersion: schema.StringAttribute{Required: true, PlanModifiers: replace(rdsservice.AttrEngineVersion),
				MarkdownDescription: "The MySQL major version the group is for (`5.7`, `8.0`); it applies only to instances of that version. Changing it replaces the group."},
			rdsservice.AttrParameters: schema.MapAttribute{Required: true, ElementType: types.StringType,
				MarkdownDescription: "The parameters, name to value, as strings as the API takes them. The group holds exactly these: " +
					"removing a key removes the parameter from the group. `innodb_doublewrite` cannot be in a group (it follows each " +
					"instance's `atomic_write_16k`)."},
			"resource_group_id": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: append(keep, replace("resource_group_id")...),
				MarkdownDescription: "The resource group the parameter group is created in; changing it replaces the group."},
			"restarts": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether applying the group restarts an instance: true when one of its parameters takes effect only after a restart."},
		},
	}
}

// request is the model as rdsservice reads it; the template is fetched when engine and version
// are known (a failed read is a problem of the plan).
func (r *parameterGroupResource) request(ctx context.Context, m parameterGroupModel, diags *diag.Diagnostics) rdsservice.ParameterGroupRequest {
	desired := rdsservice.DesiredParametersOf(serviceValue(ctx, m.Parameters))
	req := rdsservice.ParameterGroupRequest{ID: m.ID.ValueString(), RegionID: r.data.Region, NameKnown: !m.Name.IsUnknown(),
		UnknownNames: desired.UnknownValues, Desired: rdsservice.ParameterGroupSpec{Name: m.Name.ValueString(), Description: m.Description.ValueString(),
			Engine: m.Engine.ValueString(), EngineVersion: m.EngineVersion.ValueString(), ResourceGroupID: m.ResourceGroupID.ValueString(), Parameters: desired.Values}}
	if !isKnown(m.Engine) || !isKnown(m.EngineVersion) || req.Desired.Engine != rdsservice.EngineMySQL {
		return req
	}
	t, err := r.data.parameterTemplates.Template(ctx, r.data.API, rdsapi.DescribeParameterTemplatesRequest{
		RegionID: r.data.Region, Engine: req.Desired.Engine, EngineVersion: req.Desired.EngineVersion})
	if err != nil {
		call := fmt.Sprintf("DescribeParameterTemplates %s %s", req.Desired.Engine, req.Desired.EngineVersion)
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleParamFactsUnreadable, call, call, err.Error())})
	}
	req.Template = t
	return req
}

// ModifyPlan checks the group against the template, every refusal of the plan at once (there is
// no ValidateConfig, so that the name and the parameters are refused together), nothing sent; and
// plans `restarts`.
func (r *parameterGroupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var m parameterGroupModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() || m.Parameters.IsUnknown() {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	rq := r.request(lookupCtx, m, &resp.Diagnostics)
	decided := rdsservice.PlanParameterGroup(rq, nil)
	decided.Problems = append(decided.Problems, r.groupNameProblems(lookupCtx, req, m)...) // G7, G8: parameter_group_names.go
	if addProblems(&resp.Diagnostics, decided.Problems); resp.Diagnostics.HasError() {
		return
	}
	r.data.recordPlannedGroup(ctx, req, m, rq.UnknownNames, &resp.Diagnostics)
	m.Restarts = types.BoolUnknown()
	if len(rq.Template.Parameters) > 0 && len(rq.UnknownNames) == 0 {
		m.Restarts = types.BoolValue(len(decided.Restarts) > 0)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, m)...)
}

// Create records the create in the journal first, and adopts the group a killed create of this
// configuration made (G8, parameter_group_names.go).
func (r *parameterGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan parameterGroupModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	adopted, claim, ok := r.claimGroupCreate(ctx, plan, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	r.apply(ctx, req.Plan.Get, adopted, &resp.State, &resp.Diagnostics)
	var id types.String
	resp.State.GetAttribute(ctx, path.Root("id"), &id)
	if isKnown(id) {
		claim.accepted(id.ValueString())
	}
	claim.done(isKnown(id))
}

func (r *parameterGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var state parameterGroupModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, req.Plan.Get, &state, &resp.State, &resp.Diagnostics)
}

// apply decides again from the group as the cloud has it (nil state: a create), runs the program
// with the one executor and stores the group as read back.
func (r *parameterGroupResource) apply(ctx context.Context, getPlan func(context.Context, any) diag.Diagnostics, state *parameterGroupModel, out stateSetter, diags *diag.Diagnostics) {
	var plan parameterGroupModel
	if diags.Append(getPlan(ctx, &plan)...); diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	var current *rdsservice.ParameterGroupSpec
	if state != nil {
		plan.ID = state.ID
		g, err := r.data.API.DescribeParameterGroup(ctx, state.ID.ValueString())
		if err != nil {
			diags.AddError("Error reading the RDS parameter group", fmt.Sprintf("DescribeParameterGroup %s: %v", state.ID.ValueString(), err))
			return
		}
		spec := rdsservice.ParameterGroupFromAPI(g)
		current = &spec
	}
	decided := rdsservice.PlanParameterGroup(r.request(ctx, plan, diags), current)
	if addProblems(diags, decided.Problems); diags.HasError() {
		return
	}
	result := rdsservice.ExecuteParameterGroup(ctx, r.data.API, r.data.Waiter, decided)
	if result.ID != "" {
		plan.ID = types.StringValue(result.ID)
	}
	if result.Err != nil {
		diags.AddError("Error applying the RDS parameter group", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
		if result.ID != "" {
			diags.Append(out.Set(ctx, plan)...) // the group exists: the next plan sees it
		}
		return
	}
	if r.readInto(ctx, &plan, diags) {
		diags.Append(out.Set(ctx, plan)...)
	}
}

// readInto reads the group into m (false when it failed or the group is gone): the configured
// spelling of a value the cloud spells differently is kept.
func (r *parameterGroupResource) readInto(ctx context.Context, m *parameterGroupModel, diags *diag.Diagnostics) bool {
	g, err := r.data.API.DescribeParameterGroup(ctx, m.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading the RDS parameter group", fmt.Sprintf("DescribeParameterGroup %s: %v", m.ID.ValueString(), err))
		return false
	}
	fillParameterGroup(ctx, m, g, diags)
	return true
}

// fillParameterGroup sets m from the group as read.
func fillParameterGroup(ctx context.Context, m *parameterGroupModel, g *rdsapi.ParameterGroup, diags *diag.Diagnostics) {
	spec := rdsservice.ParameterGroupFromAPI(g)
	configured := stringMap(ctx, m.Parameters, diags)
	for name, v := range spec.Parameters {
		if old, ok := configured[name]; ok && strings.EqualFold(strings.TrimSpace(old), strings.TrimSpace(v)) {
			spec.Parameters[name] = old
		}
	}
	m.Name, m.Description = types.StringValue(spec.Name), types.StringValue(spec.Description)
	m.Engine, m.EngineVersion = types.StringValue(spec.Engine), types.StringValue(spec.EngineVersion)
	m.Parameters, m.Restarts = stringMapValue(spec.Parameters, diags), types.BoolValue(g.ForceRestart)
	if m.ResourceGroupID.IsNull() || m.ResourceGroupID.IsUnknown() {
		m.ResourceGroupID = types.StringValue("")
	}
}

func (r *parameterGroupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m parameterGroupModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	r.data.Journal.Recorded(m.ID.ValueString()) // in a state: no longer an interrupted create's
	g, err := r.data.API.DescribeParameterGroup(ctx, m.ID.ValueString())
	switch {
	case rdsapi.IsParameterGroupNotFound(err):
		resp.Diagnostics.AddWarning("RDS parameter group no longer exists", fmt.Sprintf("Parameter group %s was not found; it is removed from state.", m.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Error reading the RDS parameter group", fmt.Sprintf("DescribeParameterGroup %s: %v", m.ID.ValueString(), err))
		return
	}
	fillParameterGroup(ctx, &m, g, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *parameterGroupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m parameterGroupModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	decided := rdsservice.PlanParameterGroup(rdsservice.ParameterGroupRequest{ID: m.ID.ValueString(), RegionID: r.data.Region, Delete: true,
		Desired: rdsservice.ParameterGroupSpec{Name: m.Name.ValueString()}}, nil)
	if result := rdsservice.ExecuteParameterGroup(ctx, r.data.API, r.data.Waiter, decided); result.Err != nil {
		resp.Diagnostics.AddError("Error deleting the RDS parameter group", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
	}
}

// ImportState imports by group id; the read fills the rest.
func (r *parameterGroupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
