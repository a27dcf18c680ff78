package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Editions in place (issue 25 §4): category Basic -> HighAvailability of a MySQL instance is part
// of the plan's one spec order (rdsservice/edition_rules.go); every other change of category
// still replaces the instance.

// categoryEffect is what category's documentation says about a change.
const categoryEffect = "`Basic` -> `HighAvailability` of a MySQL instance is an edition upgrade in place: the one spec change " +
	"(`ModifyDBInstanceSpec`) orders a High-availability `instance_type` with it (set both in the same apply; keeping the Basic " +
	"class is a plan error), the data, id and endpoint stay, the cloud adds a standby node (`zone_id_slave_a` reads the " +
	"primary's zone) and the single node restarts once, which the plan announces and `prevent_restart` refuses; with " +
	"`apply_restarts = \"in_maintenance_window\"` it happens in the maintenance window. 16K atomic write can be turned on in a " +
	"later apply (a Basic-edition instance cannot turn it on, 16K rule 3). Any other change (`HighAvailability` -> `Basic`, to " +
	"or from `cluster`, a PostgreSQL instance) creates a new instance (the data is not copied; `deletion_protection` refuses it)."

// categoryAttribute is rds_instance's category.
func categoryAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		Default:  stringdefault.StaticString(defaultCategory),
		MarkdownDescription: "Edition: `HighAvailability` (default), `Basic` or `cluster`. A Basic-edition instance can get " +
			"16K atomic write only at creation. " + categoryEffect,
		Validators:    []validator.String{stringvalidator.OneOf(categories...)},
		PlanModifiers: []planmodifier.String{categoryReplacesIf()},
	}
}

// categoryReplacesIf replaces the instance unless the change is the edition upgrade the cloud
// makes in place. The description avoids the framework's "destroy and recreate" wording, so
// replacingAttributes does not count category as always replacing (editionReplaces does).
func categoryReplacesIf() planmodifier.String {
	const desc = "A change of category replaces the instance, except Basic -> HighAvailability of MySQL, an upgrade in place."
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		if req.PlanValue.IsUnknown() || req.StateValue.IsNull() {
			resp.RequiresReplace = true
			return
		}
		var engine types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("engine"), &engine)...)
		resp.RequiresReplace = !inPlaceEdition(ctx, req.Private, engine, req.StateValue, req.PlanValue)
	}, desc, desc)
}

// inPlaceEdition reports whether a change of category from state to plan is made in place: the
// edition upgrade, or setting category back to the edition the instance runs while its upgrade
// waits for the window (the spec order for the window then cancels it).
func inPlaceEdition(ctx context.Context, private privateGetter, engine, state, plan types.String) bool {
	var diags diag.Diagnostics
	if from := scheduledFrom(ctx, private, &diags); from != nil && from.Category != "" && from.Category == plan.ValueString() {
		return true
	}
	return rdsservice.IsEditionUpgrade(engine.ValueString(), state.ValueString(), plan.ValueString())
}

// editionReplaces adds category to the attributes forcing a replacement when its change is not
// an edition upgrade in place.
func editionReplaces(ctx context.Context, private privateGetter, replace []string, state, plan instanceModel) []string {
	if plan.Category.Equal(state.Category) || slices.Contains(replace, rdsservice.AttrCategory) {
		return replace
	}
	if isKnown(plan.Category) && inPlaceEdition(ctx, private, state.Engine, state.Category, plan.Category) {
		return replace
	}
	out := append(slices.Clone(replace), rdsservice.AttrCategory)
	slices.Sort(out)
	return out
}

// planEdition: after an edition upgrade the instance has a standby, which the cloud reports in the
// primary's zone (simulator README, Editions) when zone_id_slave_a is not configured.
func planEdition(dec rdsservice.Decision, config instanceModel, plan *instanceModel) {
	if dec.Order.Category == nil || dec.Deferred || isKnown(config.ZoneIDSlaveA) {
		return
	}
	plan.ZoneIDSlaveA = plan.ZoneID
}
