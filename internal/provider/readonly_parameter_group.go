package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
