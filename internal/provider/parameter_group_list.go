package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

type groupFilter struct {
	NameRegex       types.String `tfsdk:"name_regex"`
	ResourceGroupID types.String `tfsdk:"resource_group_id"`
}

// newGroupLister is rds_parameter_group's list resource (terraform query): the region's groups,
// one DescribeParameterGroups call, with the rds_parameter_groups data source's filters.
func newGroupLister() list.ListResource {
	return &lister[groupFilter]{typeName: parameterGroupKind, schema: listschema.Schema{
		MarkdownDescription: "Finds the region's parameter groups (`DescribeParameterGroups`) for `terraform query`.",
		Attributes: map[string]listschema.Attribute{
			"name_regex": listschema.StringAttribute{Optional: true, Validators: []validator.String{regexValidator{}},
				MarkdownDescription: "Regular expression (RE2) the group's name must match."},
			"resource_group_id": listschema.StringAttribute{Optional: true, MarkdownDescription: "Only groups of this resource group."},
		},
	}, items: func(ctx context.Context, data *ProviderData, f groupFilter, diags *diag.Diagnostics) []listedItem {
		nameRE := compileNameRegex(f.NameRegex, diags)
		groups, err := data.API.DescribeParameterGroups(ctx, &rdsapi.DescribeParameterGroupsRequest{RegionID: data.Region,
			ResourceGroupID: f.ResourceGroupID.ValueString()})
		if err != nil {
			diags.AddError("Error listing RDS parameter groups", "DescribeParameterGroups: "+err.Error())
		}
		var items []listedItem
		for _, g := range matchingGroups(groups, nameRE) {
			items = append(items, listedItem{importID: g.ID, display: g.ID + " (" + g.Name + ")", identity: []string{g.ID}})
		}
		return items
	}}
}
