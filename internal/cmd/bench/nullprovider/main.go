// Command nullprovider gives figure 3 of the benchmark its floors: a terraform-plugin-framework
// provider (registry.terraform.io/openrds/benchnull) that does no work at all. benchnull_thing has
// two attributes: planning 200 of them shows what Terraform's plugin protocol and the framework
// cost before any provider code runs. benchnull_instance has rds_instance's schema (validators and
// plan modifiers included): the framework's cost of that schema, without the provider's own code
// or any API call. It is built and used only by `make bench`.
package main

import (
	"context"
	"flag"
	"log"

	"fmt"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/memlimit"
	rds "github.com/openrds/terraform-provider-rds/internal/provider"
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
	return []func() resource.Resource{
		func() resource.Resource { return thing{} },
		func() resource.Resource { return &sameSchema{} },
	}
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

// sameSchema is a do-nothing resource with rds_instance's schema.
type sameSchema struct{ created atomic.Int64 }

func (*sameSchema) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "benchnull_instance"
}

func (*sameSchema) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	rds.NewInstanceResource().Schema(ctx, req, resp)
}

// Create stores the plan with its unknown (computed) values as nulls, and an id.
func (s *sameSchema) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	raw, err := tftypes.Transform(req.Plan.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		resp.Diagnostics.AddError("benchnull_instance", err.Error())
		return
	}
	resp.State.Raw = raw
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), fmt.Sprintf("null-%d", s.created.Add(1)))...)
}

// Read keeps the state as it is (the framework hands it back unchanged).
func (*sameSchema) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (*sameSchema) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (*sameSchema) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func main() {
	// The same memory pacing as the rds provider, so the floors differ from it only in the work done.
	memlimit.Start()
	// -debug, as the rds provider has, lets the bench measure the floor's own peak RSS.
	debug := flag.Bool("debug", false, "serve in debug mode (the bench attaches Terraform itself)")
	flag.Parse()
	// Quiet like the rds provider, so the floors differ from it only in the work done.
	rds.QuietSDKLogsUnlessAsked()
	err := providerserver.Serve(context.Background(), func() provider.Provider { return nullProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/openrds/benchnull", ProtocolVersion: 6, Debug: *debug})
	if err != nil {
		log.Fatal(err)
	}
}
