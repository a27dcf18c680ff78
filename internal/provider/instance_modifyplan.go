package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// ModifyPlan shows the planner's decision: computed values, errors, and the restart, replacement
// or guard it names (modifyplan.go).
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyPlan[instanceModel](ctx, primaryPlan{r: r}, r.data, req, resp)
}

// primaryPlan is rds_instance's part of the shared ModifyPlan.
type primaryPlan struct{ r *instanceResource }

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

func (k primaryPlan) plan(c *planCall[instanceModel]) (rdsservice.InstancePlan, bool) {
	m, ok := c.attrRequest(instanceCodec)
	if !ok {
		return rdsservice.InstancePlan{}, false
	}
	request := rdsservice.PrimaryRequest(c.lookupCtx, k.r.data.API, m)
	if c.state != nil {
		request.Proposed.Scheduled = scheduledInputs(c.state.ScheduledChange, c.from, c.plan.specFields())
	}
	out := rdsservice.PlanInstance(c.lookupCtx, k.r.data.planEnv(), request)
	addReadFailures(c.diags, out.ReadFailures)
	return out, true
}

func (k primaryPlan) write(c *planCall[instanceModel], out rdsservice.InstancePlan) bool {
	dec, state, config, plan, diags := out.Decision, c.state, c.config, &c.plan, c.diags
	plan.BufferPoolExtension = boolOf(dec.BufferPoolExtension)
	setPlannedValues(out.Values, plan)
	v := rdsservice.PlannedPrimaryValues(dec, c.request, out.Values.SSLReissued)
	plan.SSLExpireTime, plan.ZoneID, plan.VSwitchID = stringValue(v.SSLExpire), stringValue(v.Zones.Zone), stringValue(v.Zones.VSwitch)
	plan.ZoneIDSlaveA, plan.ZoneIDSlaveB = stringValue(v.Zones.SlaveA), stringValue(v.Zones.SlaveB)
	if state != nil {
		plan.ScheduledChange = scheduledChangeOf(out.Values.ScheduledChange, state.ScheduledChange)
		warnIncompleteCreate(c, instanceCodec)
		return true
	}
	addProblems(diags, rdsservice.PlanInterruptedCreate(c.lookupCtx, k.r.data.planEnv(), rdsservice.ResourceInstance,
		rdsservice.InterruptedKey(rdsservice.ResourceInstance, c.request.Config, c.req.Config.Raw.String())))
	plan.PurchaseTime = stringOf(dec.PurchaseTime)
	plan.ReadOnlyInstanceIDs = types.ListValueMust(types.StringType, nil)
	if config.SecurityIPs.IsNull() {
		plan.SecurityIPs = types.SetValueMust(types.StringType, []attr.Value{types.StringValue(defaultSecurityIP)})
	}
	return true
}

func (primaryPlan) planned(m *instanceModel) plannedParts {
	return plannedParts{&m.AtomicWrite16K, &m.AtomicWrite16KSupported, &m.InstructionSetArch, &m.Status, &m.ParametersPending, &m.ParameterGroupValues,
		&m.TagsAll, m.ParameterGroupID, &m.Parameters, m.endpointParts()}
}

// ---- the planner's inputs ----
