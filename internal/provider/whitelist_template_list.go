package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// templateLister is the list resource of rds_whitelist_template: the account's templates
// (DescribeAllWhitelistTemplate, 100 a page), for `terraform query`.
type templateLister struct {
	data *ProviderData
}

type templateFilter struct {
	Name types.String `tfsdk:"name"`
}

func (l *templateLister) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "rds_whitelist_template"
}

func (l *templateLister) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the account's whitelist templates (`DescribeAllWhitelistTemplate`, 100 a page), for `terraform query`.",
		Attributes: map[string]listschema.Attribute{
			"name": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Only templates whose name contains this text (`FuzzySearch`)."},
		},
	}
}

func (l *templateLister) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, "list rds_whitelist_template", &resp.Diagnostics)
}

func (l *templateLister) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var f templateFilter
	if diags.Append(req.Config.Get(ctx, &f)...); diags.HasError() || !requireConfigured(l.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	found, err := rdsapi.ListWhitelistTemplates(ctx, l.data.API, f.Name.ValueString(), true)
	if err != nil {
		diags.AddError("Error listing RDS whitelist templates", err.Error())
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	items := make([]listedItem, len(found))
	for i, t := range found {
		id := strconv.FormatInt(int64(t.TemplateID), 10)
		items[i] = listedItem{importID: id, display: id + " (" + t.TemplateName + ")", identity: []string{id}}
	}
	stream.Results = listResults(ctx, req, l.data, "rds_whitelist_template", items)
}
