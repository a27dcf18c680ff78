package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Endpoints of rds_instance and rds_readonly_instance (issue 42 §1): connection_string_prefix and port change the
// internal endpoint, public_endpoint allocates, changes and releases the public one. The decisions are
// rdsservice's (endpoint_rules.go); here are the schema, the model mapping and the read-back, which calls
// DescribeDBInstanceNetInfo only for an instance with an endpoint attribute configured (connection_string_prefix
// non-null in state: the plan sets it whenever one is).

var publicEndpointAttrTypes = map[string]attr.Type{"connection_string_prefix": types.StringType, "port": types.Int64Type}

// endpointParts points at a model's endpoint attributes.
type endpointParts struct {
	Prefix, ConnectionString, PublicString *types.String
	Port                                   *types.Int64
	Public                                 *types.Object
	Prevent                                *types.Bool
}

func (m *instanceModel) endpointParts() endpointParts {
	return endpointParts{Prefix: &m.ConnectionStringPrefix, ConnectionString: &m.ConnectionString, PublicString: &m.PublicConnectionString,
		Port: &m.Port, Public: &m.PublicEndpoint, Prevent: &m.PreventEndpointChange}
}

func (m *readonlyInstanceModel) endpointParts() endpointParts {
	return endpointParts{Prefix: &m.ConnectionStringPrefix, ConnectionString: &m.ConnectionString, PublicString: &m.PublicConnectionString,
		Port: &m.Port, Public: &m.PublicEndpoint, Prevent: &m.PreventEndpointChange}
}

// endpointAttributes are the endpoint attributes both instance resources add (port is in their schemas).
func endpointAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		rdsservice.AttrConnectionPrefix: schema.StringAttribute{Optional: true, Computed: true,
			MarkdownDescription: "Prefix of the internal `connection_string` (8-64 letters, digits and hyphens), changed in place " +
				"with `ModifyDBInstanceConnectionString`. Null while no endpoint attribute (this, `port`, `public_endpoint`) is " +
				"configured: the provider then neither changes nor reads the endpoints. The plan names every address that stops answering."},
		rdsservice.AttrPublicEndpoint: schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "The public endpoint: allocated when set (`AllocateInstancePublicConnection`, a prefix of 5-40 " +
				"characters), changed in place (8-64), released when removed after Terraform set it. Reachable from the addresses " +
				"the instance's IP lists allow.",
			Attributes: map[string]schema.Attribute{
				"connection_string_prefix": schema.StringAttribute{Required: true, MarkdownDescription: "Prefix of `public_connection_string`."},
				"port":                     schema.Int64Attribute{Required: true, MarkdownDescription: "Port, 1000-5999."},
			}},
		"public_connection_string": schema.StringAttribute{Computed: true,
			MarkdownDescription: "The public endpoint's connection string, also of one `public_endpoint` did not set (allocated " +
				"outside Terraform or before an import, which leaving `public_endpoint` out does not release); null without a public " +
				"endpoint or while no endpoint attribute is configured."},
		rdsservice.AttrPreventEndpointChange: schema.BoolAttribute{Optional: true,
			MarkdownDescription: "When true, a plan that makes a connection string or port of this instance stop answering (a " +
				"changed prefix or port, a released public endpoint, a replacement) is an error instead of a warning."},
	}
}

// portAttribute is port, optional and computed on both resources.
func portAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		MarkdownDescription: "Port of `connection_string` (1000-5999), changed in place with `ModifyDBInstanceConnectionString`. " +
			"Left out, the instance's port."}
}

// readEndpoints reads the endpoints back where they are managed (a non-null prefix or public_endpoint): the
// internal one's prefix, port and string, and the public one, which public_endpoint follows when Terraform set it.
func readEndpoints(ctx context.Context, api rdsapi.API, id string, m endpointParts, diags *diag.Diagnostics) {
	if m.Prefix.IsNull() && m.Public.IsNull() {
		*m.PublicString = types.StringNull()
		return
	}
	info, err := api.DescribeDBInstanceNetInfo(ctx, id)
	if err != nil {
		diags.AddWarning("Cannot read the endpoints", fmt.Sprintf("Instance %s: DescribeDBInstanceNetInfo: %v. The endpoint attributes keep the values in state.", id, err))
		return
	}
	facts := rdsservice.EndpointFactsOf(info)
	if n := facts.Internal; n != nil {
		*m.Prefix, *m.Port, *m.ConnectionString = types.StringValue(n.Prefix()), types.Int64Value(n.Port), types.StringValue(n.ConnectionString)
	}
	*m.PublicString = types.StringNull()
	if n := facts.Public; n != nil {
		*m.PublicString = types.StringValue(n.ConnectionString)
	}
	switch {
	case m.Public.IsNull():
	case facts.Public == nil:
		*m.Public = types.ObjectNull(publicEndpointAttrTypes)
	default:
		*m.Public = types.ObjectValueMust(publicEndpointAttrTypes, map[string]attr.Value{
			"connection_string_prefix": types.StringValue(facts.Public.Prefix()), "port": types.Int64Value(facts.Public.Port)})
	}
}

// carryEndpoints keeps base's endpoint attributes in a read-only instance's model built from its attribute
// (readEndpoints then reads them back where they are managed).
func (m *readonlyInstanceModel) carryEndpoints(base *readonlyInstanceModel) {
	m.ConnectionStringPrefix, m.PublicConnectionString, m.PreventEndpointChange = base.ConnectionStringPrefix, base.PublicConnectionString, base.PreventEndpointChange
	m.PublicEndpoint = base.PublicEndpoint
	if m.PublicEndpoint.IsNull() {
		m.PublicEndpoint = types.ObjectNull(publicEndpointAttrTypes)
	}
}
