package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// readonlyParameterGroupIDAttribute is rds_readonly_instance's parameter_group_id (P8 in
// rdsservice): as rds_instance's, except at creation (CreateReadOnlyDBInstance has no
// DBParamGroupId).
func readonlyParameterGroupIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: "Id of an `rds_parameter_group` of the instance's " +
		"engine version to apply, with `ModifyParameter`'s `ParameterGroupId`: right after creation (`CreateReadOnlyDBInstance` " +
		"takes no group, so a value that needs a restart restarts the new instance once, named in the plan), and in place " +
		"whenever the group is new to the instance or one of its values is not what the instance runs, at once or in the " +
		"maintenance window per `apply_restarts`. **A parameter both in the group and in `parameters` takes the value of " +
		"`parameters`**, and the plan warns of each override. Removing the attribute stops applying the group: the instance " +
		"keeps its values. A group changed in the same run (its id referenced here) is planned first: this plan takes its " +
		"planned parameters and names the restart they cause."}
}

// groupInput gives the planner the read-only instance's group (P8), as rds_instance's planInput
// does; a failed read of the group is returned as failed parameter facts (the plan's refusal).
func (r *readonlyInstanceResource) groupInput(ctx context.Context, state *readonlyInstanceModel, plan readonlyInstanceModel, in *rdsservice.PlanInput) *rdsservice.ParameterFacts {
	prior := types.StringNull()
	if state != nil && len(in.Replace) == 0 {
		prior = state.ParameterGroupID
	}
	var diags diag.Diagnostics
	in.Desired.Parameters.Group = r.data.groupParameters(ctx, plan.ParameterGroupID, prior, &diags)
	if !diags.HasError() {
		return nil
	}
	in.Desired.Parameters.Group = &rdsservice.GroupParameters{ID: plan.ParameterGroupID.ValueString(), PriorID: prior.ValueString()}
	return &rdsservice.ParameterFacts{ErrorCall: "DescribeParameterGroup " + plan.ParameterGroupID.ValueString(), Error: diags.Errors()[0].Detail()}
}
