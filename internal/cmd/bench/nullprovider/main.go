// Command nullprovider is the floor of figure 3 of the benchmark: a terraform-plugin-framework
// provider (registry.terraform.io/openrds/benchnull) whose one resource, benchnull_thing, has two
// attributes and does no work at all. Planning 200 of them shows what Terraform's plugin protocol
// and the framework cost before any provider code runs. It is built and used only by `make bench`.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type nullProvider struct{}

func (nullProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "benchnull"
}

func (nullProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{}
}

func (nullProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (nullProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return thing{} }}
}

func (nullProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type thing struct{}

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
}

func (thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "benchnull_thing"
}

func (thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true},
		"input": schema.StringAttribute{Optional: true},
	}}
}

func (thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Read decodes and re-encodes the state, the least any real Read does.
func (thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (thing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return nullProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/openrds/benchnull", ProtocolVersion: 6})
	if err != nil {
		log.Fatal(err)
	}
}
