package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewBackupResource returns the rds_backup resource.
func NewBackupResource() resource.Resource {
	return &backupResource{resourceBase{typeName: "rds_backup"}}
}

// backupResource is one on-demand backup set (CreateBackup).
type backupResource struct {
	resourceBase
}

func replaceString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func (r *backupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An on-demand backup set of an RDS MySQL instance (`CreateBackup`), created and waited for. Its `backup_id` " +
			"restores a new instance (`rds_instance.restore_from.backup_id`). Destroying it deletes the set where RDS allows " +
			"(`DeleteBackup`: High-availability instances, sets whose retention rules let them go); otherwise the plan and the " +
			"destroy say that RDS keeps the set until it expires. A plan that deletes the set names it, and `prevent_data_loss` " +
			"refuses it. Every attribute but `prevent_data_loss` forces a new backup.",
		Attributes: map[string]schema.Attribute{
			"id": replaceString("`<instance_id>:<backup_id>`."),
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the primary instance to back up.",
				PlanModifiers: requiresReplace("rds_backup", rdsservice.AttrInstanceID)},
			rdsservice.AttrBackupMethod: schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsapi.BackupMethodPhysical),
				MarkdownDescription: "`Physical` (default), `Logical` (needs databases; required for single databases) or `Snapshot` (cloud disks).",
				PlanModifiers:       requiresReplace("rds_backup", rdsservice.AttrBackupMethod)},
			rdsservice.AttrBackupStrategy: schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(rdsapi.BackupStrategyInstance),
				MarkdownDescription: "`instance` (default): the whole instance; `db`: the databases in `db_names` (a logical backup).",
				PlanModifiers:       requiresReplace("rds_backup", rdsservice.AttrBackupStrategy)},
			rdsservice.AttrBackupDBNames: schema.SetAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Databases to back up, with `backup_strategy = \"db\"` only.",
				PlanModifiers:       requiresReplaceSet("rds_backup", rdsservice.AttrBackupDBNames)},
			"backup_id":         replaceString("Id of the backup set (`BackupId`): what `restore_from.backup_id` takes."),
			"backup_start_time": replaceString("When the backup started, UTC `yyyy-MM-ddTHH:mmZ`."),
			"backup_end_time":   replaceString("When it ended, UTC `yyyy-MM-ddTHH:mmZ`."),
			"backup_size":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Size of the set in bytes."},
			"store_status": schema.StringAttribute{Computed: true,
				MarkdownDescription: "`Enabled` when `DeleteBackup` may delete the set now, `Disabled` while RDS keeps it."},
			rdsservice.AttrPreventDataLoss: preventDataLossAttribute("this backup set (a destroy, or a change that makes a new backup)"),
		},
	}
}

func (r *backupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan backupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	id := plan.InstanceID.ValueString()
	// Re-checked before the write: the plan may not have known the instance.
	r.check(ctx, plan, true, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	breq := plan.request(ctx, &resp.Diagnostics)
	set := createBackupJournaled(ctx, r.data, backupKind, req.Config, &rdsapi.CreateBackupRequest{
		DBInstanceID: id, BackupMethod: breq.Method, BackupStrategy: breq.Strategy, DBNames: breq.DBNames,
	}, &resp.Diagnostics)
	if set == nil {
		return
	}
	plan.fill(set)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *backupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state backupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id, backupID := state.InstanceID.ValueString(), state.BackupID.ValueString()
	set, err := rdsservice.FindBackup(ctx, r.data.API, id, backupID)
	if err != nil && !rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddError("Error reading RDS backup", fmt.Sprintf("DescribeBackups %s on %s: %v", backupID, id, err))
		return
	}
	if set == nil {
		resp.Diagnostics.AddWarning("RDS backup set no longer exists",
			fmt.Sprintf("Backup set %s of %s is no longer listed (expired with the retention, deleted, or the instance is gone); it is removed from state and the next plan makes a new backup.", backupID, id))
		resp.State.RemoveResource(ctx)
		return
	}
	state.fill(set)
	state.PreventDataLoss = withPreventDataLoss(state.PreventDataLoss)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update only stores the plan: every configurable attribute forces a new backup.
func (r *backupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan backupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Delete runs the destroy's program: DeleteBackup where the API allows it; otherwise the warning
// that RDS keeps the set, and no write.
func (r *backupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state backupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	plan, err := rdsservice.PlanBackupDelete(ctx, r.data.API, state.InstanceID.ValueString(), state.BackupID.ValueString())
	switch {
	case err != nil:
		resp.Diagnostics.AddError("Error reading RDS backup", fmt.Sprintf("%s on %s: %v", plan.BackupID, plan.InstanceID, err))
		return
	case plan.Kept != nil:
		addProblems(&resp.Diagnostics, []rdsservice.Problem{*plan.Kept})
		return
	}
	if out := rdsservice.ExecuteBackupDelete(ctx, r.data.API, r.data.Waiter, plan); out.Err != nil {
		resp.Diagnostics.AddError("Error deleting RDS backup", out.Err.Error())
	}
}

// ValidateConfig checks the request's shape (no API call).
func (r *backupResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config backupModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if config.Method.IsNull() {
		config.Method = types.StringValue(rdsapi.BackupMethodPhysical)
	}
	if config.Strategy.IsNull() {
		config.Strategy = types.StringValue(rdsapi.BackupStrategyInstance)
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckBackup(config.request(ctx, &resp.Diagnostics), rdsservice.BackupFacts{}, rdsservice.BackupInstanceState{}))
}

// ModifyPlan checks the rules that need the instance, and on destroy says whether RDS keeps the set.
func (r *backupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	var state backupModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if req.Plan.Raw.IsNull() {
		r.planDelete(lookupCtx, state, state.PreventDataLoss.ValueBool(), &resp.Diagnostics)
		return
	}
	var plan backupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(planReplacement(ctx, "rds_backup", req, resp)) > 0 { // the old set is deleted
		r.planDelete(lookupCtx, state, plan.PreventDataLoss.ValueBool(), &resp.Diagnostics)
	}
	r.check(lookupCtx, plan, false, &resp.Diagnostics)
	if req.State.Raw.IsNull() && isKnown(plan.InstanceID) {
		planInterruptedBackup(lookupCtx, r.data, req.Config, plan.InstanceID.ValueString(), &resp.Diagnostics)
	}
}

// planDelete says what the destroy of the set in state does: RDS keeps the set (a warning), or
// DeleteBackup deletes it for good (the data-loss warning, or with prevent its refusal).
func (r *backupResource) planDelete(ctx context.Context, state backupModel, prevent bool, diags *diag.Diagnostics) {
	plan, err := rdsservice.PlanBackupDelete(ctx, r.data.API, state.InstanceID.ValueString(), state.BackupID.ValueString())
	switch {
	case err != nil:
	case plan.Kept != nil:
		addProblems(diags, []rdsservice.Problem{*plan.Kept})
	case plan.Loss != nil:
		addProblems(diags, rdsservice.GuardDataLoss(prevent, *plan.Loss))
	}
}

// check evaluates the rules with the instance's facts and state when the instance exists; at
// apply (applying) the warnings are left out: the plan showed them, and the apply waits.
func (r *backupResource) check(ctx context.Context, plan backupModel, applying bool, diags *diag.Diagnostics) {
	req := plan.request(ctx, diags)
	var facts rdsservice.BackupFacts
	var st rdsservice.BackupInstanceState
	if isKnown(plan.InstanceID) {
		attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, plan.InstanceID.ValueString())
		switch {
		case rdsapi.IsNotFound(err): // about to be created
		case err != nil:
			diags.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", plan.InstanceID.ValueString(), err))
			return
		default:
			facts = rdsservice.BackupFactsFromAttribute(attr)
			if st, err = rdsservice.ReadBackupInstanceState(ctx, r.data.API, attr, time.Now()); err != nil {
				diags.AddError("Error reading RDS backups", fmt.Sprintf("%s: %v", attr.DBInstanceID, err))
				return
			}
		}
	}
	problems := rdsservice.CheckBackup(req, facts, st)
	if applying {
		problems = errorsOnly(problems)
	}
	addProblems(diags, problems)
}

func errorsOnly(problems []rdsservice.Problem) []rdsservice.Problem {
	var out []rdsservice.Problem
	for _, p := range problems {
		if p.Severity == rdsservice.SeverityError {
			out = append(out, p)
		}
	}
	return out
}
