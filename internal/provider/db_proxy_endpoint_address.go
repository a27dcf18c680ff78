package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_db_proxy_endpoint's own address: connection_string_prefix and port, changed in place
// (rdsservice/proxy_endpoint_address.go decides; this file maps).

// addProxyAddressAttributes makes port configurable and adds connection_string_prefix and
// prevent_endpoint_change to rds_db_proxy_endpoint's schema.
func addProxyAddressAttributes(attrs map[string]schema.Attribute) {
	attrs["connection_string_prefix"] = schema.StringAttribute{Optional: true, Computed: true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		MarkdownDescription: "The prefix of the endpoint's address (`<prefix>.rwlb.rds.aliyuncs.com`), 5-40 characters in lower case (RDS stores it so); " +
			"read back when not set. One another endpoint of the proxy has is refused at plan. " +
			"A change moves the endpoint in place (`ModifyDBProxyEndpointAddress`, at once whatever `apply_changes` says): the old address stops " +
			"answering, and the plan says so."}
	attrs["port"] = schema.Int64Attribute{Optional: true, Computed: true,
		PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		MarkdownDescription: "The port of the endpoint's address, 1000-5999; read back when not set. A change moves the endpoint as `connection_string_prefix` does."}
	attrs["prevent_endpoint_change"] = schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "Refuse, at plan, a change of `connection_string_prefix` or `port` (which stops the old address answering) instead of warning."}
}

// address is the endpoint's prefix and port as m configures them, with current, its address now
// (nil for a new endpoint).
func (m dbProxyEndpointModel) address(current *rdsservice.NetEndpoint) rdsservice.ProxyEndpointAddress {
	a := rdsservice.ProxyEndpointAddress{Current: current, PreventChange: m.PreventEndpointChange.ValueBool()}
	if isKnown(m.Prefix) {
		a.Want.Prefix = m.Prefix.ValueString()
	}
	if isKnown(m.Port) {
		a.Want.Port = m.Port.ValueInt64()
	}
	return a
}

// netEndpoint is the address the state records; nil when it records none.
func (m dbProxyEndpointModel) netEndpoint() *rdsservice.NetEndpoint {
	if !isKnown(m.Connection) || !isKnown(m.Port) {
		return nil
	}
	return &rdsservice.NetEndpoint{ConnectionString: m.Connection.ValueString(), Port: m.Port.ValueInt64()}
}

// planAddress plans connection_string and port after the apply: known when the prefix and port are.
func (m *dbProxyEndpointModel) planAddress(a rdsservice.ProxyEndpointAddress) {
	planned, ok := a.PlannedAddress()
	if !ok || !isKnown(m.Prefix) || !isKnown(m.Port) {
		m.Connection = types.StringUnknown()
		return
	}
	m.Connection, m.Port = types.StringValue(planned.ConnectionString), types.Int64Value(planned.Port)
}

// fillAddress sets connection_string_prefix as read back, keeping the configured spelling of the
// same prefix (the cloud lower-cases it).
func (m *dbProxyEndpointModel) fillAddress(ep *rdsapi.DBProxyEndpoint) {
	read := rdsservice.ProxyNetEndpoint(ep).Prefix()
	if !isKnown(m.Prefix) || !strings.EqualFold(m.Prefix.ValueString(), read) {
		m.Prefix = types.StringValue(read)
	}
	if m.PreventEndpointChange.IsNull() {
		m.PreventEndpointChange = types.BoolValue(false)
	}
}

// readPrefixHolders reads the proxy's other endpoints when the configured prefix changes the
// endpoint's address, so that the plan refuses one of them already has; a proxy that cannot be read
// leaves the check to the cloud.
func (r *dbProxyEndpointResource) readPrefixHolders(ctx context.Context, rq *rdsservice.ProxyRequest) {
	a := &rq.Endpoint.Address
	if !a.NeedsPrefixHolders() {
		return
	}
	if px, err := r.data.API.DescribeDBProxy(ctx, rq.InstanceID); err == nil && px.Started {
		a.Holders = rdsservice.ProxyPrefixHolders(px, rq.Endpoint.ID)
	}
}
