package provider

// The apply runs the plan, never the configuration (issue 39 §1). Terraform plans an existing
// object with lifecycle { ignore_changes } applied to the configuration, then hands
// ApplyResourceChange the configuration as written: an apply that read it would send values no
// plan named. The planner still needs to tell "unset" from a value, which the planned values
// alone cannot: the plan records, in its private state, which attributes the configuration left
// unset, and an update's apply rebuilds the configuration the plan was decided from out of the
// planned values and that list. Terraform requires every configured value to be planned as
// configured (and the instance resources' one nested object, restore_from, has no computed part),
// so the rebuilt configuration is exactly the plan's. Source: Terraform core,
// internal/terraform/node_resource_abstract_instance.go (processIgnoreChanges before
// PlanResourceChange; ApplyResourceChange gets the configuration evaluated again, unprocessed).

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// plannedUnsetKey is the private state key of the attributes the plan's configuration left unset.
const plannedUnsetKey = "planned_config_unset"

// recordPlannedConfig records, with the plan, the top-level attributes its configuration leaves
// unset (rdsservice.UnsetAttributes). Nothing is recorded for a destroy, or outside the framework
// (no private state).
func recordPlannedConfig(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if resp.Private == nil || req.Config.Raw.IsNull() {
		return
	}
	raw, _ := json.Marshal(rdsservice.UnsetAttributes(attrValueOf(req.Config.Raw)))
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, plannedUnsetKey, raw)...)
}

// plannedConfig is the configuration the plan was decided from: the planned values, with the
// attributes the configuration left unset null again.
func plannedConfig(ctx context.Context, plan tfsdk.Plan, private privateGetter, diags *diag.Diagnostics) tfsdk.Config {
	raw, d := private.GetKey(ctx, plannedUnsetKey)
	diags.Append(d...)
	var unset []string
	var attrs map[string]tftypes.Value
	err := json.Unmarshal(raw, &unset)
	if err == nil {
		err = plan.Raw.As(&attrs)
	}
	if err != nil {
		diags.AddError("The plan does not say which attributes are configured",
			fmt.Sprintf("The apply runs the plan, and this plan carries no readable record of the attributes its configuration "+
				"leaves unset (private state %q, plan: %v). Run terraform plan again and apply the new plan.", plannedUnsetKey, err))
		return tfsdk.Config(plan)
	}
	attrs = maps.Clone(attrs) // As shares the value's own map
	for _, name := range unset {
		if v, ok := attrs[name]; ok {
			attrs[name] = tftypes.NewValue(v.Type(), nil)
		}
	}
	return tfsdk.Config{Schema: plan.Schema, Raw: tftypes.NewValue(plan.Raw.Type(), attrs)}
}

// forgetPlannedConfig removes the record from the state's private data: it belongs to one plan.
func forgetPlannedConfig(ctx context.Context, private privateSetter, diags *diag.Diagnostics) {
	diags.Append(private.SetKey(ctx, plannedUnsetKey, nil)...)
}
