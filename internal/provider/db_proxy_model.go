package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// dbProxyModel is rds_db_proxy's state.
type dbProxyModel struct {
	ID           types.String `tfsdk:"id"`
	InstanceID   types.String `tfsdk:"instance_id"`
	InstanceType types.String `tfsdk:"instance_type"`
	InstanceNum  types.Int64  `tfsdk:"instance_num"`
	VSwitchID    types.String `tfsdk:"vswitch_id"`
	Persistent   types.Bool   `tfsdk:"persistent_connections"`
	SSL          types.Bool   `tfsdk:"ssl_enabled"`
	Status       types.String `tfsdk:"status"`
	proxyEndpointFields
}

// proxyFeatureTypes are the attributes of `features`.
var proxyFeatureTypes = map[string]attr.Type{"read_write_splitting": types.BoolType, "connection_persist": types.BoolType,
	"transaction_split": types.BoolType, "causal_consistent_read": types.BoolType}

func proxyFeaturesValue(f rdsservice.ProxyFeatures) types.Object {
	return types.ObjectValueMust(proxyFeatureTypes, map[string]attr.Value{"read_write_splitting": types.BoolValue(f.ReadWriteSplitting),
		"connection_persist": types.BoolValue(f.ConnectionPersist), "transaction_split": types.BoolValue(f.TransactionSplit),
		"causal_consistent_read": types.BoolValue(f.CausalConsistentRead)})
}

func proxyFeaturesOf(o types.Object) rdsservice.ProxyFeatures {
	get := func(name string) bool {
		b, ok := o.Attributes()[name].(types.Bool)
		return ok && b.ValueBool()
	}
	return rdsservice.ProxyFeatures{ReadWriteSplitting: get("read_write_splitting"), ConnectionPersist: get("connection_persist"),
		TransactionSplit: get("transaction_split"), CausalConsistentRead: get("causal_consistent_read")}
}

func dbProxySchema() schema.Schema {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	attrs := proxyEndpointAttributes("the default endpoint")
	for name, a := range map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "The primary instance's id."},
		"instance_id": schema.StringAttribute{Required: true, PlanModifiers: requiresReplace("rds_db_proxy", rdsservice.AttrInstanceID),
			MarkdownDescription: "The primary instance (High-availability or Cluster edition). Changing it replaces the proxy."},
		"instance_type": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsapi.ProxyTypeCommon),
			Validators:          []validator.String{stringvalidator.OneOf(rdsapi.ProxyTypeCommon, rdsapi.ProxyTypeExclusive)},
			MarkdownDescription: "`common` (general-purpose, the default) or `exclusive` (dedicated). A change interrupts connections."},
		"instance_num": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(2),
			MarkdownDescription: "Proxy instances, 1 to 16 (default 2)."},
		"vswitch_id": schema.StringAttribute{Optional: true, Computed: true,
			PlanModifiers:       append([]planmodifier.String{stringplanmodifier.UseStateForUnknown()}, requiresReplace("rds_db_proxy", rdsservice.AttrVSwitchID)...),
			MarkdownDescription: "The vSwitch of the proxy endpoint; the instance's by default. Changing it replaces the proxy."},
		"persistent_connections": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Persistent connections (`PersistentConnectionStatus`)."},
		"ssl_enabled": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "SSL on the proxy endpoint (`ModifyDbProxyInstanceSsl`), read back from `GetDbProxyInstanceSsl`."},
		"status": schema.StringAttribute{Computed: true, MarkdownDescription: "The proxy's status (`DBProxyInstanceStatus`)."},
	} {
		attrs[name] = a
	}
	return schema.Schema{
		MarkdownDescription: "The database proxy of a primary instance, with its default endpoint's read/write splitting. Every attribute is " +
			"read back (`DescribeDBProxy`, `DescribeDBProxyEndpoint`), so a change made outside Terraform shows as a diff; every resize and " +
			"endpoint change is sent with `EffectiveTime` (`Immediate`, or the maintenance window with `apply_changes`; the API's default is the window). Destroying it shuts the proxy down.",
		Attributes: attrs,
	}
}

// spec is the model as rdsservice reads it.
func (m dbProxyModel) spec(ctx context.Context, diags *diag.Diagnostics) rdsservice.ProxySpec {
	s := m.proxyEndpointFields.spec(ctx, diags)
	s.InstanceType, s.InstanceNum, s.VSwitchID = m.InstanceType.ValueString(), m.InstanceNum.ValueInt64(), m.VSwitchID.ValueString()
	s.Persistent, s.SSL = m.Persistent.ValueBool(), m.SSL.ValueBool()
	return s
}

// fill sets the model from the proxy as read back.
func (m *dbProxyModel) fill(s rdsservice.ProxySpec, px *rdsapi.DBProxy, ep *rdsapi.DBProxyEndpoint, diags *diag.Diagnostics) {
	m.ID = m.InstanceID
	m.InstanceType, m.InstanceNum, m.VSwitchID = types.StringValue(s.InstanceType), types.Int64Value(s.InstanceNum), types.StringValue(s.VSwitchID)
	m.SSL, m.Persistent, m.Status = types.BoolValue(s.SSL), types.BoolValue(s.Persistent), types.StringValue(px.Status)
	m.proxyEndpointFields.fill(s, ep, diags)
}
