package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// `parameters` and `parameters_pending` on rds_instance and rds_readonly_instance: the adapters
// between the resources and rdsservice's parameter rules (P1-P6 in rdsservice/parameters.go).

const parametersDescription = "MySQL parameters to manage, name to value, as strings as the API takes them " +
	"(e.g. `innodb_io_capacity = \"4000\"`). Only the parameters in the map are managed; the others never show a diff. " +
	"The plan checks every name, value and restart against the cloud's template (`rds_parameter_templates`): an unknown " +
	"name (with the closest names), a value outside the allowed range or set, or a parameter users cannot change is a " +
	"plan error. A change to a parameter that takes effect only after a restart is named in the plan's restart warning " +
	"(`prevent_restart = true` refuses it); when the same apply also restarts the instance for a spec change " +
	"(`instance_type`, `storage`, `atomic_write_16k`...), both share that one restart. `innodb_doublewrite` follows " +
	"`atomic_write_16k` (OFF while it is on): it may be written here only with the value that agrees. **Removing a key** " +
	"stops managing that parameter: the instance keeps its current value, nothing is sent and nothing restarts (set the " +
	"template default explicitly to reset it). Refresh reads parameters (one `DescribeParameters`) only when this map is set."

const parametersPendingDescription = "Parameters whose configured value does not run yet because it waits for a restart " +
	"(set outside Terraform without one), name to configured value; empty when nothing waits. Any restart applies them, " +
	"and the plan says so when it restarts the instance. Null when `parameters` is not set (the provider then does not " +
	"read parameters)."

// parameterSchemaAttributes are the two attributes, identical on both resources.
func parameterSchemaAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"parameters": schema.MapAttribute{
			Optional:            true,
			ElementType:         types.StringType,
			MarkdownDescription: parametersDescription,
		},
		"parameters_pending": schema.MapAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: parametersPendingDescription,
		},
	}
}

// readParameters refreshes the managed parameters with one DescribeParameters, or with none when
// managed is null. A value the cloud spells differently (ON/on) keeps the configured spelling;
// a managed name the cloud does not report is dropped, so the next plan names it.
func readParameters(ctx context.Context, api rdsapi.API, id string, managed types.Map, diags *diag.Diagnostics) (params, pending types.Map) {
	if managed.IsNull() || managed.IsUnknown() {
		return types.MapNull(types.StringType), types.MapNull(types.StringType)
	}
	answer, err := api.DescribeParameters(ctx, id)
	if err != nil {
		diags.AddError("Error reading RDS instance parameters", fmt.Sprintf("DescribeParameters %s: %v", id, err))
		return managed, types.MapNull(types.StringType)
	}
	running := answer.RunningParameters.Values()
	current := stringMap(ctx, managed, diags)
	out := map[string]string{}
	for name, old := range current {
		v, ok := running[name]
		if !ok {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(old)) {
			v = old
		}
		out[name] = v
	}
	return stringMapValue(out, diags), stringMapValue(answer.ConfigParameters.Values(), diags)
}

// parameterInputs is what decideParameters needs from a resource.
type parameterInputs struct {
	instanceID string // "" for an instance the apply creates
	engine     string
	version    string
	category   string
	config     types.Map
	state      types.Map // managed values as last read; null for a new instance or none managed
	pending    types.Map // parameters_pending as last read
	// atomicWrite is the planned flag (nil: unknown), for innodb_doublewrite (P4).
	atomicWrite *bool
}

// parameterDecision is what the plan decided for `parameters`.
type parameterDecision struct {
	managed bool // the configuration sets parameters
	unknown bool // the map, or one of its values, is not known until apply
	plan    rdsservice.ParameterPlan
	running map[string]string
	pending map[string]string // waiting now (only known when managed)
	// restartReason names the restart-needing parameters that change ("" when none).
	restartReason string
}

// restarts tells whether the parameter change restarts the instance on its own.
func (d parameterDecision) restarts() bool { return d.plan.NeedsRestart() }

// reasons returns what the restart warning says about parameters when the instance restarts
// (restarting is the whole decision's: a spec change may be the cause).
func (d parameterDecision) reasons(restarting bool) []string {
	var out []string
	if d.restartReason != "" {
		out = append(out, d.restartReason)
	}
	if restarting {
		if r := rdsservice.PendingAppliedReason(d.pending); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// plannedPending is parameters_pending after the apply: empty when the instance restarts,
// unchanged otherwise (an online change never touches a waiting parameter); null when unmanaged.
func (d parameterDecision) plannedPending(restarting bool, diags *diag.Diagnostics) types.Map {
	switch {
	case !d.managed:
		return types.MapNull(types.StringType)
	case d.unknown && !restarting:
		return types.MapUnknown(types.StringType)
	case restarting:
		return stringMapValue(map[string]string{}, diags)
	}
	return stringMapValue(d.pending, diags)
}

// decideParameters checks the configured parameters (P1-P4) and decides what the apply sends
// and whether it restarts (P5). Facts: the template (cached per provider process) and, for names
// not in state yet or when parameters_pending is not known, one DescribeParameters.
func (p *ProviderData) decideParameters(ctx context.Context, in parameterInputs) (parameterDecision, diag.Diagnostics) {
	var diags diag.Diagnostics
	var d parameterDecision
	if in.config.IsNull() {
		return d, diags // P6: nothing managed, nothing sent
	}
	d.managed = true
	if in.config.IsUnknown() || in.engine == "" || in.version == "" {
		d.unknown = true
		return d, diags
	}
	want := map[string]string{}
	unknownValues := map[string]bool{}
	for name, v := range in.config.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsUnknown() {
			unknownValues[name] = true
			d.unknown = true
			continue
		}
		if s.IsNull() {
			diags.AddAttributeError(path.Root("parameters").AtMapKey(name), "RDS parameter without a value",
				fmt.Sprintf("parameters[%q] is null. Give it a value, or remove the key to stop managing the parameter.", name))
			continue
		}
		want[name] = s.ValueString()
	}
	if diags.HasError() {
		return d, diags
	}
	tmpl, err := p.parameterTemplates.template(ctx, p.API, rdsapi.DescribeParameterTemplatesRequest{
		RegionID: p.Region, Engine: in.engine, EngineVersion: in.version, Category: in.category,
	})
	if err != nil {
		diags.AddAttributeError(path.Root("parameters"), "Cannot read the RDS parameter template",
			fmt.Sprintf("DescribeParameterTemplates %s %s: %v. The plan checks parameters against it.", in.engine, in.version, err))
		return d, diags
	}
	allWant := map[string]string{}
	for name, v := range want {
		allWant[name] = v
	}
	for name := range unknownValues {
		allWant[name] = ""
	}
	for _, prob := range rdsservice.CheckParameters(allWant, unknownValues, tmpl, in.atomicWrite) {
		diags.AddAttributeError(path.Root("parameters").AtMapKey(prob.Name), prob.Summary, prob.Detail)
	}
	if diags.HasError() {
		return d, diags
	}

	d.running = map[string]string{}
	d.pending = map[string]string{}
	if in.instanceID != "" {
		state := stringMap(ctx, in.state, &diags)
		missing := in.state.IsNull() || in.pending.IsNull() || in.pending.IsUnknown()
		for name := range want {
			if _, ok := state[name]; !ok {
				missing = true
			}
		}
		if missing {
			answer, err := p.API.DescribeParameters(ctx, in.instanceID)
			if err != nil {
				diags.AddAttributeError(path.Root("parameters"), "Cannot read the RDS instance parameters",
					fmt.Sprintf("DescribeParameters %s: %v. The plan compares parameters with the running values.", in.instanceID, err))
				return d, diags
			}
			d.running = answer.RunningParameters.Values()
			d.pending = answer.ConfigParameters.Values()
		} else {
			d.running = state
			d.pending = stringMap(ctx, in.pending, &diags)
		}
	}
	d.plan = rdsservice.PlanParameters(want, d.running, tmpl)
	d.restartReason = rdsservice.ParameterRestartReason(d.plan, d.running)
	if d.unknown && len(unknownValues) > 0 {
		// A value known only at apply may need a restart: say so like other unknown restart inputs.
		d.restartReason = ""
	}
	return d, diags
}

// applyParameters carries out the decision for instance id: nothing when nothing changes; with
// restartFollows (a spec change of the same apply restarts the instance afterwards) the values go
// out without Forcerestart, so that one restart applies them all.
func (p *ProviderData) applyParameters(ctx context.Context, id string, d parameterDecision, restartFollows bool) error {
	if len(d.plan.Send) == 0 {
		return nil
	}
	_, err := rdsservice.ApplyParameters(ctx, p.API, p.Waiter, id, d.plan, d.plan.NeedsRestart() && !restartFollows)
	return err
}

func stringMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	if m.IsNull() || m.IsUnknown() {
		return out
	}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

func stringMapValue(m map[string]string, diags *diag.Diagnostics) types.Map {
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	out, d := types.MapValue(types.StringType, elems)
	diags.Append(d...)
	return out
}

// addCreateParameterRestart announces the restart that applies restart-needing parameters right
// after an instance is created (an error with prevent_restart).
func addCreateParameterRestart(diags *diag.Diagnostics, d parameterDecision, instance, category string, readOnly, preventRestart bool) {
	if !d.restarts() {
		return
	}
	restart := rdsservice.Restart{
		InstanceID: instance,
		Reasons:    append(d.reasons(false), "they are applied by one restart right after creation"),
		Downtime:   rdsservice.ExpectedDowntime(category, readOnly),
	}
	summary, detail := rdsservice.RestartWarning([]rdsservice.Restart{restart})
	if preventRestart {
		diags.AddAttributeError(path.Root("parameters"), restartRefusedSummary, detail+
			" prevent_restart is true, so this plan is refused: leave those parameters at their defaults, or set prevent_restart = false to allow the restart.")
		return
	}
	diags.AddAttributeWarning(path.Root("parameters"), summary, detail)
}
