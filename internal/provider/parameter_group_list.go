package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// groupLister is rds_parameter_group's list resource (terraform query): the region's groups, one
// DescribeParameterGroups call, with the rds_parameter_groups data source's filters.
type groupLister struct {
	data *ProviderData
}

type groupFilter struct {
	NameRegex       types.String `tfsdk:"name_regex"`
	ResourceGroupID types.String `tfsdk:"resource_group_id"`
}

func (l *groupLister) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = parameterGroupKind
}

func (l *groupLister) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the region's parameter groups (`DescribeParameterGroups`) for `terraform query`.",
		Attributes: map[string]listschema.Attribute{
			"name_regex": listschema.StringAttribute{Optional: true, Validators: []validator.String{regexValidator{}},
				MarkdownDescription: "Regular expression (RE2) the group's name must match."},
			"resource_group_id": listschema.StringAttribute{Optional: true, MarkdownDescription: "Only groups of this resource group."},
		},
	}
}

func (l *groupLister) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, "list "+parameterGroupKind, &resp.Diagnostics)
}

func (l *groupLister) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var f groupFilter
	if diags.Append(req.Config.Get(ctx, &f)...); diags.HasError() || !requireConfigured(l.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	nameRE := compileNameRegex(f.NameRegex, &diags)
	groups, err := l.data.API.DescribeParameterGroups(ctx, &rdsapi.DescribeParameterGroupsRequest{RegionID: l.data.Region,
		ResourceGroupID: f.ResourceGroupID.ValueString()})
	if err != nil {
		diags.AddError("Error listing RDS parameter groups", "DescribeParameterGroups: "+err.Error())
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var items []listedItem
	for _, g := range matchingGroups(groups, nameRE) {
		items = append(items, listedItem{importID: g.ID, display: g.ID + " (" + g.Name + ")", identity: []string{g.ID}})
	}
	stream.Results = listResults(ctx, req, l.data, parameterGroupKind, items)
}
