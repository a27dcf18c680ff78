package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewParameterGroupsDataSource returns the rds_parameter_groups data source.
func NewParameterGroupsDataSource() datasource.DataSource {
	return &parameterGroupsDataSource{dataSourceBase{typeName: "rds_parameter_groups"}}
}

// parameterGroupsDataSource lists the region's parameter groups: one DescribeParameterGroups call
// with EnableDetail.
type parameterGroupsDataSource struct {
	dataSourceBase
}

type parameterGroupsModel struct {
	NameRegex       types.String `tfsdk:"name_regex"`
	ResourceGroupID types.String `tfsdk:"resource_group_id"`
	IDs             types.List   `tfsdk:"ids"`
	Groups          types.List   `tfsdk:"groups"`
}

var parameterGroupAttrTypes = map[string]attr.Type{
	"id": types.StringType, "name": types.StringType, "description": types.StringType, "engine": types.StringType,
	"engine_version": types.StringType, "restarts": types.BoolType, "parameters": types.MapType{ElemType: types.StringType},
}

func (d *parameterGroupsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the region's parameter groups (`rds_parameter_group`) with their parameters: one " +
			"`DescribeParameterGroups` call. A name identifies one group (names are unique in a region).",
		Attributes: map[string]schema.Attribute{
			"name_regex": schema.StringAttribute{Optional: true, Validators: []validator.String{regexValidator{}},
				MarkdownDescription: "Regular expression (RE2) the group's name must match."},
			"resource_group_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Only groups of this resource group."},
			"ids":               schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The ids of the groups found, oldest first."},
			"groups": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The groups found, oldest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true, MarkdownDescription: "Id (`rpg-...`), the `parameter_group_id` of an instance."},
					"name":           schema.StringAttribute{Computed: true, MarkdownDescription: "Name."},
					"description":    schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
					"engine":         schema.StringAttribute{Computed: true, MarkdownDescription: "Engine (`MySQL`)."},
					"engine_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Major version the group is for."},
					"restarts":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether applying the group restarts an instance."},
					"parameters": schema.MapAttribute{Computed: true, ElementType: types.StringType,
						MarkdownDescription: "The group's parameters, name to value."},
				}}},
		},
	}
}

func (d *parameterGroupsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m parameterGroupsModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	nameRE := compileNameRegex(m.NameRegex, &resp.Diagnostics)
	groups, err := d.data.API.DescribeParameterGroups(ctx, &rdsapi.DescribeParameterGroupsRequest{RegionID: d.data.Region,
		ResourceGroupID: m.ResourceGroupID.ValueString(), EnableDetail: true})
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS parameter groups", "DescribeParameterGroups: "+err.Error())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m.IDs, m.Groups = parameterGroupValues(matchingGroups(groups, nameRE), &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// matchingGroups are the groups whose name matches nameRE (all without one).
func matchingGroups(groups []rdsapi.ParameterGroup, nameRE *regexp.Regexp) []rdsapi.ParameterGroup {
	var out []rdsapi.ParameterGroup
	for _, g := range groups {
		if nameRE == nil || nameRE.MatchString(g.Name) {
			out = append(out, g)
		}
	}
	return out
}

func parameterGroupValues(groups []rdsapi.ParameterGroup, diags *diag.Diagnostics) (types.List, types.List) {
	ids := make([]attr.Value, 0, len(groups))
	items := make([]attr.Value, 0, len(groups))
	for _, g := range groups {
		spec := rdsservice.ParameterGroupFromAPI(&g)
		obj, d := types.ObjectValue(parameterGroupAttrTypes, map[string]attr.Value{
			"id": types.StringValue(g.ID), "name": types.StringValue(spec.Name), "description": types.StringValue(spec.Description),
			"engine": types.StringValue(spec.Engine), "engine_version": types.StringValue(spec.EngineVersion),
			"restarts": types.BoolValue(g.ForceRestart), "parameters": stringMapValue(spec.Parameters, diags),
		})
		diags.Append(d...)
		ids, items = append(ids, types.StringValue(g.ID)), append(items, obj)
	}
	idList, d := types.ListValue(types.StringType, ids)
	diags.Append(d...)
	groupList, d := types.ListValue(types.ObjectType{AttrTypes: parameterGroupAttrTypes}, items)
	diags.Append(d...)
	return idList, groupList
}
