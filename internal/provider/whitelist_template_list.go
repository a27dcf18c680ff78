package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

type templateFilter struct {
	Name types.String `tfsdk:"name"`
}

// newTemplateLister is the list resource of rds_whitelist_template: the account's templates
// (DescribeAllWhitelistTemplate, 100 a page), for `terraform query`.
func newTemplateLister() list.ListResource {
	return &lister[templateFilter]{typeName: "rds_whitelist_template", schema: listschema.Schema{
		MarkdownDescription: "Finds the account's whitelist templates (`DescribeAllWhitelistTemplate`, 100 a page), for `terraform query`.",
		Attributes: map[string]listschema.Attribute{
			"name": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Only templates whose name contains this text (`FuzzySearch`)."},
		},
	}, items: func(ctx context.Context, data *ProviderData, f templateFilter, diags *diag.Diagnostics) []listedItem {
		found, err := rdsapi.ListWhitelistTemplates(ctx, data.API, f.Name.ValueString(), true)
		if err != nil {
			diags.AddError("Error listing RDS whitelist templates", err.Error())
			return nil
		}
		items := make([]listedItem, len(found))
		for i, t := range found {
			id := strconv.FormatInt(int64(t.TemplateID), 10)
			items[i] = listedItem{importID: id, display: id + " (" + t.TemplateName + ")", identity: []string{id}}
		}
		return items
	}}
}
