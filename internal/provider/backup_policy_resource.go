package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewBackupPolicyResource returns the rds_backup_policy resource.
func NewBackupPolicyResource() resource.Resource {
	return &backupPolicyResource{resourceBase{typeName: "rds_backup_policy"}}
}

// backupPolicyResource is the backup policy of one instance: it always exists, so creating the
// resource adopts it and destroying the resource leaves it as it is.
type backupPolicyResource struct {
	resourceBase
}

// policyString and policyInt are attributes that keep the cloud's value when the configuration leaves them out.
func policyString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func policyInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
}

func (r *backupPolicyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The backup policy of an RDS MySQL instance: data backups and log backups (`ModifyBackupPolicy` in both " +
			"modes). Every instance has a policy, so creating this resource adopts it and changes only what the configuration " +
			"sets; an attribute left out keeps the cloud's value, shown in the plan. Destroying the resource leaves the policy " +
			"as it is. Every range, cross-field and edition rule is checked at plan time. Shortening `backup_retention_period` " +
			"below the age of existing sets deletes them at once: the plan names them, and `prevent_data_loss` refuses it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The instance id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the primary instance. Changing it manages another instance's policy.",
				PlanModifiers: requiresReplace("rds_backup_policy", rdsservice.AttrInstanceID)},
			rdsservice.AttrBackupTime: policyString("Daily data backup window, one hour in UTC: `HH:00Z-HH:00Z`, e.g. `02:00Z-03:00Z`."),
			rdsservice.AttrBackupPeriod: schema.SetAttribute{ElementType: types.StringType, Optional: true, Computed: true,
				MarkdownDescription: "Days of the week with a data backup, at least two: `Monday` ... `Sunday`.",
				PlanModifiers:       []planmodifier.Set{setplanmodifier.UseStateForUnknown()}},
			rdsservice.AttrBackupRetention: policyInt("Days data backups are kept: 7-730."),
			rdsservice.AttrBackupInterval: policyInt("Snapshot backup frequency in minutes: -1 (none) or 15, 30, 60, 120, 180, 240, 360, " +
				"480, 720 (`BackupInterval`). Needs cloud disks and `category = \"Standard\"`."),
			rdsservice.AttrBackupCategory: policyString("`Standard`, or `Flash` for single-digit-second backups (cloud disks)."),
			rdsservice.AttrCompressType: policyString("Backup compression (`CompressType`): `0` none, `1` zlib, `2` parallel zlib, " +
				"`4` QuickLZ (MySQL 5.6/5.7), `8` QuickLZ (MySQL 8.0)."),
			rdsservice.AttrArchiveRetention:  policyInt("Days archived backups are kept: 0 (archiving off) or 30-1095."),
			rdsservice.AttrArchiveKeepPolicy: policyString("Which sets are archived: `ByMonth`, `ByWeek` or `KeepAll`."),
			rdsservice.AttrArchiveKeepCount:  policyInt("Archived sets kept per period: 1-31 by month, 1-7 by week."),
			rdsservice.AttrLogBackupEnabled: schema.BoolAttribute{Optional: true, Computed: true,
				MarkdownDescription: "Whether log (binlog) backups are made (`EnableBackupLog`); they allow restores to a point in time.",
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			rdsservice.AttrLocalLogHours:       policyInt("Hours log backups stay on the instance: 0-168."),
			rdsservice.AttrLocalLogSpace:       policyInt("Largest share of the instance's storage (percent) log backups may use there: 0-50."),
			rdsservice.AttrHighSpaceProtection: policyString("`Enable` deletes local binlogs when storage runs short (usage over 80% or less than 5 GB free), `Disable` keeps them."),
			rdsservice.AttrLogRetention:        policyInt("Days log backups are kept: 7-730, not longer than `backup_retention_period`."),
			rdsservice.AttrLocalLogNumber:      policyInt("Binlog files kept on the instance: 6-100, or -1 for no limit."),
			rdsservice.AttrPreventDataLoss: preventDataLossAttribute("backup sets (a shorter `backup_retention_period` that deletes existing sets, " +
				"or a shorter `cross_region.retention_days` that deletes copies)"),
			rdsservice.AttrCrossRegion: crossRegionAttribute(),
		},
	}
}

func (r *backupPolicyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
}

func (r *backupPolicyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
}

// apply plans the change again from what the cloud holds now (rdsservice.PlanBackupPolicy), runs
// its calls with the one executor and stores the policy as read back.
func (r *backupPolicyResource) apply(ctx context.Context, getPlan func(context.Context, any) diag.Diagnostics, state stateSetter, diags *diag.Diagnostics) {
	var plan backupPolicyModel
	diags.Append(getPlan(ctx, &plan)...)
	if diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	id := plan.InstanceID.ValueString()
	decided, err := rdsservice.PlanBackupPolicy(ctx, r.data.API, rdsservice.BackupPolicyRequest{InstanceID: id, Region: r.data.Region, Desired: plan.spec})
	switch {
	case err != nil:
		diags.AddError("Error reading the RDS backup policy", err.Error())
		return
	case decided.Missing:
		diags.AddAttributeError(path.Root("instance_id"), "RDS instance not found", fmt.Sprintf("instance_id = %q: no such instance. Check the id.", id))
		return
	}
	if addProblems(diags, decided.Problems); diags.HasError() {
		return
	}
	if out := rdsservice.ExecuteBackupPolicy(ctx, r.data.API, r.data.Waiter, decided); out.Err != nil {
		diags.AddError("Error changing the RDS backup policy", fmt.Sprintf("%s, %s: %s", id, out.Step, rdsservice.OperationError(ctx, out.Err)))
		return
	}
	got, err := r.data.API.DescribeBackupPolicy(ctx, id)
	if err != nil {
		diags.AddError("Error reading the RDS backup policy", fmt.Sprintf("DescribeBackupPolicy %s: %v", id, err))
		return
	}
	plan.fill(rdsservice.BackupPolicyFromAPI(got))
	r.refreshCrossRegion(ctx, &plan, diags)
	diags.Append(state.Set(ctx, plan)...)
}

// stateSetter is the State of a create or update response.
type stateSetter interface {
	Set(context.Context, any) diag.Diagnostics
}

// readCloud reads the instance's facts and its policy; facts.Known is false (and current nil)
// when the instance does not exist.
func (r *backupPolicyResource) readCloud(ctx context.Context, id string, diags *diag.Diagnostics) (rdsservice.BackupFacts, *rdsservice.BackupPolicySpec, bool) {
	facts, current, err := rdsservice.ReadBackupPolicyState(ctx, r.data.API, id)
	if err != nil {
		diags.AddError("Error reading the RDS backup policy", err.Error())
		return facts, nil, false
	}
	return facts, current, true
}

func (r *backupPolicyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state backupPolicyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.InstanceID.ValueString()
	p, err := r.data.API.DescribeBackupPolicy(ctx, id)
	if rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddWarning("RDS instance no longer exists",
			fmt.Sprintf("Instance %s was not found; its backup policy is removed from state.", id))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading the RDS backup policy", fmt.Sprintf("DescribeBackupPolicy %s: %v", id, err))
		return
	}
	state.fill(rdsservice.BackupPolicyFromAPI(p))
	r.refreshCrossRegion(ctx, &state, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Delete sends nothing: the instance keeps its policy (the plan said so).
func (r *backupPolicyResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// ImportState imports by instance id.
func (r *backupPolicyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), req.ID)...)
}

// ValidateConfig checks every rule the configuration alone decides.
func (r *backupPolicyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config backupPolicyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckBackupPolicy(config.spec(nil), rdsservice.BackupFacts{}))
}

// ModifyPlan shows the cloud's values for what the configuration leaves out, checks the rules with
// the instance's facts, and says on destroy that the policy stays.
func (r *backupPolicyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		var state backupPolicyModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		id := state.InstanceID.ValueString()
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleBackupPolicyLeftAsIs, id, id)})
		return
	}
	if r.data == nil || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var plan backupPolicyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !isKnown(plan.InstanceID) {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	facts, current, ok := r.readCloud(lookupCtx, plan.InstanceID.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = plan.InstanceID
	if current != nil && !facts.ReadOnly {
		plan.fillUnknown(*current)
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckBackupPolicy(plan.spec(current), facts))
	crossCall := false
	if current != nil && !facts.ReadOnly {
		r.planRetentionLoss(lookupCtx, plan, *current, &resp.Diagnostics)
		crossCall = r.planCrossRegion(lookupCtx, plan, &resp.Diagnostics)
	}
	addProblems(&resp.Diagnostics, rdsservice.PolicyStateProblems(facts, current, plan.spec(current), crossCall))
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// planRetentionLoss names the backup sets a shorter backup_retention_period deletes, or with
// prevent_data_loss refuses the plan.
func (r *backupPolicyResource) planRetentionLoss(ctx context.Context, plan backupPolicyModel, current rdsservice.BackupPolicySpec, diags *diag.Diagnostics) {
	loss, err := rdsservice.PlanRetentionLoss(ctx, r.data.API, plan.InstanceID.ValueString(), current, plan.spec(&current), r.data.cloudNow())
	switch {
	case err != nil:
		diags.AddError("Error reading the RDS backup sets", err.Error())
	case loss != nil:
		addProblems(diags, rdsservice.GuardDataLoss(plan.PreventDataLoss.ValueBool(), *loss))
	}
}
