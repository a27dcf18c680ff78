package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// planKind is one instance resource's part of the ModifyPlan both share (modifyPlan), as
// instanceKind is of the apply.
type planKind[M any] interface {
	// before runs what the resource checks and records before planning (its configuration's own
	// checks, the planned configuration, a release), in its order.
	before(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// ownTags is planTags's count of the resource's own tag attributes.
	ownTags() int
	// resourceType names the resource in rdsservice's replacement table.
	resourceType() string
	// plan calls rdsservice with the request of the model; ok false stops the plan.
	plan(ctx, lookupCtx context.Context, state *M, config, plan M, replace []string, from *specValues, diags *diag.Diagnostics) (rdsservice.InstancePlan, bool)
	// write sets the planned values in plan; false leaves the plan as Terraform proposed it.
	write(ctx, lookupCtx context.Context, req resource.ModifyPlanRequest, out rdsservice.InstancePlan, state *M, config M, plan *M, from *specValues,
		diags *diag.Diagnostics) bool
	// tagsAll points at the model's tags_all.
	tagsAll(m *M) *types.Map
}

// modifyPlan is the ModifyPlan of both instance resources: the plan's checks, one call to plan,
// and the decision's values, problems and replacement written back. Every refusal of the plan is
// reported at once: the configuration's own checks, tags and the planner's rules.
func modifyPlan[M any](ctx context.Context, k planKind[M], data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	replace := planReplacement(ctx, k.resourceType(), req, resp) // replacement.go: first, so an unconfigured provider's plan still replaces
	k.before(ctx, req, resp)
	tagsAll := planTags(ctx, data, req, resp, k.ownTags())
	lookupCtx, cancel, proceed := planPreamble(ctx, data, req, resp)
	defer cancel()
	if !proceed {
		return
	}
	var decoded diag.Diagnostics
	plan, config, state := planModels[M](ctx, req, &decoded)
	if resp.Diagnostics.Append(decoded...); decoded.HasError() {
		return
	}
	*k.tagsAll(&plan) = tagsAll
	from := scheduledFrom(ctx, req.Private, &resp.Diagnostics)
	out, ok := k.plan(ctx, lookupCtx, state, config, plan, replace, from, &resp.Diagnostics)
	if !ok {
		return
	}
	data.decided(out.Decision)
	addProblems(&resp.Diagnostics, out.Problems)
	if out.Action == rdsservice.ActionReplace {
		return // Terraform plans the new instance in a second call, without prior state
	}
	if k.write(ctx, lookupCtx, req, out, state, config, &plan, from, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	}
}
