package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// checkConfig checks what the configuration alone decides. It runs in the plan, not in
// ValidateConfig: Terraform stops before planning when validation fails, and the plan's other
// refusals would then surface one plan later (issue 41 §2.12). Unknown values are skipped here;
// the apply plans again once they are known.
func checkConfig(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	var config instanceModel
	if diags.Append(instanceCodec.Get(ctx, req.Config.Raw, &config)...); diags.HasError() {
		return
	}
	diags.Append(validateConfigModel(ctx, config)...)
	addProblems(diags, rdsservice.CheckSecurityConfig(valBool(config.TDEEnabled), valString(config.TDEEncryptionKey), valString(config.TDERoleArn)))
	addProblems(diags, rdsservice.CheckMinorVersionConfig(valString(config.TargetMinorVersion)))
}

// ModifyPlan shows the planner's decision: computed values, errors, and the restart, replacement
// or guard it names. Every refusal of the plan is reported at once: the configuration's own
// checks, tags and the planner's rules.
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() {
		checkConfig(ctx, req, &resp.Diagnostics)
	}
	recordPlannedConfig(ctx, req, resp) // planned_config.go: the apply decides from it
	warnUnrefreshed(ctx, req, &resp.Diagnostics)
	planReleasedKeep(ctx, req, &resp.Diagnostics)
	tagsAll := planTags(ctx, r.data, req, resp, 1)
	lookupCtx, cancel, proceed := planPreamble(ctx, r.data, req, resp, nil)
	defer cancel()
	if !proceed {
		return
	}
	var decoded diag.Diagnostics
	plan, config, state := planModels[instanceModel](ctx, req, &decoded)
	if resp.Diagnostics.Append(decoded...); decoded.HasError() {
		return
	}
	plan.TagsAll = tagsAll
	var replace []string
	if state != nil {
		replace = zoneReplaces(versionReplaces(ctx, req.Private, replacedBySchema(ctx, r, req), state.Engine, state.EngineVersion, plan.EngineVersion), plan)
		replace = editionReplaces(ctx, req.Private, replace, *state, plan)
	}
	from := scheduledFrom(ctx, req.Private, &resp.Diagnostics)
	dec, d := r.decide(lookupCtx, priorForPlan(state, from), config, plan, replace, from != nil)
	resp.Diagnostics.Append(d...)
	r.data.decided(dec)
	addProblems(&resp.Diagnostics, dec.Problems)
	if dec.Action == rdsservice.ActionReplace {
		// Terraform plans the new instance in a second call, without prior state.
		r.data.plans.replaced.record(state.ID.ValueString(), valInt(plan.Storage))
		return
	}
	plan.AtomicWrite16K = boolOf(dec.AtomicWrite)
	plan.AtomicWrite16KSupported = boolOf(dec.AtomicWriteSupported)
	plan.BufferPoolExtension = boolOf(dec.BufferPoolExtension)
	plan.InstructionSetArch = stringOf(dec.Architecture)
	plan.Status = stringOf(dec.Status)
	plan.StorageActual = plannedStorageActual(ctx, state, plan, dec, &resp.Diagnostics)
	plan.LockMode = plannedLockMode(plan.LockMode, state != nil)
	plan.ParametersPending = plannedPending(config.Parameters, dec.Parameters, &resp.Diagnostics)
	planSecurityValues(state, config, &plan)
	r.planMinorValues(state, config, dec, &plan)
	planPlacement(dec, &plan)
	planEdition(dec, config, &plan)
	plan.ExpireTime = plannedExpireTime(ctx, state, plan, &resp.Diagnostics)
	if state == nil {
		planInterruptedCreate(lookupCtx, r.data, "rds_instance", req.Config, &resp.Diagnostics)
		plan.PurchaseTime = stringOf(dec.PurchaseTime)
		plan.ReadOnlyInstanceIDs = types.ListValueMust(types.StringType, nil)
		if config.SecurityIPs.IsNull() {
			plan.SecurityIPs = types.SetValueMust(types.StringType, []attr.Value{types.StringValue(defaultSecurityIP)})
		}
	} else {
		r.planExisting(ctx, req, dec, *state, from, &plan, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// planExisting plans an existing instance's scheduled change and records what its read-only
// instances plan against this run (the flag they will see, the storage, a deferred toggle).
func (r *instanceResource) planExisting(ctx context.Context, req resource.ModifyPlanRequest, dec rdsservice.Decision, state instanceModel,
	from *specValues, plan *instanceModel, diags *diag.Diagnostics) {
	flag := dec.AtomicWrite
	if dec.Deferred {
		// Nothing changes during this apply: read-only instances plan with the current value.
		flag = valBool(priorForPlan(&state, from).AtomicWrite16K)
	}
	plan.ScheduledChange = plannedScheduledChange(dec, state.ScheduledChange, from, specOf(plan.specFields()), isKnown(plan.InstanceType))
	id := state.ID.ValueString()
	r.data.plans.record(id, flag)
	r.data.plans.storage.record(id, valInt(plan.Storage))
	if s := rdsservice.PlannedScheduledFlag(dec, r.data.cloudNow()); s != nil {
		r.data.plans.recordScheduled(id, s)
	}
	if replacesPendingTask(dec) {
		r.data.plans.replacesTask.add(id) // pending_follow.go
	}
	recordFollowers(r.data, id, dec.Followers)
	if dec.Deferred && dec.ZoneMove != nil {
		r.data.plans.zoneMoves.add(id)
	}
	warnIncompleteCreate(ctx, req.Private, id, state, *plan, diags)
}

// ---- the planner's inputs ----

// decide fetches the facts the planner needs and calls it. config tells "unset" from a value;
// plan carries defaults; state is nil for a create; replace lists what Terraform replaces for.
func (r *instanceResource) decide(ctx context.Context, state *instanceModel, config, plan instanceModel, replace []string, specPending bool) (rdsservice.Decision, diag.Diagnostics) {
	var diags diag.Diagnostics
	in := r.planInput(ctx, state, config, plan, replace, &diags)
	in.Facts.SpecChangePending = specPending
	return rdsservice.Plan(in), diags
}

// planInput is the planner's input: the desired values, the prior state, and the facts read
// from the cloud (restore source, read-only instances, parameters, class catalogue).
func (r *instanceResource) planInput(ctx context.Context, state *instanceModel, config, plan instanceModel, replace []string, diags *diag.Diagnostics) rdsservice.PlanInput {
	in := rdsservice.PlanInput{Role: rdsservice.RolePrimary, Label: "the new instance", Desired: desiredInstance(config, plan),
		Facts: rdsservice.Facts{Now: r.data.cloudNow()}, Replace: replace}
	if name := stringIfKnown(plan.InstanceName); name != "" {
		in.Label = fmt.Sprintf("the new instance %q", name)
	}
	priorGroup := types.StringNull()
	if state != nil && len(replace) == 0 {
		priorGroup = state.ParameterGroupID
	}
	in.Desired.Parameters.Group = r.data.groupParameters(ctx, plan.ParameterGroupID, priorGroup, diags)
	r.securityInput(ctx, state, config, &in, diags)
	in.Desired.Tags = primaryTagPlan(ctx, state, plan, diags)
	autoScaleWant(ctx, plan, &in, diags)
	sqlAuditInput(ctx, state, plan, &in, diags)
	in.Desired.Billing = billingPlanOf(ctx, state, plan, diags)
	if state == nil {
		r.cloneFacts(ctx, plan, &in, diags)
		in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, "", stringIfKnown(plan.Engine),
			stringIfKnown(plan.EngineVersion), stringIfKnown(plan.Category), types.MapNull(types.StringType), types.MapNull(types.StringType))
		r.askClasses(ctx, plan, nil, &in)
		return in
	}
	purchase := state.PurchaseTime
	if !isKnown(purchase) || purchase.ValueString() == "" {
		purchase = state.CreationTime
	}
	prior := existingFrom(instanceLabel(*state), state.view(), purchase)
	in.Prior, in.Label = &prior, prior.ID
	autoScalePrior(ctx, *state, &in, diags)
	in.Desired.InPlaceChanges = settingsOfModel(ctx, plan, diags).Changes(settingsOfModel(ctx, *state, diags))
	r.minorFacts(ctx, state, config, &in, diags)
	if len(in.Replace) > 0 {
		// The new instance's parameters decide whether it restarts right after creation.
		in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, "", stringIfKnown(plan.Engine),
			stringIfKnown(plan.EngineVersion), stringIfKnown(plan.Category), types.MapNull(types.StringType), types.MapNull(types.StringType))
		return in
	}
	r.readOnlyInput(ctx, state, config, plan, &in)
	if movesZone(*state, config) {
		placementFacts(ctx, r.data, *state, &in)
	}
	in.Desired.Parameters.Recorded = state.Parameters.Equal(config.Parameters)
	in.Facts.Pending = pendingOf(ctx, state.ScheduledChange)
	in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, state.ID.ValueString(), state.Engine.ValueString(),
		parameterVersion(state.Engine, state.EngineVersion, plan.EngineVersion), state.Category.ValueString(), state.Parameters, state.ParametersPending)
	r.askClasses(ctx, plan, state, &in)
	return in
}

// desiredInstance is what the configuration (and, for what Terraform plans itself, the plan) asks of a primary.
func desiredInstance(config, plan instanceModel) rdsservice.Desired {
	return rdsservice.Desired{
		Engine: valString(plan.Engine), EngineVersion: valString(plan.EngineVersion), InstanceClass: valString(plan.InstanceType),
		StorageType: valString(plan.StorageType), Category: valString(plan.Category), Storage: valInt(plan.Storage),
		AtomicWrite: valBool(config.AtomicWrite16K), BufferPoolExtension: valBool(config.BufferPoolExtension),
		PreventRestart: plan.PreventRestart.ValueBool(), PreventRestartUnknown: plan.PreventRestart.IsUnknown(), Parameters: desiredParameters(config.Parameters),
		ApplyRestarts: plan.ApplyRestarts.ValueString(), MaintenanceWindow: valString(plan.MaintenanceWindow),
		Minor: desiredMinor(config), Placement: desiredPlacement(config),
	}
}

// readOnlyInput reads the read-only instances when the change concerns them: a flag turned on,
// storage grown, a major or minor version upgrade (and for a major one, the upgrades waiting for
// their windows).
func (r *instanceResource) readOnlyInput(ctx context.Context, state *instanceModel, config, plan instanceModel, in *rdsservice.PlanInput) {
	turningOn := isKnown(config.AtomicWrite16K) && config.AtomicWrite16K.ValueBool() && !state.AtomicWrite16K.ValueBool()
	growing := isKnown(plan.Storage) && plan.Storage.ValueInt64() > state.Storage.ValueInt64()
	if !turningOn && !growing && !upgradesEngine(state, plan) && !upgradesMinor(state, config) {
		return
	}
	in.Facts.ReadOnly, in.Facts.ReadOnlyError = readOnlyFacts(ctx, r.data, state.ID.ValueString())
	if upgradesEngine(state, plan) {
		rdsservice.ReadOnlyUpgradesWaiting(ctx, r.data.API, in.Facts.ReadOnly)
	}
}

// cloneFacts reads the restore source of a new clone.
func (r *instanceResource) cloneFacts(ctx context.Context, plan instanceModel, in *rdsservice.PlanInput, diags *diag.Diagnostics) {
	restore := plan.restoreFrom(ctx, diags)
	if restore == nil {
		return
	}
	in.Role = rdsservice.RoleClone
	in.Desired.RestoreTime = valString(restore.RestoreTime)
	if !isKnown(restore.SourceInstanceID) {
		return
	}
	srcID := restore.SourceInstanceID.ValueString()
	in.Label = "the new clone of " + srcID
	src, err := r.data.API.DescribeDBInstanceAttribute(ctx, srcID)
	if err != nil {
		in.Facts.SourceError = fmt.Sprintf("%s: %v", srcID, err)
		return
	}
	// "Now" for the restore time is the cloud's, as the answer just read says (its Date header),
	// at plan and at apply alike; not this machine's clock, nor an older answer's.
	in.Facts.Now = r.data.cloudNow()
	source, err := rdsservice.ExistingFromAttribute(src)
	if err != nil {
		in.Facts.SourceError = err.Error()
		return
	}
	// Terraform plans the clone after the source it references: when this run changes the
	// source's flag, the clone is made from the source as changed.
	if planned := r.data.plans.lookup(srcID); planned.IsKnown() {
		source.Enabled = planned.Value()
	}
	in.Facts.Source = &source
}

// askClasses asks the class catalogue for a new instance, or when the class or storage type changes.
func (r *instanceResource) askClasses(ctx context.Context, plan instanceModel, state *instanceModel, in *rdsservice.PlanInput) {
	if state != nil && plan.InstanceType.Equal(state.InstanceType) && plan.StorageType.Equal(state.StorageType) && plan.ZoneID.Equal(state.ZoneID) &&
		plan.Category.Equal(state.Category) {
		return
	}
	if !isKnown(plan.Engine) || !isKnown(plan.EngineVersion) || !isKnown(plan.StorageType) || !isKnown(plan.Category) || !isKnown(plan.InstanceType) {
		return
	}
	zone := stringIfKnown(plan.ZoneID)
	if state != nil && zone == "" {
		zone = state.ZoneID.ValueString()
	}
	in.Facts.Classes = classFacts(ctx, r.data, rdsapi.DescribeAvailableClassesRequest{
		ZoneID: zone, Engine: plan.Engine.ValueString(), EngineVersion: plan.EngineVersion.ValueString(),
		DBInstanceStorageType: plan.StorageType.ValueString(), Category: plan.Category.ValueString(),
	})
}

// readOnlyFacts reads the primary, then each of its read-only instances. One that cannot be read is
// still listed (as eligible and off): better a warning that is too broad than a silent restart.
func readOnlyFacts(ctx context.Context, data *ProviderData, primaryID string) ([]rdsservice.ExistingInstance, string) {
	primary, err := data.API.DescribeDBInstanceAttribute(ctx, primaryID)
	if err != nil {
		return nil, err.Error()
	}
	var ros []rdsservice.ExistingInstance
	var errs []error
	for _, roID := range primary.ReadOnlyDBInstanceIDs {
		if data.plans.released.has(roID) {
			continue // gone before the primary's update (readonly_released.go)
		}
		attr, err := data.API.DescribeDBInstanceAttribute(ctx, roID)
		if rdsapi.IsNotFound(err) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			ros = append(ros, rdsservice.ExistingInstance{ID: roID, Supported: true})
			continue
		}
		ro, err := rdsservice.ExistingFromAttribute(attr)
		if err != nil {
			errs = append(errs, err)
		}
		ros = append(ros, ro)
	}
	if err := errors.Join(errs...); err != nil {
		return ros, err.Error()
	}
	return ros, ""
}
