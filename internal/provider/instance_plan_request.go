package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// The conversion of an rds_instance plan into rdsservice.PlanInstance's typed request, and of its
// answer back: the provider's whole share of planning an instance.

// planEnv is what a plan reads the cloud through (rdsservice.Env).
func (p *ProviderData) planEnv() rdsservice.Env {
	return rdsservice.Env{API: p.API, Region: p.Region, Now: p.cloudNow, Classes: &p.classes, Templates: &p.parameterTemplates, Ledger: &p.plans}
}

// instanceRequest is the typed request of one plan (modelRequest).
func (r *instanceResource) instanceRequest(ctx context.Context, m modelRequest[instanceModel], diags *diag.Diagnostics) rdsservice.InstanceRequest {
	state, config, plan, replace := m.state, m.config, m.plan, m.replace
	in := rdsservice.PlanInput{Role: rdsservice.RolePrimary, Label: "the new instance", Desired: desiredInstance(config, plan)}
	in.Facts.SpecChangePending, in.Facts.PendingClass = m.specPending, m.pendingClass
	if name := stringIfKnown(plan.InstanceName); name != "" {
		in.Label = fmt.Sprintf("the new instance %q", name)
	}
	priorGroup := types.StringNull()
	if state != nil && len(replace) == 0 {
		priorGroup = state.ParameterGroupID
	}
	in.Desired.Parameters.Group = r.data.groupParameters(ctx, plan.ParameterGroupID, priorGroup, diags)
	in.Desired.Security = rdsservice.DesiredSecurity{SSL: valBool(config.SSLEnabled), TDE: valBool(config.TDEEnabled),
		TDEKey: config.TDEEncryptionKey.ValueString(), TDERole: config.TDERoleArn.ValueString()}
	in.Desired.Tags = primaryTagPlan(ctx, state, plan, diags)
	settingsInput(ctx, state, plan, &in, diags)
	in.Desired.Endpoints = endpointPlanOf(ctx, r.data, stateID(state), stateEndpoints(state), config.endpointParts(), diags)
	in.Desired.Billing = billingPlanOf(ctx, state, plan, diags)
	access := plan.accessLists()
	access.SecurityIPs = config.SecurityIPs
	accessListsInput(ctx, r.data.API, priorAccess(state, replace), access, &in, diags)
	req := rdsservice.InstanceRequest{Replaced: replace, Proposed: proposedValues(state, config, plan), Zone: valString(plan.ZoneID),
		Parameters: rdsservice.ParameterQuery{Engine: stringIfKnown(plan.Engine), Version: stringIfKnown(plan.EngineVersion), Category: stringIfKnown(plan.Category)}}
	if state == nil {
		if restore := plan.restoreFrom(ctx, diags); restore != nil {
			in.Role, in.Desired.RestoreTime = rdsservice.RoleClone, valString(restore.RestoreTime)
			req.CloneSource = stringIfKnown(restore.SourceInstanceID)
			req.CrossRestore = restore.crossRestore()
		}
	} else {
		r.existingRequest(ctx, m, &in, &req, diags)
	}
	req.Input = in
	return req
}

// existingRequest adds an existing instance's prior state, and the facts its state holds, to the request.
func (r *instanceResource) existingRequest(ctx context.Context, m modelRequest[instanceModel], in *rdsservice.PlanInput, req *rdsservice.InstanceRequest,
	diags *diag.Diagnostics) {
	state, config, plan := *m.state, m.config, m.plan
	purchase := state.PurchaseTime
	if !isKnown(purchase) || purchase.ValueString() == "" {
		purchase = state.CreationTime
	}
	prior := existingFrom(instanceLabel(state), state.view(), purchase)
	prior.MinorVersion, prior.AutoUpgradeMinorVersion = state.MinorVersion.ValueString(), state.AutoUpgradeMinorVersion.ValueString()
	in.Prior, in.Label = &prior, prior.ID
	req.ID, req.PriorZone, req.PriorPlacement, req.VPC = state.ID.ValueString(), valString(state.ZoneID), statePlacement(state), state.VpcID.ValueString()
	req.KeepPolicy = state.ReleasedKeepPolicy.ValueString()
	req.PriorSecurity = &rdsservice.SecurityState{SSL: valBool(state.SSLEnabled), TDE: valBool(state.TDEEnabled),
		TDEKey: state.TDEEncryptionKey.ValueString(), TDERole: state.TDERoleArn.ValueString()}
	autoScalePrior(ctx, state, in, diags)
	in.Desired.InPlaceChanges = settingsOfModel(ctx, plan, diags).Changes(settingsOfModel(ctx, state, diags))
	if len(req.Replaced) > 0 {
		return // the new instance's parameters decide whether it restarts right after creation
	}
	in.Desired.Parameters.Recorded = state.Parameters.Equal(config.Parameters)
	in.Facts.Pending = pendingOf(ctx, state.ScheduledChange)
	req.Parameters = parameterQuery(ctx, rdsservice.ParameterQuery{InstanceID: state.ID.ValueString(), Engine: state.Engine.ValueString(),
		Version: parameterVersion(state.Engine, state.EngineVersion, plan.EngineVersion), Category: state.Category.ValueString()}, state.Parameters, state.ParametersPending)
}

// settingsInput sets the planner's configured storage_auto_scale, sql_audit, prevent_data_loss,
// ha_config, monitoring_period and sync_mode, and for an update the ones in state (read back).
func settingsInput(ctx context.Context, state *instanceModel, plan instanceModel, in *rdsservice.PlanInput, diags *diag.Diagnostics) {
	d := &in.Desired
	d.AutoScale.Want, d.AutoScale.WantUnknown = autoScaleOf(ctx, plan.StorageAutoScale, diags)
	d.SQLAudit.Want, d.SQLAudit.Configured, d.SQLAudit.WantUnknown = sqlAuditOf(ctx, plan.SQLAudit, diags)
	d.HASwitch.Want, d.HASwitch.Configured, d.HASwitch.WantUnknown = haSwitchOf(ctx, plan.HAConfig, diags)
	d.PreventDataLoss = plan.PreventDataLoss.ValueBool()
	d.Monitoring.Configured, d.Monitoring.WantUnknown = !plan.MonitoringPeriod.IsNull(), plan.MonitoringPeriod.IsUnknown()
	d.SyncMode.Configured, d.SyncMode.WantUnknown = !plan.SyncMode.IsNull(), plan.SyncMode.IsUnknown()
	d.Monitoring.Want, d.SyncMode.Want = plan.MonitoringPeriod.ValueInt64(), plan.SyncMode.ValueString()
	if state == nil {
		return
	}
	if prior, configured, _ := sqlAuditOf(ctx, state.SQLAudit, diags); configured {
		d.SQLAudit.Prior = &prior
	}
	if prior, configured, unknown := haSwitchOf(ctx, state.HAConfig, diags); configured && !unknown {
		d.HASwitch.Prior = &prior
	}
	if isKnown(state.MonitoringPeriod) {
		d.Monitoring.Prior = ptr(state.MonitoringPeriod.ValueInt64())
	}
	if isKnown(state.SyncMode) {
		d.SyncMode.Prior = state.SyncMode.ValueString()
	}
}

// proposedValues are the computed values as proposed and the prior state's, for the planned values.
func proposedValues(state *instanceModel, config, plan instanceModel) rdsservice.ProposedValues {
	p := rdsservice.ProposedValues{StorageActual: valInt(plan.StorageActual), LockMode: valString(plan.LockMode),
		BillingUnknown: plan.Billing.IsUnknown(), RestoreFrom: !config.RestoreFrom.IsNull()}
	if state != nil {
		p.PriorStorageActual, p.PriorExpireTime, p.PriorMinorVersion = valInt(state.StorageActual), valString(state.ExpireTime), valString(state.MinorVersion)
	}
	return p
}

// scheduledInputs are what scheduled_change is planned from: the prior state's, the spec before
// its task (private state) and the spec planned.
func scheduledInputs(current types.Object, from *specValues, requested specFields) rdsservice.ScheduledInputs {
	return rdsservice.ScheduledInputs{Recorded: isKnown(current), From: from, Requested: specOf(requested), RequestedKnown: isKnown(*requested.InstanceType)}
}

// scheduledChangeOf is the planned scheduled_change as a Terraform value.
func scheduledChangeOf(c rdsservice.ScheduledChange, current types.Object) types.Object {
	switch c {
	case rdsservice.ScheduledUnknown:
		return types.ObjectUnknown(scheduledChangeAttrTypes)
	case rdsservice.ScheduledNone:
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	return current
}

// setPlannedValues writes the planned computed values into the plan.
func setPlannedValues(v rdsservice.PlannedValues, plan *instanceModel) {
	plan.StorageActual = int64Value(v.StorageActual)
	plan.LockMode = stringValue(v.LockMode)
	plan.ExpireTime = stringValue(v.ExpireTime)
	plan.MinorVersion = stringValue(v.MinorVersion)
}

// addReadFailures reports the facts the plan could not read.
func addReadFailures(diags *diag.Diagnostics, failures []rdsservice.ReadFailure) {
	for _, f := range failures {
		diags.AddError(f.Summary, f.Detail)
	}
}

// stringValue and int64Value are a typed value as a Terraform value (null stays null).
func stringValue(v rdsservice.Val[string]) types.String {
	switch {
	case v.IsNull():
		return types.StringNull()
	case v.IsUnknown():
		return types.StringUnknown()
	}
	return types.StringValue(v.Value())
}

// mapValue is a planned map as a Terraform value.
func mapValue(v rdsservice.MapValue, diags *diag.Diagnostics) types.Map {
	switch {
	case v.Null:
		return types.MapNull(types.StringType)
	case v.Unknown:
		return types.MapUnknown(types.StringType)
	}
	return stringMapValue(v.Values, diags)
}

func int64Value(v rdsservice.Val[int64]) types.Int64 {
	switch {
	case v.IsNull():
		return types.Int64Null()
	case v.IsUnknown():
		return types.Int64Unknown()
	}
	return types.Int64Value(v.Value())
}
