package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_whitelist_template (issue 42 §2): an account-wide IP list that instances link with
// whitelist_template_ids. The rules and calls are rdsservice's (whitelist_template.go).

// NewWhitelistTemplateResource returns the rds_whitelist_template resource.
func NewWhitelistTemplateResource() resource.Resource {
	return &whitelistTemplateResource{resourceBase{typeName: "rds_whitelist_template"}}
}

type whitelistTemplateResource struct {
	resourceBase
}

type whitelistTemplateModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	IPWhitelist types.Set    `tfsdk:"ip_whitelist"`
}

func (r *whitelistTemplateResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A whitelist template: an IP allow-list of the account that instances link with `whitelist_template_ids` " +
			"(`ModifyWhitelistTemplate`). A linked template's entries admit clients like the instance's own lists and count against " +
			"its 1,000 entries. A change reaches every linked instance within about a minute; deleting the template unlinks it " +
			"everywhere. The name is unique in the account, checked at plan.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Template id (`TemplateId`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true, MarkdownDescription: "Template name (`TemplateName`), unique in the account."},
			"ip_whitelist": schema.SetAttribute{Required: true, ElementType: types.StringType,
				MarkdownDescription: "IPv4 addresses and CIDR blocks (`IpWhitelist`), at least one."},
		},
	}
}

// spec is the model's template; ok is false while a value is known only at apply.
func (m whitelistTemplateModel) spec(ctx context.Context, diags *diag.Diagnostics) (rdsservice.WhitelistTemplateSpec, bool) {
	if !isKnown(m.Name) || !isKnown(m.IPWhitelist) {
		return rdsservice.WhitelistTemplateSpec{}, false
	}
	for _, e := range m.IPWhitelist.Elements() {
		if !isKnownValue(e) {
			return rdsservice.WhitelistTemplateSpec{}, false
		}
	}
	return rdsservice.WhitelistTemplateSpec{Name: m.Name.ValueString(), IPs: setStrings(ctx, m.IPWhitelist, diags)}, true
}

func (m whitelistTemplateModel) templateID() int64 {
	n, _ := strconv.ParseInt(m.ID.ValueString(), 10, 64)
	return n
}

// problems checks the template against the account's templates of the same name (one
// DescribeAllWhitelistTemplate): every refusal at once.
func (r *whitelistTemplateResource) problems(ctx context.Context, m whitelistTemplateModel, diags *diag.Diagnostics) []rdsservice.Problem {
	spec, known := m.spec(ctx, diags)
	if !known {
		return nil
	}
	same, err := rdsapi.ListWhitelistTemplates(ctx, r.data.API, spec.Name, false)
	if err != nil {
		diags.AddError("Cannot check the whitelist template's name", fmt.Sprintf("DescribeAllWhitelistTemplate %q: %v", spec.Name, err))
	}
	return rdsservice.WhitelistTemplateProblems(spec, m.templateID(), same)
}

func (r *whitelistTemplateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var m whitelistTemplateModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	addProblems(&resp.Diagnostics, r.problems(lookupCtx, m, &resp.Diagnostics))
}

func (r *whitelistTemplateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
}

func (r *whitelistTemplateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
}

// apply checks the template again with its known values, then creates or changes it.
func (r *whitelistTemplateResource) apply(ctx context.Context, getPlan func(context.Context, any) diag.Diagnostics, out stateSetter, diags *diag.Diagnostics) {
	var m whitelistTemplateModel
	if diags.Append(getPlan(ctx, &m)...); diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	if addProblems(diags, r.problems(ctx, m, diags)); diags.HasError() {
		return
	}
	spec, _ := m.spec(ctx, diags)
	id, err := rdsservice.ApplyWhitelistTemplate(ctx, r.data.API, r.data.Waiter, m.templateID(), spec)
	if id != 0 {
		m.ID = types.StringValue(strconv.FormatInt(id, 10))
	}
	if err != nil {
		diags.AddError("Error applying the RDS whitelist template", rdsservice.OperationError(ctx, err))
		if id == 0 {
			return
		}
	}
	diags.Append(out.Set(ctx, m)...)
}

func (r *whitelistTemplateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m whitelistTemplateModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	t, err := r.data.API.DescribeWhitelistTemplate(ctx, m.templateID())
	switch {
	case rdsapi.IsTemplateNotFound(err):
		resp.Diagnostics.AddWarning("RDS whitelist template no longer exists", fmt.Sprintf("Whitelist template %s was not found; it is removed from state.", m.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Error reading the RDS whitelist template", fmt.Sprintf("DescribeWhitelistTemplate %s: %v", m.ID.ValueString(), err))
		return
	}
	m.Name, m.IPWhitelist = types.StringValue(t.TemplateName), stringSetValue(rdsservice.SplitList(t.Ips), &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *whitelistTemplateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m whitelistTemplateModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	err := rdsservice.DeleteWhitelistTemplate(ctx, r.data.API, r.data.Waiter, m.templateID(), m.Name.ValueString())
	if err != nil && !rdsapi.IsTemplateNotFound(err) {
		resp.Diagnostics.AddError("Error deleting the RDS whitelist template", fmt.Sprintf("ModifyWhitelistTemplate %s: %s", m.ID.ValueString(), rdsservice.OperationError(ctx, err)))
	}
}

// ImportState imports by template id; the read fills the rest.
func (r *whitelistTemplateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
