package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// planKind is one instance resource's part of the ModifyPlan both share (modifyPlan), as
// instanceKind is of the apply.
type planKind interface {
	// before runs what the resource checks and records before planning (its configuration's own
	// checks, the planned configuration, a release), in its order.
	before(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// ownTags is planTags's count of the resource's own tag attributes.
	ownTags() int
	// resourceType names the resource in rdsservice's tables (replacement, planned attributes).
	resourceType() string
	// plan calls rdsservice with the plan's request m (state: the prior state as Terraform sent
	// it); ok false stops the plan.
	plan(ctx context.Context, env rdsservice.Env, m rdsservice.ModelRequest, state rdsservice.AttrValue, diags *diag.Diagnostics) (rdsservice.InstancePlan, bool)
}

// modifyPlan is the ModifyPlan of both instance resources: the plan's checks, one call to plan,
// and the decision's values (rdsservice.PlannedAttrs), problems and replacement written back.
// Every refusal of the plan is reported at once: the configuration's own checks, tags, the
// planner's rules and the create journal's.
func modifyPlan(ctx context.Context, k planKind, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	replace := planReplacement(ctx, k.resourceType(), req, resp) // replacement.go: first, so an unconfigured provider's plan still replaces
	k.before(ctx, req, resp)
	planTags(ctx, data, req, resp, k.ownTags()) // sets tags_all in resp.Plan
	lookupCtx, cancel, proceed := planPreamble(ctx, data, req, resp)
	defer cancel()
	if !proceed {
		return
	}
	state := attrValueOf(req.State.Raw)
	m := rdsservice.ModelRequest{Config: attrValueOf(req.Config.Raw), Plan: attrValueOf(resp.Plan.Raw), State: state, Replace: replace}.
		Running(scheduledFrom(ctx, req.Private, &resp.Diagnostics)) // the spec the instance runs while a change waits
	env := data.planEnv()
	out, ok := k.plan(lookupCtx, env, m, state, &resp.Diagnostics)
	if !ok {
		return
	}
	data.decided(out.Decision)
	addProblems(&resp.Diagnostics, out.Problems)
	if out.Action == rdsservice.ActionReplace {
		return // Terraform plans the new instance in a second call, without prior state
	}
	writePlanned(&resp.Plan, rdsservice.PlannedAttrs(k.resourceType(), m, out))
	if kind := k.resourceType(); state.IsNull() {
		addProblems(&resp.Diagnostics, rdsservice.PlanInterruptedCreate(lookupCtx, env, kind, rdsservice.InterruptedKey(kind, m.Config, req.Config.Raw.String())))
	} else {
		warnIncompleteCreate(ctx, req, resp)
	}
}
