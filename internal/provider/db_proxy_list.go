package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type proxyFilter struct {
	InstanceID types.String `tfsdk:"instance_id"`
}

// newProxyLister is the list resource of rds_db_proxy (the started proxies) or
// rds_db_proxy_endpoint (their further endpoints), of one primary or of every primary of the region.
func newProxyLister(typeName string) *lister[proxyFilter] {
	what := "further database proxy endpoints (not the default ones)"
	if typeName == proxyKind {
		what = "started database proxies"
	}
	return &lister[proxyFilter]{typeName: typeName, schema: listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds the %s of one primary instance, or of every primary instance in the region "+
			"(listed 100 a page, then `DescribeDBProxy` each), for `terraform query`.", what),
		Attributes: map[string]listschema.Attribute{
			"instance_id": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "The primary instance whose proxy to look at; every primary instance of the region when unset."},
		},
	}, items: func(ctx context.Context, data *ProviderData, f proxyFilter, diags *diag.Diagnostics) []listedItem {
		return eachPrimary(ctx, data, f.InstanceID, diags, func(id string) []listedItem { return proxyItems(ctx, data, typeName, id, diags) })
	}}
}

// proxyItems lists the proxy of instanceID, or its endpoints other than the default one.
func proxyItems(ctx context.Context, data *ProviderData, typeName, instanceID string, diags *diag.Diagnostics) []listedItem {
	px, err := data.API.DescribeDBProxy(ctx, instanceID)
	if err != nil {
		diags.AddError("Error listing RDS database proxies", fmt.Sprintf("DescribeDBProxy %s: %v", instanceID, err))
		return nil
	}
	if !px.Started {
		return nil
	}
	if typeName == proxyKind {
		return []listedItem{{importID: instanceID, display: instanceID + " (database proxy)", identity: []string{instanceID}}}
	}
	def, err := data.API.DescribeDBProxyEndpoint(ctx, instanceID, "")
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
