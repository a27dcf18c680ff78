package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Which attributes replace a resource is rdsservice's table (rdsservice/replacement.go): the
// schema's unconditional modifiers are built from it here, and ModifyPlan sets the conditional
// ones (an upgrade, an edition, a zone move the cloud makes in place) from rdsservice.Replaced.

// requiresReplace is the modifier the table gives resourceType's string attribute (none when its
// change never replaces, or replaces only when no path in place exists: planReplacement).
func requiresReplace(resourceType, attribute string) []planmodifier.String {
	switch rdsservice.Replacement(resourceType, attribute) {
	case rdsservice.ReplaceAlways:
		return []planmodifier.String{stringplanmodifier.RequiresReplace()}
	case rdsservice.ReplaceIfConfigured:
		return []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured()}
	}
	return nil
}

// requiresReplaceSet is requiresReplace for a set attribute (always replacing only).
func requiresReplaceSet(resourceType, attribute string) []planmodifier.Set {
	if rdsservice.Replacement(resourceType, attribute) == rdsservice.ReplaceAlways {
		return []planmodifier.Set{setplanmodifier.RequiresReplace()}
	}
	return nil
}

// requiresReplaceObject is requiresReplace for an object attribute (always replacing only).
func requiresReplaceObject(resourceType, attribute string) []planmodifier.Object {
	if rdsservice.Replacement(resourceType, attribute) == rdsservice.ReplaceAlways {
		return []planmodifier.Object{objectplanmodifier.RequiresReplace()}
	}
	return nil
}

// planReplacement lists the attributes forcing this plan's replacement of an existing object
// (rdsservice.Replaced), sets the conditional ones on the response (the schema's modifiers set
// the others) and shows the refusals of the decision. It runs first in ModifyPlan, so that a plan
// an unconfigured provider cannot finish still replaces.
func planReplacement(ctx context.Context, resourceType string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) []string {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return nil
	}
	var unread diag.Diagnostics // ModifyPlan reads the private state again and reports there
	replace, problems := rdsservice.Replaced(rdsservice.ReplaceInputOf(resourceType, attrValueOf(req.Plan.Raw), attrValueOf(req.State.Raw),
		attrValueOf(req.Config.Raw), scheduledFrom(ctx, req.Private, &unread)))
	addProblems(&resp.Diagnostics, problems)
	for _, name := range rdsservice.SetOnPlan(resourceType, replace) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
	}
	return replace
}
