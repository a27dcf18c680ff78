package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// The apply of both instance resources: read the models, decide (the planner, as at plan time,
// with the values known now), build the executor's input, execute the decision's program
// (rdsservice.Execute), and map the outcome to state. A resource supplies only its model
// mapping, as an instanceKind.

// instanceKind is what one instance resource supplies to the shared apply.
type instanceKind[M any] interface {
	// planInput is the planner's input for the apply's request m (its state null for a create).
	planInput(ctx context.Context, m rdsservice.ModelRequest, diags *diag.Diagnostics) rdsservice.PlanInput
	// execution is the executor's input for the planned model (create request, settings, target).
	// It may complete plan with values known only now.
	execution(ctx context.Context, plan *M, dec rdsservice.Decision, diags *diag.Diagnostics) rdsservice.Execution
	// accepted is the state recorded as soon as the cloud accepted the create.
	accepted(plan M, id string) M
	// applied is the state read back from the instance after the apply.
	applied(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan, config M, private privateSetter, diags *diag.Diagnostics) M
	// incompleteCreate records a create that stopped at step after the instance was usable.
	incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan M, stop createStop)
	parts(m *M) modelParts
	settings(ctx context.Context, m M, diags *diag.Diagnostics) rdsservice.Settings
}

// modelParts points at the attributes the shared apply reads and writes in a model.
type modelParts struct {
	ID                  *types.String
	Timeouts            timeouts.Value
	Spec                specFields
	MaintenanceWindow   *types.String
	ScheduledChange     *types.Object
	Parameters, Pending *types.Map
}

// applyBudget bounds the operation by its timeout.
func applyBudget(ctx context.Context, t timeouts.Value, op string, diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	budget, ok := operationBudget(ctx, t, op, diags)
	if !ok {
		return ctx, func() {}, false
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	return ctx, cancel, true
}

// createInstance creates an instance: the decision again with the values known now, then its
// program; the id is recorded as soon as the cloud accepts the create.
func createInstance[M any](ctx context.Context, k instanceKind[M], data *ProviderData, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !requireConfigured(data, &resp.Diagnostics) {
		return
	}
	ctx, cancel, ok := applyBudget(ctx, k.parts(&plan).Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}
	m := rdsservice.ModelRequest{Config: attrValueOf(req.Config.Raw), Plan: attrValueOf(req.Plan.Raw), State: rdsservice.NullAttr()}
	in := k.planInput(ctx, m, &resp.Diagnostics)
	dec := decideForApply(in, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	exec := k.execution(ctx, &plan, dec, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	exec.Plan, exec.Decision = in, dec
	claim := claimInstanceCreate(ctx, data, req.Config, *k.parts(&plan).ID, &exec.Create, &resp.Diagnostics)
	if claim == nil {
		return
	}
	exec.Accepted = func(id string) {
		tflog.Info(ctx, "RDS instance accepted by the cloud", map[string]any{"id": id})
		claim.accepted(id)
		resp.Diagnostics.Append(resp.State.Set(ctx, k.accepted(plan, id))...)
	}
	out := rdsservice.Execute(ctx, data.API, data.Waiter, exec)
	claim.done(out.ID != "")
	*k.parts(&plan).ID = types.StringValue(out.ID)
	switch {
	case out.Err != nil && !out.Usable:
		reportCreateFailure(ctx, exec.Create, out, &resp.Diagnostics)
	case out.Err != nil:
		k.incompleteCreate(ctx, req, resp, plan, createStop{last: out.Instance, step: out.Step, err: out.Err})
	default:
		state := k.applied(ctx, out.Instance, plan, config, resp.Private, &resp.Diagnostics)
		var readDiags diag.Diagnostics
		p := k.parts(&state)
		*p.Parameters, *p.Pending = readParameters(ctx, data.API, out.ID, *k.parts(&plan).Parameters, &readDiags)
		if readDiags.HasError() {
			k.incompleteCreate(ctx, req, resp, plan, createStop{last: out.Instance, step: "reading the parameters", err: errors.New(readDiags.Errors()[0].Detail())})
			return
		}
		setAppliedState(ctx, req.Plan, &state, &resp.State, &resp.Diagnostics)
	}
}

// decideForApply decides again before any write; only errors matter here.
func decideForApply(in rdsservice.PlanInput, diags *diag.Diagnostics) rdsservice.Decision {
	if diags.HasError() {
		return rdsservice.Decision{}
	}
	dec := rdsservice.Plan(in)
	addProblems(diags, dec.Errors())
	return dec
}

// reportCreateFailure is a create that never gave a usable instance: refused, unanswered, or
// created but not ready (then recorded in state, and tainted).
func reportCreateFailure(ctx context.Context, c rdsservice.CreateRequest, out rdsservice.Outcome, diags *diag.Diagnostics) {
	var refused *rdsservice.CreateError
	if !errors.As(out.Err, &refused) {
		diags.AddError("Error waiting for RDS instance to be created",
			fmt.Sprintf("Instance %s was created but did not become ready: %s. It is recorded in state and will be "+
				"replaced on the next apply (tainted).", out.ID, rdsservice.OperationError(ctx, out.Err)))
		return
	}
	action := rdsservice.OpCreate
	switch {
	case c.Clone != nil:
		action = rdsservice.OpClone + " from " + c.Clone.SourceDBInstanceID
	case c.Ddr != nil:
		action = rdsservice.OpCreateDdr + " from cross-region backup " + c.Ddr.BackupSetID + " of " + c.Ddr.SourceDBInstanceID
	case c.ReadOnly != nil:
		action = rdsservice.OpCreateReadOnly + " for primary " + c.ReadOnly.PrimaryDBInstanceID
	}
	diags.AddError("Error creating RDS instance", fmt.Sprintf("%s failed: %s", action, rdsservice.OperationError(ctx, out.Err)))
}

// updateInstance updates an instance: the decision again (values unknown at plan are known now,
// and a restart the plan could not see is refused before anything is sent), then its program.
// It decides from the configuration the plan was decided from (plannedConfig), never from
// req.Config: under ignore_changes that holds values no plan named.
// The state holds the planned values (setAppliedState): a change made elsewhere meanwhile is drift.
func updateInstance[M any](ctx context.Context, k instanceKind[M], data *ProviderData, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	configured := plannedConfig(ctx, req.Plan, req.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(configured.Get(ctx, &config)...)
	forgetPlannedConfig(ctx, resp.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !requireConfigured(data, &resp.Diagnostics) {
		return
	}
	if u, ok := unchangedOf(req.Plan.Raw, req.State.Raw); ok && !data.plans.Replans(u) {
		// The final plan found nothing to change (values known only at apply resolved to the state's),
		// and ModifyPlan then plans no program: the apply sends nothing either.
		resp.State.Raw = req.Plan.Raw
		return
	}
	ctx, cancel, ok := applyBudget(ctx, k.parts(&plan).Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	if !ok {
		return
	}
	m := rdsservice.ModelRequest{Config: attrValueOf(configured.Raw), Plan: attrValueOf(req.Plan.Raw), State: attrValueOf(req.State.Raw)}
	// As at plan: while a change waits for the window, the planner compares with the spec the instance runs.
	m = m.Running(scheduledFrom(ctx, req.Private, &resp.Diagnostics))
	in := k.planInput(ctx, m, &resp.Diagnostics)
	dec := decideForApply(in, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	exec := k.execution(ctx, &plan, dec, &resp.Diagnostics)
	current := k.settings(ctx, state, &resp.Diagnostics)
	exec.Plan, exec.Decision, exec.ID, exec.Current = in, dec, k.parts(&state).ID.ValueString(), &current
	out := rdsservice.Execute(ctx, data.API, data.Waiter, exec)
	if out.Err != nil {
		reportUpdateFailure(ctx, out, &resp.Diagnostics)
		return
	}
	p := k.parts(&plan)
	*p.ScheduledChange = data.scheduledAfter(ctx, out, dec, scheduledRead{id: out.ID, window: p.MaintenanceWindow.ValueString(),
		recorded: *k.parts(&state).ScheduledChange, planned: *p.ScheduledChange, private: resp.Private}, m.RunningSpec(p.Spec.Category != nil), &resp.Diagnostics)
	applied := k.applied(ctx, out.Instance, plan, config, resp.Private, &resp.Diagnostics)
	a := k.parts(&applied)
	if isKnown(*a.ScheduledChange) {
		// Until the window the state keeps what was asked for; scheduled_change says it is pending.
		setSpec(specOf(p.Spec), a.Spec)
	}
	*a.Parameters, *a.Pending = readParameters(ctx, data.API, out.ID, *p.Parameters, &resp.Diagnostics)
	*a.Parameters = requestedDoublewrite(*a.Parameters, *a.ScheduledChange, *a.Spec.AtomicWrite)
	clearIncompleteCreate(ctx, resp.Private, &resp.Diagnostics)
	setAppliedState(ctx, req.Plan, &applied, &resp.State, &resp.Diagnostics)
}

// reportUpdateFailure names the failed step; a change someone else's change ruled out says so.
func reportUpdateFailure(ctx context.Context, out rdsservice.Outcome, diags *diag.Diagnostics) {
	summary := "Error updating RDS instance: " + out.Step
	if rdsservice.ChangedOutside(out.Err) {
		summary = rdsservice.Rules[rdsservice.RuleChangedDuringApply].Summary
	}
	detail := fmt.Sprintf("Instance %s: %s", out.ID, rdsservice.OperationError(ctx, out.Err))
	if out.Step == "setting the parameters" {
		diags.AddAttributeError(path.Root("parameters"), summary, detail)
		return
	}
	diags.AddError(summary, detail)
}

// scheduledAfter is scheduled_change after an update: what the cloud now holds for the window
// when this apply deferred something, null when it changed the instance now (an immediate order
// supersedes a pending one), else the recorded change while its task still waits.
func (p *ProviderData) scheduledAfter(ctx context.Context, out rdsservice.Outcome, dec rdsservice.Decision, s scheduledRead, before specValues,
	diags *diag.Diagnostics) types.Object {
	private := s.private
	switch {
	case out.Deferred:
		if rdsservice.HoldsSpec(out.Scheduled) {
			setScheduledFrom(ctx, private, &before, diags)
		} else {
			setScheduledFrom(ctx, private, nil, diags)
		}
		return scheduledChangeValue(ctx, out.Scheduled, s.window, windowReasons(dec.Program), diags)
	case out.ChangedNow:
		setScheduledFrom(ctx, private, nil, diags)
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	return p.stillScheduled(ctx, s, diags)
}

// windowReasons are the reasons of the restarts the program leaves to the instance's maintenance
// window: this apply's order, and a zone move or upgrade already waiting there (its own task).
func windowReasons(p rdsservice.Program) []string {
	var out []string
	instance := ""
	for _, op := range p.Operations {
		if op.When == rdsservice.WhenInWindow && op.Restart != nil && (instance == "" || op.Instance == instance) {
			instance = op.Instance
			out = append(out, op.Restart.Reasons...)
		}
	}
	return out
}
