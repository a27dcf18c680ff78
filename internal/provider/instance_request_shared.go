package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// sharedParts are the attributes both instance resources' plan requests read alike.
type sharedParts struct {
	tags       tagValues
	group      types.String
	endpoints  endpointParts
	parameters types.Map
	scheduled  types.Object
}

// sharedModel is an instance resource's model as sharedRequest reads it.
type sharedModel interface {
	instanceModel | readonlyInstanceModel
	shared() sharedParts
}

func (m instanceModel) shared() sharedParts {
	return sharedParts{tagValues{m.TagsAll, m.ResourceGroupID}, m.ParameterGroupID, m.endpointParts(), m.Parameters, m.ScheduledChange}
}

func (m readonlyInstanceModel) shared() sharedParts {
	return sharedParts{tagValues{m.TagsAll, m.ResourceGroupID}, m.ParameterGroupID, m.endpointParts(), m.Parameters, m.ScheduledChange}
}

// sharedRequest sets what both instance resources' requests take alike: the replacement, a spec
// change waiting for the window, the tags (createCarriesTags: the create call sends them), the
// endpoints, the parameter group, and for an instance kept in place its pending task and whether
// its state holds the configured parameters.
func sharedRequest[M sharedModel](ctx context.Context, m modelRequest[M], createCarriesTags bool, in *rdsservice.PlanInput, req *rdsservice.InstanceRequest,
	diags *diag.Diagnostics) {
	config, plan := m.config.shared(), m.plan.shared()
	req.Replaced, in.Facts.SpecChangePending = m.replace, m.specPending
	req.Group = rdsservice.GroupQuery{ID: valString(plan.group)}
	if m.state == nil {
		in.Desired.Tags = tagPlanOf(ctx, plan.tags, noTags, createCarriesTags, diags)
		in.Desired.Endpoints = endpointPlanOf(ctx, nil, config.endpoints, diags)
		return
	}
	state := (*m.state).shared()
	in.Desired.Tags = tagPlanOf(ctx, plan.tags, state.tags, false, diags)
	in.Desired.Endpoints = endpointPlanOf(ctx, &state.endpoints, config.endpoints, diags)
	if len(m.replace) == 0 {
		req.Group.PriorID = state.group.ValueString()
		in.Facts.Pending = pendingOf(ctx, state.scheduled)
		in.Desired.Parameters.Recorded = state.parameters.Equal(config.parameters)
	}
}

// plannedParts point at the computed attributes both instance resources plan alike, and hold the
// planned parameter_group_id.
type plannedParts struct {
	atomicWrite, atomicWriteSupported *types.Bool
	architecture, status              *types.String
	pending, groupValues, tagsAll     *types.Map
	groupID                           types.String
	endpoints                         endpointParts
}

// writeShared writes the decision's values both instance resources plan alike.
func writeShared(p plannedParts, config sharedParts, dec rdsservice.Decision, diags *diag.Diagnostics) {
	*p.atomicWrite, *p.atomicWriteSupported = boolOf(dec.AtomicWrite), boolOf(dec.AtomicWriteSupported)
	*p.architecture, *p.status = stringOf(dec.Architecture), stringOf(dec.Status)
	*p.pending = mapValue(rdsservice.PlannedPending(!config.parameters.IsNull(), dec.Parameters), diags)
	*p.groupValues = mapValue(rdsservice.PlannedGroupValues(dec.Parameters, valString(p.groupID)), diags)
	planEndpointValues(dec, config.endpoints, p.endpoints)
}
