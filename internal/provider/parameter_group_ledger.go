package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A group changed in the same run as the instances that use it (P8): the group's plan records its
// planned parameters in the run's ledger (rdsservice.Ledger.RecordGroup).

// recordPlannedGroup is the group's plan's entry: an existing group whose update is planned.
func (p *ProviderData) recordPlannedGroup(ctx context.Context, req resource.ModifyPlanRequest, m parameterGroupModel, unknownNames map[string]bool, diags *diag.Diagnostics) {
	if req.State.Raw.IsNull() || !isKnown(m.ID) {
		return
	}
	var values map[string]string
	if len(unknownNames) == 0 {
		values = stringMap(ctx, m.Parameters, diags)
	}
	p.plans.RecordGroup(m.ID.ValueString(), values)
}

// appliedGroupValues is parameter_group_values after an apply whose plan did not know it (a group
// created in the same run): the group as the cloud has it now.
func appliedGroupValues(ctx context.Context, api rdsapi.API, group types.String, own, planned types.Map, diags *diag.Diagnostics) types.Map {
	if !planned.IsUnknown() {
		return planned
	}
	if !isKnown(group) || group.ValueString() == "" {
		return types.MapNull(types.StringType)
	}
	g, err := api.DescribeParameterGroup(ctx, group.ValueString())
	if err != nil {
		diags.AddError("Error reading the RDS parameter group", "DescribeParameterGroup "+group.ValueString()+": "+err.Error())
		return types.MapNull(types.StringType)
	}
	return stringMapValue(rdsservice.GroupValuesApplied(g.Parameters, stringMap(ctx, own, diags)), diags)
}
