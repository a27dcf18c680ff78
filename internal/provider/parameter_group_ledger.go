package provider

import (
	"context"
	"maps"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A group changed in the same run as the instances that use it (P8). Terraform plans an
// rds_parameter_group before the instances whose parameter_group_id references it, in one provider
// process: the group's plan records its planned parameters here, and each instance's plan takes
// them instead of the group as the cloud has it still. The instance's parameter_group_values then
// changes in its plan, its restarts are named, and its apply (after the group's own update) sends
// ModifyParameter with ParameterGroupId again.

// plannedGroups are the parameters this run's plans give existing groups, by group id; nil values:
// known only at apply. The zero value is ready to use.
type plannedGroups struct {
	mu     sync.Mutex
	values map[string]map[string]string
}

func (g *plannedGroups) record(id string, values map[string]string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.values == nil {
		g.values = map[string]map[string]string{}
	}
	g.values[id] = maps.Clone(values)
}

func (g *plannedGroups) lookup(id string) (map[string]string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.values[id]
	return maps.Clone(v), ok
}

// recordPlannedGroup is the group's plan's entry: an existing group whose update is planned.
func (p *ProviderData) recordPlannedGroup(ctx context.Context, req resource.ModifyPlanRequest, m parameterGroupModel, unknownNames map[string]bool, diags *diag.Diagnostics) {
	if req.State.Raw.IsNull() || !isKnown(m.ID) {
		return
	}
	var values map[string]string
	if len(unknownNames) == 0 {
		values = stringMap(ctx, m.Parameters, diags)
	}
	p.groups.record(m.ID.ValueString(), values)
}

// plannedGroupValues is parameter_group_values in an instance's plan (the decision's).
func plannedGroupValues(dec rdsservice.ParameterDecision, group types.String, diags *diag.Diagnostics) types.Map {
	switch {
	case group.IsNull() || (isKnown(group) && group.ValueString() == ""):
		return types.MapNull(types.StringType)
	case !isKnown(group) || !dec.GroupValuesKnown || dec.GroupValues == nil:
		return types.MapUnknown(types.StringType)
	}
	return stringMapValue(dec.GroupValues, diags)
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

// groupReplanned tells an unchanged instance's plan to run the planner all the same: its group is
// changed by this run.
func groupReplanned(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest) bool {
	var group types.String
	if req.State.GetAttribute(ctx, path.Root("parameter_group_id"), &group).HasError() || !isKnown(group) {
		return false
	}
	_, ok := data.groups.lookup(group.ValueString())
	return ok
}
