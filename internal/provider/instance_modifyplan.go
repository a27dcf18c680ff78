package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// ModifyPlan shows the planner's decision: computed values, errors, and the restart, replacement
// or guard it names (modifyplan.go).
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyPlan(ctx, primaryPlan{}, r.data, req, resp)
}

// primaryPlan is rds_instance's part of the shared ModifyPlan.
type primaryPlan struct{}

func (primaryPlan) before(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // a destroy: no configuration to check or record
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckInstanceConfig(attrValueOf(req.Config.Raw)))
	recordPlannedConfig(ctx, req, resp) // planned_config.go: the apply decides from it
	warnUnrefreshed(ctx, req, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() { // the creation date rule waits for a plan with no other error
		addProblems(&resp.Diagnostics, rdsservice.CheckReleasedKeep(attrValueOf(req.Plan.Raw), attrValueOf(req.State.Raw), time.Now().UTC()))
	}
}

func (primaryPlan) ownTags() int { return 1 }

func (primaryPlan) resourceType() string { return rdsservice.ResourceInstance }

func (primaryPlan) plan(ctx context.Context, env rdsservice.Env, m rdsservice.ModelRequest, _ rdsservice.AttrValue, diags *diag.Diagnostics) (rdsservice.InstancePlan, bool) {
	out := rdsservice.PlanInstance(ctx, env, rdsservice.PrimaryRequest(ctx, env.API, m))
	addReadFailures(diags, out.ReadFailures)
	return out, true
}
