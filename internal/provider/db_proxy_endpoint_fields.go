package provider

import (
	"context"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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

// proxyEndpointFields are an endpoint's settings, the same on rds_db_proxy (its default endpoint)
// and rds_db_proxy_endpoint: one schema, one conversion each way.
type proxyEndpointFields struct {
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
}

// proxyEndpointAttributes are the schema of proxyEndpointFields; which names the endpoint.
func proxyEndpointAttributes(which string) map[string]schema.Attribute {
	featureAttrs := map[string]schema.Attribute{}
	for name, text := range map[string]string{"read_write_splitting": "Read/write splitting (`ReadWriteSpliting`); default true.",
		"connection_persist": "Connection pooling (`ConnectionPersist`); default false.", "transaction_split": "Transaction splitting: reads of a transaction before its first write go to read-only instances (`TransactionReadSqlRouteOptimizeStatus`); default false.",
		"causal_consistent_read": "Session-consistent reads (`CausalConsistRead:1`); default false."} {
		featureAttrs[name] = schema.BoolAttribute{Required: true, MarkdownDescription: text}
	}
	return map[string]schema.Attribute{
		"read_write_mode": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsapi.ProxyReadWrite),
			Validators:          []validator.String{stringvalidator.OneOf(rdsapi.ProxyReadWrite, rdsapi.ProxyReadOnly)},
			MarkdownDescription: "`ReadWrite` (the default: writes to the primary, reads split) or `ReadOnly` (reads only, read-only instances only). A change interrupts connections."},
		"features": schema.SingleNestedAttribute{Optional: true, Computed: true, Attributes: featureAttrs,
			Default:             objectdefault.StaticValue(proxyFeaturesValue(rdsservice.ProxyFeatures{ReadWriteSplitting: true})),
			MarkdownDescription: "The features of " + which + "."},
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
				"`persistent_connections` and `ssl_enabled` have no `EffectiveTime` and change at once; a new proxy or endpoint is configured at once."},
		"scheduled_change": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The attributes whose change waits for the maintenance window (`apply_changes = \"in_maintenance_window\"`); null when none waits."},
		"scheduled_at": schema.StringAttribute{Computed: true,
			MarkdownDescription: "When the change in `scheduled_change` runs: the start of the window (RFC 3339, the cloud's clock)."},
		"connection_string": schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "The address of " + which + "."},
		"port": schema.Int64Attribute{Computed: true, MarkdownDescription: "The port of " + which + "."},
	}
}

// spec is the endpoint's settings as rdsservice reads them.
func (m proxyEndpointFields) spec(ctx context.Context, diags *diag.Diagnostics) rdsservice.ProxySpec {
	s := rdsservice.ProxySpec{ReadWriteMode: m.ReadWriteMode.ValueString(), Features: proxyFeaturesOf(m.Features),
		MaxDelay: m.MaxDelay.ValueInt64(), Standard: m.Weights.IsNull() || m.Distribution.ValueString() == rdsapi.ProxyDistributionStandard}
	if !m.Weights.IsNull() && !m.Weights.IsUnknown() {
		s.Weights = map[string]int64{}
		diags.Append(m.Weights.ElementsAs(ctx, &s.Weights, false)...)
	}
	return s
}

// fill sets the endpoint's settings and address as read back.
func (m *proxyEndpointFields) fill(s rdsservice.ProxySpec, ep *rdsapi.DBProxyEndpoint, diags *diag.Diagnostics) {
	m.ReadWriteMode, m.MaxDelay, m.Features = types.StringValue(s.ReadWriteMode), types.Int64Value(s.MaxDelay), proxyFeaturesValue(s.Features)
	m.Connection = types.StringValue(ep.ConnectString)
	port, _ := strconv.ParseInt(ep.Port, 10, 64)
	m.Port = types.Int64Value(port)
	m.Distribution, m.Weights = types.StringValue(rdsapi.ProxyDistributionStandard), types.MapNull(types.Int64Type)
	if !s.Standard {
		weights, d := types.MapValueFrom(context.Background(), types.Int64Type, s.Weights)
		diags.Append(d...)
		m.Distribution, m.Weights = types.StringNull(), weights
	}
	if m.PreventRestart.IsNull() {
		m.PreventRestart = types.BoolValue(false)
	}
	if m.ApplyChanges.IsNull() {
		m.ApplyChanges = types.StringValue(rdsservice.ApplyRestartsImmediately)
	}
}

// setWaiting records w (nil: nothing waits).
func (m *proxyEndpointFields) setWaiting(w *rdsservice.ProxyWaiting, diags *diag.Diagnostics) {
	m.Scheduled, m.ScheduledAt = types.ListNull(types.StringType), types.StringNull()
	if w == nil {
		return
	}
	list, d := types.ListValueFrom(context.Background(), types.StringType, w.Attributes)
	diags.Append(d...)
	m.Scheduled, m.ScheduledAt = list, types.StringValue(w.At.UTC().Format(time.RFC3339))
}

// waiting is the change the state records as waiting (nil: none).
func (m proxyEndpointFields) waiting(ctx context.Context, diags *diag.Diagnostics) *rdsservice.ProxyWaiting {
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

// planDistribution plans read_only_distribution: "Standard" without weights, else null.
func (m *proxyEndpointFields) planDistribution(standard bool) {
	m.Distribution = types.StringNull()
	if standard {
		m.Distribution = types.StringValue(rdsapi.ProxyDistributionStandard)
	}
}

// warnProxyWaiting names the change the state (fields, of the proxy of instanceID) records as
// waiting for the window, and when (X9).
func warnProxyWaiting(ctx context.Context, data *ProviderData, instanceID string, fields proxyEndpointFields, diags *diag.Diagnostics) {
	w := fields.waiting(ctx, diags)
	if w == nil {
		return
	}
	var window *rdsservice.MaintenanceWindow
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	if attr, err := data.API.DescribeDBInstanceAttribute(lookupCtx, instanceID); err == nil {
		if parsed, err := rdsservice.ParseMaintenanceWindow(attr.MaintainTime); err == nil {
			window = &parsed
		}
	}
	now := data.cloudNow() // after the read: a plan without refresh learns the cloud's clock from it
	if !rdsservice.ProxyStillWaits(w.At, now) {
		return
	}
	addProblems(diags, []rdsservice.Problem{rdsservice.ProxyWaitingIn(w.Attributes, window, now).Problem(instanceID)})
}
