package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// proxyLister is the list resource of rds_db_proxy (the started proxies) or rds_db_proxy_endpoint
// (their further endpoints), of one primary or of every primary of the region.
type proxyLister struct {
	data     *ProviderData
	typeName string
}

type proxyFilter struct {
	InstanceID types.String `tfsdk:"instance_id"`
}

func (l *proxyLister) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.typeName
}

func (l *proxyLister) what() string {
	if l.typeName == proxyKind {
		return "started database proxies"
	}
	return "further database proxy endpoints (not the default ones)"
}

func (l *proxyLister) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds the %s of one primary instance, or of every primary instance in the region "+
			"(listed 100 a page, then `DescribeDBProxy` each), for `terraform query`.", l.what()),
		Attributes: map[string]listschema.Attribute{
			"instance_id": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "The primary instance whose proxy to look at; every primary instance of the region when unset."},
		},
	}
}

func (l *proxyLister) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, "list "+l.typeName, &resp.Diagnostics)
}

func (l *proxyLister) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var f proxyFilter
	if diags.Append(req.Config.Get(ctx, &f)...); diags.HasError() || !requireConfigured(l.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	instances := []string{f.InstanceID.ValueString()}
	if !isKnown(f.InstanceID) {
		instances = nil
		for _, it := range listFleet(ctx, l.data, instanceFilter{}, "Primary", &diags) {
			instances = append(instances, it.DBInstanceID)
		}
	}
	var items []listedItem
	for _, id := range instances {
		if diags.HasError() {
			break
		}
		items = append(items, l.itemsOf(ctx, id, &diags)...)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, l.data, l.typeName, items)
}

// itemsOf lists the proxy of instanceID, or its endpoints other than the default one.
func (l *proxyLister) itemsOf(ctx context.Context, instanceID string, diags *diag.Diagnostics) []listedItem {
	px, err := l.data.API.DescribeDBProxy(ctx, instanceID)
	if err != nil {
		diags.AddError("Error listing RDS database proxies", fmt.Sprintf("DescribeDBProxy %s: %v", instanceID, err))
		return nil
	}
	if !px.Started {
		return nil
	}
	if l.typeName == proxyKind {
		return []listedItem{{importID: instanceID, display: instanceID + " (database proxy)", identity: []string{instanceID}}}
	}
	def, err := l.data.API.DescribeDBProxyEndpoint(ctx, instanceID, "")
	if err != nil {
		diags.AddError("Error listing RDS database proxy endpoints", fmt.Sprintf("DescribeDBProxyEndpoint %s: %v", instanceID, err))
		return nil
	}
	var items []listedItem
	for _, a := range px.Endpoints {
		if a.EndpointID != def.EndpointID {
			items = append(items, listedItem{importID: instanceID + ":" + a.EndpointID, display: instanceID + "/" + a.EndpointID + " (" + a.Aliases + ")",
				identity: []string{instanceID, a.EndpointID}})
		}
	}
	return items
}
