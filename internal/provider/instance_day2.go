package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Day-2 changes the cloud makes in place (issue 25): a MySQL major version upgrade is an
// operation of the plan's program (rdsservice/upgrade_rules.go); only what the cloud cannot do in
// place (a lower version, another engine's version change) still replaces the instance.

// engineVersionEffect is what engine_version's documentation says about a change, for both
// instance resources.
const engineVersionEffect = "A later MySQL major version (5.5 -> 5.6 -> 5.7 -> 8.0 -> 8.4, one step per apply) is an upgrade " +
	"in place (`UpgradeDBInstanceEngineVersion`): the data, id and endpoint stay, and the instance is out of service once " +
	"(a switchover to the upgraded standby for High-availability and Cluster editions, a restart of the single node for " +
	"Basic edition and read-only instances), which the plan announces and `prevent_restart` refuses; with " +
	"`apply_restarts = \"in_maintenance_window\"` it happens in the maintenance window. The plan refuses an upgrade that " +
	"skips a version, of an edition or storage type the cloud cannot upgrade (only High-availability on `local_ssd`, and " +
	"Basic, High-availability and Cluster on ESSD), of a primary whose read-only instances are not on the new version yet " +
	"(upgrade them first), or together with other changes. Parameters the new version does not have are dropped by the " +
	"cloud. A lower version, or a version change of another engine, creates a new instance (the data is not copied)."

// engineVersionModifiers make a version change a replacement only when it is not an upgrade the
// cloud makes in place. The description avoids the framework's "destroy and recreate" wording, so
// replacingAttributes does not count engine_version as always replacing (versionReplaces does).
// While an upgrade waits for the maintenance window, the state holds the requested version and
// private state the running one: another change of engine_version is refused then.
func engineVersionModifiers(keepState bool) []planmodifier.String {
	const desc = "A lower version, or a version change of an engine other than MySQL, replaces the instance; a MySQL upgrade happens in place."
	out := []planmodifier.String{stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		if req.PlanValue.IsUnknown() || req.StateValue.IsNull() {
			resp.RequiresReplace = true
			return
		}
		var engine, id types.String
		if req.State.GetAttribute(ctx, path.Root("engine"), &engine).HasError() {
			engine = types.StringNull() // rds_readonly_instance: MySQL only
		}
		req.State.GetAttribute(ctx, path.Root("id"), &id)
		if pending := pendingUpgrade(ctx, req.Private, req.StateValue); pending != "" {
			addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleUpgradePending, req.PlanValue.ValueString(),
				id.ValueString(), pending, req.StateValue.ValueString(), req.PlanValue.ValueString())})
			return
		}
		resp.RequiresReplace = !rdsservice.IsEngineUpgrade(stringOrMySQL(engine), req.StateValue.ValueString(), req.PlanValue.ValueString())
	}, desc, desc)}
	if keepState {
		out = append([]planmodifier.String{stringplanmodifier.UseStateForUnknown()}, out...)
	}
	return out
}

// pendingUpgrade is the version the instance runs while an upgrade to state (the requested
// version) waits for the maintenance window; "" when none does.
func pendingUpgrade(ctx context.Context, private privateGetter, state types.String) string {
	var diags diag.Diagnostics
	from := scheduledFrom(ctx, private, &diags)
	if from == nil || from.EngineVersion == "" || from.EngineVersion == state.ValueString() {
		return ""
	}
	return from.EngineVersion
}

// engineVersionAttribute is rds_instance's engine_version.
func engineVersionAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Engine version, e.g. `8.0` or `5.7` for MySQL (16K atomic write needs one of those two). " + engineVersionEffect,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		PlanModifiers:       engineVersionModifiers(false),
	}
}

// versionReplaces adds engine_version to the attributes forcing a replacement when its change is
// not an upgrade in place (nor refused because an upgrade is pending: engineVersionModifiers).
func versionReplaces(ctx context.Context, private privateGetter, replace []string, engine, state, plan types.String) []string {
	if !isKnown(state) || plan.Equal(state) || slices.Contains(replace, rdsservice.AttrEngineVersion) || pendingUpgrade(ctx, private, state) != "" {
		return replace
	}
	if isKnown(plan) && rdsservice.IsEngineUpgrade(stringOrMySQL(engine), state.ValueString(), plan.ValueString()) {
		return replace
	}
	out := append(slices.Clone(replace), rdsservice.AttrEngineVersion)
	slices.Sort(out)
	return out
}

func stringOrMySQL(engine types.String) string {
	if !isKnown(engine) || engine.ValueString() == "" {
		return "MySQL"
	}
	return engine.ValueString()
}

// holdsSpec: while task waits, the instance runs the spec (or version) kept in private state,
// and the state holds the requested one.
func holdsSpec(task *rdsapi.HistoryTask) bool {
	return task != nil && (task.TaskType == rdsapi.TaskTypeModifySpec || task.TaskType == rdsapi.TaskTypeUpgradeEngineVersion)
}

// parameterVersion is the version whose parameter template checks `parameters`: the new one of an
// upgrade, so that a parameter the new version lacks (the cloud drops it) is refused at plan.
func parameterVersion(engine, state, plan types.String) string {
	if isKnown(plan) && rdsservice.IsEngineUpgrade(stringOrMySQL(engine), state.ValueString(), plan.ValueString()) {
		return plan.ValueString()
	}
	return state.ValueString()
}
