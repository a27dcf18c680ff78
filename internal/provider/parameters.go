package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// parameterGroupIDAttribute is rds_instance's parameter_group_id (P8 in rdsservice).
func parameterGroupIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: "Id of an `rds_parameter_group` of the instance's " +
		"engine version to apply. At creation it is sent as `DBParamGroupId` (its values run from the start, nothing " +
		"restarts); in place as `ModifyParameter` with `ParameterGroupId`, whenever the group is new to the instance or one of " +
		"its values is not what the instance runs. A value that takes effect only after a restart restarts the instance, at " +
		"once or in the maintenance window per `apply_restarts`, and the plan names that restart. **A parameter both in the " +
		"group and in `parameters` takes the value of `parameters`**: the group is applied first, then the instance's own " +
		"values, and the plan warns of each such override. Removing the attribute stops applying the group: the instance " +
		"keeps its values. The group's parameters are read at plan. **A group changed in the same run** (its id referenced " +
		"here, e.g. `rds_parameter_group.x.id`) is planned first: this plan takes the group's planned parameters, names the " +
		"restart they cause, and the apply applies the group again after the group's own update."}
}

// parameterGroupValuesAttribute is parameter_group_values, the group's values the instance runs (P8).
func parameterGroupValuesAttribute() schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The values of " +
		"`parameter_group_id`'s group that this instance runs: the group's parameters that `parameters` does not override. It " +
		"changes in the plan when the group is changed in the same run (the apply then applies the group again). Null without " +
		"a group."}
}

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
// managed is null. Each managed parameter shows the value the cloud is configured with: the
// running one, or the one waiting for a restart when there is one (so a value set outside
// Terraform shows as drift whether it runs yet or not). A value the cloud spells differently
// (ON/on) keeps the configured spelling; a managed name the cloud does not report is dropped, so
// the next plan names it.
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
	waiting := answer.ConfigParameters.Values()
	current := stringMap(ctx, managed, diags)
	out := map[string]string{}
	for name, old := range current {
		v, ok := running[name]
		if !ok {
			continue
		}
		if w, ok := waiting[name]; ok {
			v = w
		}
		if strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(old)) {
			v = old
		}
		out[name] = v
	}
	return stringMapValue(out, diags), stringMapValue(answer.ConfigParameters.Values(), diags)
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

// readGroupApplied refreshes parameter_group_id: the id while the instance is configured with
// every value of the group its own parameters leave to it, "" when it is not (the group changed,
// or a value was changed outside Terraform), so that the plan applies the group again (P8); and
// parameter_group_values, the group's values the instance's own parameters leave to it. Two
// reads, only for an instance with a group.
func readGroupApplied(ctx context.Context, api rdsapi.API, id string, group types.String, own types.Map, diags *diag.Diagnostics) (types.String, types.Map) {
	none := types.MapNull(types.StringType)
	if !isKnown(group) || group.ValueString() == "" {
		return group, none
	}
	g, err := api.DescribeParameterGroup(ctx, group.ValueString())
	if rdsapi.IsParameterGroupNotFound(err) {
		return types.StringValue(""), none
	}
	if err != nil {
		diags.AddError("Error reading the RDS parameter group", fmt.Sprintf("DescribeParameterGroup %s: %v", group.ValueString(), err))
		return group, none
	}
	ownValues := stringMap(ctx, own, diags)
	values := stringMapValue(rdsservice.GroupValuesApplied(g.Parameters, ownValues), diags)
	answer, err := api.DescribeParameters(ctx, id)
	if err != nil {
		diags.AddError("Error reading RDS instance parameters", fmt.Sprintf("DescribeParameters %s: %v", id, err))
		return group, values
	}
	if !rdsservice.GroupApplied(g.Parameters, answer.RunningParameters.Values(), answer.ConfigParameters.Values(), ownValues) {
		return types.StringValue(""), values
	}
	return group, values
}
