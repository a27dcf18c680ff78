package provider

import (
	"context"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectdefault"
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
	ID             types.String `tfsdk:"id"`
	InstanceID     types.String `tfsdk:"instance_id"`
	InstanceType   types.String `tfsdk:"instance_type"`
	InstanceNum    types.Int64  `tfsdk:"instance_num"`
	VSwitchID      types.String `tfsdk:"vswitch_id"`
	Persistent     types.Bool   `tfsdk:"persistent_connections"`
	SSL            types.Bool   `tfsdk:"ssl_enabled"`
	ReadWriteMode  types.String `tfsdk:"read_write_mode"`
	Features       types.Object `tfsdk:"features"`
	Weights        types.Map    `tfsdk:"read_only_weights"`
	Distribution   types.String `tfsdk:"read_only_distribution"`
	MaxDelay       types.Int64  `tfsdk:"max_delay_seconds"`
	PreventRestart types.Bool   `tfsdk:"prevent_restart"`
	ApplyChanges   types.String `tfsdk:"apply_changes"`
	Scheduled      types.List   `tfsdk:"scheduled_change"`
	ScheduledAt    types.String `tfsdk:"scheduled_at"`
	Connection     types.String `tfsdk:"connection_string"`
	Port           types.Int64  `tfsdk:"port"`
	Status         types.String `tfsdk:"status"`
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
	featureAttrs := map[string]schema.Attribute{}
	for name, text := range map[string]string{"read_write_splitting": "Read/write splitting (`ReadWriteSpliting`); default true.",
		"connection_persist": "Connection pooling (`ConnectionPersist`); default false.", "transaction_split": "Transaction splitting: reads of a transaction before its first write go to read-only instances (`TransactionReadSqlRouteOptimizeStatus`); default false.",
		"causal_consistent_read": "Session-consistent reads (`CausalConsistRead:1`); default false."} {
		featureAttrs[name] = schema.BoolAttribute{Required: true, MarkdownDescription: text}
	}
	return schema.Schema{
		MarkdownDescription: "The database proxy of a primary instance, with its default endpoint's read/write splitting. Every attribute is " +
			"read back (`DescribeDBProxy`, `DescribeDBProxyEndpoint`), so a change made outside Terraform shows as a diff; every resize and " +
			"endpoint change is sent with `EffectiveTime` (`Immediate`, or the maintenance window with `apply_changes`; the API's default is the window). Destroying it shuts the proxy down.",
		Attributes: map[string]schema.Attribute{
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
			"read_write_mode": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsapi.ProxyReadWrite),
				Validators:          []validator.String{stringvalidator.OneOf(rdsapi.ProxyReadWrite, rdsapi.ProxyReadOnly)},
				MarkdownDescription: "`ReadWrite` (the default: writes to the primary, reads split) or `ReadOnly` (reads only, read-only instances only). A change interrupts connections."},
			"features": schema.SingleNestedAttribute{Optional: true, Computed: true, Attributes: featureAttrs,
				Default:             objectdefault.StaticValue(proxyFeaturesValue(rdsservice.ProxyFeatures{ReadWriteSplitting: true})),
				MarkdownDescription: "The default endpoint's features."},
			"read_only_weights": schema.MapAttribute{Optional: true, ElementType: types.Int64Type,
				MarkdownDescription: "Read weights, by read-only instance id or `\"primary\"`: multiples of 100 up to 10000. Reads are sent in proportion. Leave it out for `read_only_distribution = \"Standard\"`."},
			"read_only_distribution": schema.StringAttribute{Optional: true, Computed: true,
				Validators:          []validator.String{stringvalidator.OneOf(rdsapi.ProxyDistributionStandard)},
				MarkdownDescription: "`Standard`: the cloud weighs the instances by class. Set when `read_only_weights` is not."},
			"max_delay_seconds": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(30),
				MarkdownDescription: "A read-only instance further behind than this (0-3600 seconds) receives no reads."},
			"prevent_restart": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Refuse, at plan, a change that interrupts the proxy's connections (`read_write_mode`, `instance_type`) instead of warning."},
			"apply_changes": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsservice.ApplyRestartsImmediately),
				Validators: []validator.String{stringvalidator.OneOf(rdsservice.ApplyRestartsImmediately, rdsservice.ApplyRestartsInWindow)},
				MarkdownDescription: "`immediately` (the default) sends resizes and endpoint changes with `EffectiveTime = Immediate`; `in_maintenance_window` " +
					"sends them with `MaintainTime`, and the cloud applies them at the start of the primary's maintenance window (the plan says when). " +
					"`persistent_connections` and `ssl_enabled` have no `EffectiveTime` and change at once; a new proxy is configured at once."},
			"scheduled_change": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The attributes whose change waits for the maintenance window (`apply_changes = \"in_maintenance_window\"`); null when none waits."},
			"scheduled_at": schema.StringAttribute{Computed: true,
				MarkdownDescription: "When the change in `scheduled_change` runs: the start of the window (RFC 3339, the cloud's clock)."},
			"connection_string": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "The proxy endpoint's address."},
			"port":              schema.Int64Attribute{Computed: true, MarkdownDescription: "The proxy endpoint's port."},
			"status":            schema.StringAttribute{Computed: true, MarkdownDescription: "The proxy's status (`DBProxyInstanceStatus`)."},
		},
	}
}

// spec is the model as rdsservice reads it.
func (m dbProxyModel) spec(ctx context.Context, diags *diag.Diagnostics) rdsservice.ProxySpec {
	s := rdsservice.ProxySpec{InstanceType: m.InstanceType.ValueString(), InstanceNum: m.InstanceNum.ValueInt64(), VSwitchID: m.VSwitchID.ValueString(),
		Persistent: m.Persistent.ValueBool(), SSL: m.SSL.ValueBool(), ReadWriteMode: m.ReadWriteMode.ValueString(), Features: proxyFeaturesOf(m.Features),
		MaxDelay: m.MaxDelay.ValueInt64(), Standard: m.Weights.IsNull() || m.Distribution.ValueString() == rdsapi.ProxyDistributionStandard}
	if !m.Weights.IsNull() && !m.Weights.IsUnknown() {
		s.Weights = map[string]int64{}
		diags.Append(m.Weights.ElementsAs(ctx, &s.Weights, false)...)
	}
	return s
}

// setWaiting records w (nil: nothing waits).
func (m *dbProxyModel) setWaiting(w *rdsservice.ProxyWaiting, diags *diag.Diagnostics) {
	m.Scheduled, m.ScheduledAt = types.ListNull(types.StringType), types.StringNull()
	if w == nil {
		return
	}
	list, d := types.ListValueFrom(context.Background(), types.StringType, w.Attributes)
	diags.Append(d...)
	m.Scheduled, m.ScheduledAt = list, types.StringValue(w.At.UTC().Format(time.RFC3339))
}

// waiting is the change the state records as waiting (nil: none).
func (m dbProxyModel) waiting(ctx context.Context, diags *diag.Diagnostics) *rdsservice.ProxyWaiting {
	if !isKnown(m.ScheduledAt) || !isKnown(m.Scheduled) {
		return nil
	}
	at, err := time.Parse(time.RFC3339, m.ScheduledAt.ValueString())
	if err != nil {
		diags.AddError("Invalid scheduled_at in state", err.Error())
		return nil
	}
	w := &rdsservice.ProxyWaiting{At: at}
	diags.Append(m.Scheduled.ElementsAs(ctx, &w.Attributes, false)...)
	return w
}

// fill sets the model from the proxy as read back.
func (m *dbProxyModel) fill(s rdsservice.ProxySpec, px *rdsapi.DBProxy, ep *rdsapi.DBProxyEndpoint, diags *diag.Diagnostics) {
	m.ID = m.InstanceID
	m.InstanceType, m.InstanceNum, m.VSwitchID = types.StringValue(s.InstanceType), types.Int64Value(s.InstanceNum), types.StringValue(s.VSwitchID)
	m.SSL = types.BoolValue(s.SSL)
	m.Persistent, m.ReadWriteMode, m.MaxDelay = types.BoolValue(s.Persistent), types.StringValue(s.ReadWriteMode), types.Int64Value(s.MaxDelay)
	m.Features, m.Status, m.Connection = proxyFeaturesValue(s.Features), types.StringValue(px.Status), types.StringValue(ep.ConnectString)
	port, _ := strconv.ParseInt(ep.Port, 10, 64)
	m.Port = types.Int64Value(port)
	m.Distribution, m.Weights = types.StringValue(rdsapi.ProxyDistributionStandard), types.MapNull(types.Int64Type)
	if !s.Standard {
		weights, d := types.MapValueFrom(context.Background(), types.Int64Type, s.Weights)
		diags.Append(d...)
		m.Distribution, m.Weights = types.StringNull(), weights
	}
}
