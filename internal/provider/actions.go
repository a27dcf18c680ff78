package provider

// Provider-defined actions (Terraform 1.14+): one-off operations people script today, run with
// `terraform apply -invoke=action.rds_restart.name` or from a resource's `action_trigger`.
// rds_restart names the restart in the plan as the resources do and honours prevent_restart;
// rds_backup_now takes nothing out of service; rds_renew names the subscription it buys. The operations themselves are rdsservice's
// (instance_actions.go, executor_backup.go): the same waits and busy retries as every write.

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var _ provider.ProviderWithActions = (*RDSProvider)(nil)

// actionTimeout bounds one action's run, waits included.
const actionTimeout = 60 * time.Minute

// Actions lists the provider's actions.
func (p *RDSProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		newInstanceAction("rds_restart", rdsservice.OpRestartInstance, restartSchema),
		func() action.Action { return &backupNowAction{} },
		newInstanceAction("rds_switchover", rdsservice.OpSwitchDBInstanceHA, switchoverSchema),
		newInstanceAction("rds_apply_pending", rdsservice.OpApplyPendingNow, applyPendingSchema),
		newInstanceAction("rds_renew", rdsservice.OpRenewInstance, renewSchema),
	}
}

// instanceIDAttribute is the instance an action acts on.
func instanceIDAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{Required: true, MarkdownDescription: "Id of the instance " + what + ", e.g. `rds_instance.main.id`.",
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
}

// unknownInstanceNote says what the plan of an action does when its instance is created in the run.
const unknownInstanceNote = " When `instance_id` is known only at apply (its instance is created in the same run, e.g. by an " +
	"`action_trigger` on `after_create`), the plan names what the action may do to it, and `prevent_restart = true` refuses that too."

// actionData is the provider data every action receives.
type actionData struct{ data *ProviderData }

func (a *actionData) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerDataFrom(req.ProviderData, "action", &resp.Diagnostics)
}

// progress sends a progress message when Terraform listens for them.
func progress(resp *action.InvokeResponse, format string, args ...any) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
	}
}

// instanceAction is rds_restart, rds_switchover, rds_apply_pending or rds_renew: an operation on
// an instance that rdsservice plans (PlanAction) and runs (ExecuteAction); kind names it.
type instanceAction struct {
	actionData
	typeName, kind string
	schema         schema.Schema
}

func newInstanceAction(typeName, kind string, schemaOf func() schema.Schema) func() action.Action {
	return func() action.Action { return &instanceAction{typeName: typeName, kind: kind, schema: schemaOf()} }
}

func (a *instanceAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + a.typeName[len("rds"):]
}

func (a *instanceAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = a.schema
}

// ModifyPlan shows the action's plan: the restart, the switchover and its node, the waiting change,
// or the purchase and the new end; or its refusal (prevent_restart).
func (a *instanceAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	a.modifyPlan(ctx, a.kind, a.typeName, req, resp)
}

// Invoke plans the action again (the instance may have changed since the plan) and runs it.
func (a *instanceAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	a.invoke(ctx, a.kind, a.typeName, req, resp)
}

type restartModel struct {
	InstanceID     types.String `tfsdk:"instance_id"`
	PreventRestart types.Bool   `tfsdk:"prevent_restart"`
}

// restartSchema is rds_restart's.
func restartSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Restarts an instance now (`RestartDBInstance`) and waits until it is `Running` again. The restart " +
			"also puts into effect the parameters waiting for one (set without a restart, inside or outside Terraform). The plan " +
			"warns and names the instance, the expected downtime and those parameters, as a resource's plan names its restarts; " +
			"with `prevent_restart = true` the plan fails instead." + unknownInstanceNote,
		Attributes: map[string]schema.Attribute{
			"instance_id": instanceIDAttribute("to restart"),
			"prevent_restart": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Refuse the restart at plan time, as the instance's own `prevent_restart` does: set it to " +
					"`rds_instance.main.prevent_restart` so that the action honours the instance's setting. Default false."},
		},
	}
}

// backupNowAction is rds_backup_now.
type backupNowAction struct{ actionData }

type backupNowModel struct {
	InstanceID types.String `tfsdk:"instance_id"`
	Method     types.String `tfsdk:"backup_method"`
}

func (a *backupNowAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_backup_now"
}

func (a *backupNowAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes a backup of an instance now (`CreateBackup`) and waits until its backup set is listed; " +
			"the instance stays in service. A backup already in progress is waited out first. Unlike `rds_backup`, Terraform " +
			"keeps nothing in state: the set is subject to the instance's backup policy. Once `instance_id` is known the plan refuses " +
			"what `CreateBackup` would refuse (a read-only instance, an id that does not exist, `Snapshot` without cloud disks, the " +
			"daily limit of backup sets), and nothing is sent.",
		Attributes: map[string]schema.Attribute{
			"instance_id": instanceIDAttribute("to back up"),
			"backup_method": schema.StringAttribute{Optional: true,
				MarkdownDescription: "`Physical` (default) or `Snapshot`.",
				Validators:          []validator.String{stringvalidator.OneOf(rdsapi.BackupMethodPhysical, rdsapi.BackupMethodSnapshot)}},
		},
	}
}

// ModifyPlan refuses at plan what CreateBackup would refuse (a missing or read-only instance, a
// snapshot without cloud disks, the daily limit), once the instance id is known.
func (a *backupNowAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg backupNowModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...); resp.Diagnostics.HasError() || !isKnown(cfg.InstanceID) || a.data == nil {
		return
	}
	if requireConfigured(a.data, &resp.Diagnostics) {
		ctx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
		defer cancel()
		a.check(ctx, cfg, &resp.Diagnostics)
	}
}

// check adds the invocation's problems: rdsservice.PlanBackupNow, reads only.
func (a *backupNowAction) check(ctx context.Context, cfg backupNowModel, diags *diag.Diagnostics) {
	req := rdsservice.BackupRequest{Method: backupNowMethod(cfg), Strategy: rdsapi.BackupStrategyInstance,
		Unknown: map[string]bool{rdsservice.AttrBackupMethod: cfg.Method.IsUnknown()}}
	problems, err := rdsservice.PlanBackupNow(ctx, a.data.API, cfg.InstanceID.ValueString(), req, a.data.cloudNow())
	if err != nil {
		diags.AddAttributeError(attributePath("instance_id"), "Cannot read the instance rds_backup_now acts on", err.Error())
		return
	}
	addProblems(diags, problems)
}

func backupNowMethod(cfg backupNowModel) string {
	if m := cfg.Method.ValueString(); m != "" {
		return m
	}
	return rdsapi.BackupMethodPhysical
}

// Invoke checks the invocation again (nothing is sent when it is refused), then backs up.
func (a *backupNowAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg backupNowModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...); resp.Diagnostics.HasError() || !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var checked diag.Diagnostics
	a.check(ctx, cfg, &checked)
	if resp.Diagnostics.Append(checked.Errors()...); resp.Diagnostics.HasError() {
		return
	}
	method := backupNowMethod(cfg)
	ctx, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	id := cfg.InstanceID.ValueString()
	progress(resp, "backing up RDS instance %s (%s)", id, method)
	set := createBackupJournaled(ctx, a.data, backupNowKind, req.Config, &rdsapi.CreateBackupRequest{DBInstanceID: id, BackupMethod: method}, &resp.Diagnostics)
	if set == nil {
		return
	}
	progress(resp, "backup set %s of RDS instance %s is ready", set.BackupID, id)
}

// switchoverSchema is rds_switchover's.
func switchoverSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Switches a High-availability or cluster primary instance over to its secondary node now " +
			"(`SwitchDBInstanceHA`, the node `DescribeDBInstanceHAConfig` names) and waits until that node is the primary. " +
			"Connections drop during the switch: the plan warns and names the instance and the node, and with " +
			"`prevent_restart = true` fails instead. A Basic-edition or read-only instance has no secondary: a plan error." + unknownInstanceNote,
		Attributes: map[string]schema.Attribute{
			"instance_id": instanceIDAttribute("to switch over"),
			"prevent_restart": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Refuse the switchover at plan time, as the instance's own `prevent_restart` refuses restarts: " +
					"set it to `rds_instance.main.prevent_restart`. Default false."},
		},
	}
}

// applyPendingSchema is rds_apply_pending's.
func applyPendingSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Applies now the change waiting for the instance's maintenance window (its `scheduled_change`: a " +
			"spec change, or parameters this provider set to wait for the window), with the restart it needs, and waits until it " +
			"is in effect. The plan names the restart and the changes, or warns that nothing waits; with `prevent_restart = true` " +
			"it fails instead. Parameters set outside Terraform without a restart are no task of the window: `rds_restart` puts " +
			"them into effect." + unknownInstanceNote,
		Attributes: map[string]schema.Attribute{
			"instance_id": instanceIDAttribute("whose waiting change to apply"),
			"prevent_restart": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Refuse the restart at plan time: set it to `rds_instance.main.prevent_restart`. Default false."},
		},
	}
}

// actionRequest reads the configuration of the action named name: instance_id with
// prevent_restart, or rds_renew's period. known says whether it can be planned: an instance known
// only at apply is planned as a possibility (PlanAction), except by rds_renew, which Invoke plans.
func actionRequest(ctx context.Context, kind, name string, config tfsdk.Config, diags *diag.Diagnostics) (req rdsservice.ActionRequest, known bool) {
	req = rdsservice.ActionRequest{Kind: kind, Name: name}
	var id types.String
	if kind == rdsservice.OpRenewInstance {
		var cfg renewModel
		diags.Append(config.Get(ctx, &cfg)...)
		id, req.Months = cfg.InstanceID, cfg.Period.ValueInt64()
		known = isKnown(cfg.Period)
	} else {
		var cfg restartModel
		diags.Append(config.Get(ctx, &cfg)...)
		id, req.PreventRestart, known = cfg.InstanceID, cfg.PreventRestart.ValueBool(), true
		req.PreventRestartUnknown = cfg.PreventRestart.IsUnknown()
	}
	req.InstanceID, req.InstanceUnknown = id.ValueString(), id.IsUnknown()
	return req, known && (isKnown(id) || kind != rdsservice.OpRenewInstance) && !diags.HasError()
}

// plan plans the action and adds the plan's message; nil when the instance cannot be read.
func (a *actionData) plan(ctx context.Context, req rdsservice.ActionRequest, diags *diag.Diagnostics) *rdsservice.ActionPlan {
	plan, err := rdsservice.PlanAction(ctx, a.data.API, req)
	if err != nil {
		diags.AddAttributeError(attributePath("instance_id"), "Cannot read the instance "+req.Name+" acts on", err.Error())
		return nil
	}
	addProblems(diags, append([]rdsservice.Problem{plan.Problem}, plan.Notes...))
	return &plan
}

// modifyPlan shows the action's plan; with an instance known only at apply (created in this run),
// what the action may do to it, or prevent_restart's refusal (Invoke plans again, instance known).
func (a *actionData) modifyPlan(ctx context.Context, kind, name string, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	r, known := actionRequest(ctx, kind, name, req.Config, &resp.Diagnostics)
	if !known || a.data == nil {
		return
	}
	if requireConfigured(a.data, &resp.Diagnostics) {
		a.plan(ctx, r, &resp.Diagnostics)
	}
}

// invoke plans the action again and runs its program with rdsservice's executor, which plans it
// once more right before the write.
func (a *actionData) invoke(ctx context.Context, kind, name string, req action.InvokeRequest, resp *action.InvokeResponse) {
	r, _ := actionRequest(ctx, kind, name, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var planned diag.Diagnostics
	plan := a.plan(ctx, r, &planned)
	if resp.Diagnostics.Append(planned.Errors()...); resp.Diagnostics.HasError() {
		return
	}
	id := r.InstanceID
	if len(plan.Program.Operations) == 0 {
		progress(resp, "%s: nothing to do on RDS instance %s (%s)", name, id, plan.Problem.Summary)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	progress(resp, "%s: %s on RDS instance %s", name, plan.Program.Operations[0].Action, id)
	out := rdsservice.ExecuteAction(ctx, a.data.API, a.data.Waiter, *plan)
	if out.Err != nil {
		resp.Diagnostics.AddError("Error running "+name, fmt.Sprintf("RDS instance %s, %s: %s", id, out.Step, rdsservice.OperationError(ctx, out.Err)))
		return
	}
	status := "Running"
	if out.Instance != nil {
		status = out.Instance.DBInstanceStatus
	}
	done := map[string]string{rdsservice.OpRestartInstance: "restarted", rdsservice.OpApplyPendingNow: "runs the change that waited for its window",
		rdsservice.OpSwitchDBInstanceHA: "switched over to node " + plan.Program.Operations[0].Node}[kind]
	if kind == rdsservice.OpRenewInstance && out.Instance != nil {
		done = "is renewed until " + out.Instance.ExpireTime
	}
	progress(resp, "%s: RDS instance %s %s and is %s", name, id, done, status)
}

type renewModel struct {
	InstanceID types.String `tfsdk:"instance_id"`
	Period     types.Int64  `tfsdk:"period"`
}

// renewSchema is rds_renew's.
func renewSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Renews a subscription (Prepaid) instance now (`RenewInstance`, paid at once from the account) by `period` " +
			"months. The plan warns, naming the purchase and the subscription's new end; a pay-as-you-go instance or a period " +
			"the API does not take is a plan error. It is the way out of an expiration lock (`LockByExpiration`) that keeps the " +
			"subscription (the other is `billing = { pay_type = \"Postpaid\" }`). Not resent when its answer is lost: plan again " +
			"to see the end the cloud reads.",
		Attributes: map[string]schema.Attribute{
			"instance_id": instanceIDAttribute("to renew"),
			"period": schema.Int64Attribute{Required: true,
				MarkdownDescription: "Months to renew by: 1 to 9, 12, 24, 36, 48 or 60 (RenewInstance's `Period`)."},
		},
	}
}
