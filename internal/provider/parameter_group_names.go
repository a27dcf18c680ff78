package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_parameter_group's names (G7, unique in the region) and its create in the journal (G8, a
// killed create adopted by its name), rdsservice/parameter_group_names.go deciding both.

const (
	parameterGroupKind   = "rds_parameter_group"
	actionCreateParamGrp = "CreateParameterGroup"
)

// groupNameVerdict reads the region's groups and decides G7 and G8 for the name: the group that
// holds it, the interrupted create of this configuration that made it, and the entries a create
// now resolves.
func (p *ProviderData) groupNameVerdict(ctx context.Context, name, self string, config tfsdk.Config) (taken *rdsapi.ParameterGroup, adopt *rdsservice.JournalEntry, resolved []rdsservice.JournalEntry, err error) {
	groups, err := p.API.DescribeParameterGroups(ctx, &rdsapi.DescribeParameterGroupsRequest{RegionID: p.Region})
	if err != nil {
		return nil, nil, nil, err
	}
	taken = rdsservice.GroupNamed(groups, name, self)
	if key := configKey(parameterGroupKind, config); self == "" && p.Journal != nil && key != "" {
		resolved = p.Journal.Interrupted(parameterGroupKind, key)
		adopt = rdsservice.AdoptableGroup(taken, resolved, time.Now())
	}
	return taken, adopt, resolved, nil
}

// groupNameProblems is G7/G8 in the plan of a new group or a rename (no call otherwise).
func (r *parameterGroupResource) groupNameProblems(ctx context.Context, req resource.ModifyPlanRequest, m parameterGroupModel) []rdsservice.Problem {
	var prior types.String
	if !isKnown(m.Name) || (!req.State.Raw.IsNull() && !req.State.GetAttribute(ctx, path.Root(rdsservice.AttrName), &prior).HasError() && prior.Equal(m.Name)) {
		return nil
	}
	taken, adopt, _, err := r.data.groupNameVerdict(ctx, m.Name.ValueString(), m.ID.ValueString(), req.Config)
	if err != nil {
		call := "DescribeParameterGroups " + r.data.Region
		return []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleParamFactsUnreadable, call, call, err.Error())}
	}
	return rdsservice.CheckGroupName(m.Name.ValueString(), r.data.Region, taken, adopt, parameterGroupKind, r.data.Journal.Dir())
}

// claimGroupCreate decides again, at apply, what the plan showed and records the create before
// it is sent: the group to adopt (its id as the state to update), or nil for a new one. ok is
// false when nothing must be sent (diags say why).
func (r *parameterGroupResource) claimGroupCreate(ctx context.Context, plan parameterGroupModel, config tfsdk.Config, diags *diag.Diagnostics) (adopted *parameterGroupModel, claim *createClaim, ok bool) {
	taken, adopt, resolved, err := r.data.groupNameVerdict(ctx, plan.Name.ValueString(), "", config)
	if err != nil {
		diags.AddError("Error listing the RDS parameter groups", fmt.Sprintf("DescribeParameterGroups: %v; nothing was created. Apply again.", err))
		return nil, nil, false
	}
	if addProblems(diags, rdsservice.CheckGroupName(plan.Name.ValueString(), r.data.Region, taken, adopt, parameterGroupKind, r.data.Journal.Dir())); diags.HasError() {
		return nil, nil, false
	}
	if claim = beginClaim(r.data, parameterGroupKind, configKey(parameterGroupKind, config), actionCreateParamGrp, resolved, diags); claim == nil {
		return nil, nil, false
	}
	if adopt != nil {
		claim.accepted(taken.ID)
		return &parameterGroupModel{ID: types.StringValue(taken.ID)}, claim, true
	}
	return nil, claim, true
}
