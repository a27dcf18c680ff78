package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// resourceBase is what a resource embeds: its type name ("rds_backup"), which Metadata answers,
// and the provider's data, which Configure sets.
type resourceBase struct {
	typeName string
	data     *ProviderData
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(b.typeName, "rds")
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, b.typeName, &resp.Diagnostics)
}

// dataSourceBase is resourceBase for a data source.
type dataSourceBase struct {
	typeName string
	data     *ProviderData
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(b.typeName, "rds")
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, "data source "+b.typeName, &resp.Diagnostics)
}
