package rdsservice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Provider-defined actions as programs (issue 23 §1): rds_restart, rds_switchover,
// rds_apply_pending and rds_renew (renew_action.go) plan one operation each, and the one executor (Execute) runs it. Right
// before the write, after waiting for the instance to be Running, the executor plans the action
// again from the instance as it is then; when that plan refuses the action or names another
// operation (another secondary node after someone else's switchover, another or no waiting
// task), nothing is sent (changed-since-plan), since the order the plan showed is stale.
// rds_backup_now runs rds_backup's create program (backup_program.go), behind the create journal.

// Operation kinds of the actions.
const (
	OpRestartInstance    = "RestartDBInstance"
	OpSwitchDBInstanceHA = "SwitchDBInstanceHA"
	OpApplyPendingNow    = "ModifyDBInstanceSpec (EffectiveTime Immediate) or RestartDBInstance: what waits for the window, now"
)

// ActionRequest is one invocation of an action.
type ActionRequest struct {
	// Kind is the action's operation: OpRestartInstance, OpSwitchDBInstanceHA or OpApplyPendingNow.
	Kind string
	// Name is the action's type name as the plan names it, e.g. rds_restart.
	Name       string
	InstanceID string
	// InstanceUnknown: instance_id is known only at apply (its instance is created or replaced in
	// this run, e.g. an action_trigger after_create); InstanceID is then empty.
	InstanceUnknown bool
	PreventRestart  bool
	// PreventRestartUnknown: prevent_restart is known only at apply (the invoke may refuse then).
	PreventRestartUnknown bool
	// Months is what rds_renew buys.
	Months int64
}

// ActionPlan is an action's decision: the plan's message and the program the executor runs
// (empty when the action is refused or has nothing to do).
type ActionPlan struct {
	Request ActionRequest
	Problem Problem
	// Notes are further warnings of the plan (a prevent_restart known only at apply).
	Notes   []Problem
	Program Program
}

// PlanAction reads the instance (and its nodes, or its waiting task) and plans the action; an
// instance known only at apply is not read (planActionOnUnknown).
func PlanAction(ctx context.Context, api rdsapi.API, req ActionRequest) (ActionPlan, error) {
	if req.InstanceUnknown {
		plan, err := planActionOnUnknown(req)
		return plan.noteGuardUnknown(req.Name+"'s instance", "a possible "+actionOutage[req.Kind]), err
	}
	id := req.InstanceID
	attr, err := api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return ActionPlan{}, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", id, err)
	}
	plan := ActionPlan{Request: req}
	renewsExpired := req.Kind == OpRenewInstance && attr.LockMode == lockByExpiration // the renewal lifts that lock
	if plan.Problem = ActionStateProblem(req.Name, attr); plan.refused() && !renewsExpired {
		return plan, nil
	}
	var op *Operation
	var followers []Restart
	switch req.Kind {
	case OpRestartInstance:
		r := actionRestart(req.Name, attr)
		if reason := waitingParametersReason(ctx, api, id); reason != "" {
			r.Reasons = append(r.Reasons, reason)
		}
		plan.Problem = RestartProblem([]Restart{r}, false, req.PreventRestart, AttrPreventRestart)
		op = &Operation{Action: OpRestartInstance, Restart: &r}
	case OpSwitchDBInstanceHA:
		sp, err := PlanSwitchover(ctx, api, attr, req.PreventRestart)
		if err != nil {
			return ActionPlan{}, err
		}
		if plan.Problem = sp.Problem; sp.Target != nil {
			op = &Operation{Action: OpSwitchDBInstanceHA, Effect: EffectSwitchover, Node: string(sp.Target.NodeID)}
		}
	case OpApplyPendingNow:
		pp, err := PlanApplyPending(ctx, api, attr, req.PreventRestart)
		if err != nil {
			return ActionPlan{}, err
		}
		if plan.Problem = pp.Problem; pp.Task != nil {
			op = &Operation{Action: OpApplyPendingNow, Pending: pp.Task, Restart: pp.Restart}
			followers, plan.Notes = pp.Followers, pp.Notes
		}
	case OpRenewInstance:
		plan.Problem = PlanRenew(req.Name, attr, req.Months, time.Now())
		op = &Operation{Action: OpRenewInstance, Billing: &Billing{PayType: PayTypePrepaid, Period: PeriodMonth, UsedTime: req.Months}}
	default:
		return ActionPlan{}, fmt.Errorf("no action runs %q", req.Kind)
	}
	if op != nil && !plan.refused() {
		op.Instance, op.When = id, WhenNow
		if op.Effect == "" {
			op.Effect = EffectNone
		}
		if op.Restart != nil {
			op.Effect = EffectRestart
		}
		plan.Program.Operations = []Operation{*op}
		plan.addFollowers(followers)
		plan = plan.noteGuardUnknown(id, "a "+actionOutage[req.Kind])
	}
	return plan, nil
}

// addFollowers adds the waits for the read-only instances that follow rds_apply_pending's toggle
// (each restarts once, named in the plan).
func (p *ActionPlan) addFollowers(followers []Restart) {
	on := true
	for i := range followers {
		id := strings.TrimSuffix(followers[i].InstanceID, " (read-only instance)")
		p.Program.Operations = append(p.Program.Operations, Operation{Instance: id, Action: OpWaitFollowerToggled, When: WhenNow,
			Effect: EffectRestart, Flag: &on, Restart: &followers[i]})
	}
}

// waitingParametersReason names the parameters waiting for a restart (set without one, inside or
// outside Terraform) that a restart puts into effect; "" when none wait or they cannot be read
// (the restart is the same either way).
func waitingParametersReason(ctx context.Context, api rdsapi.API, id string) string {
	answer, err := api.DescribeParameters(ctx, id)
	if err != nil {
		return ""
	}
	return PendingAppliedReason(answer.ConfigParameters.Values())
}

// actionOutage names what each action does to its instance, for the plan's messages.
var actionOutage = map[string]string{OpRestartInstance: "restart", OpSwitchDBInstanceHA: "switchover", OpApplyPendingNow: "restart"}

// noteGuardUnknown adds to a plan that takes instance out of service (what) the warning that a
// prevent_restart known only at apply may refuse it then, after other resources of the run changed.
func (p ActionPlan) noteGuardUnknown(instance, what string) ActionPlan {
	if p.Request.PreventRestartUnknown && !p.refused() {
		p.Notes = append(p.Notes, Raise(RuleRestartGuardUnknown, "", instance, what))
	}
	return p
}

// planActionOnUnknown plans an action whose instance is known only at apply: the plan cannot read
// it, so it names what the action may do to it, and prevent_restart, known now, refuses that
// possibility now rather than at invoke, after the instance and the run's other resources changed.
// The program stays empty: the invoke plans again with the instance known.
func planActionOnUnknown(req ActionRequest) (ActionPlan, error) {
	effect, ok := map[string]struct{ what, downtime string }{
		OpRestartInstance:    {"restarts it (RestartDBInstance)", ExpectedDowntimeHA + ", or " + ExpectedDowntimeSingleNode + " for a Basic-edition or read-only instance"},
		OpSwitchDBInstanceHA: {"switches it over to its secondary node (SwitchDBInstanceHA), which drops its connections", ExpectedDowntimeHA},
		OpApplyPendingNow: {"runs now, with a restart, whatever waits for its maintenance window (a new instance has nothing waiting)",
			ExpectedDowntimeHA + ", or " + ExpectedDowntimeSingleNode + " for a Basic-edition or read-only instance"},
	}[req.Kind]
	if !ok {
		return ActionPlan{}, fmt.Errorf("no action runs %q", req.Kind)
	}
	plan := ActionPlan{Request: req, Problem: Raise(RuleActionInstanceUnknown, "", req.Name, effect.what, effect.downtime)}
	if req.PreventRestart {
		plan.Problem = Raise(RuleActionInstanceUnknownRefused, "true", req.Name, effect.what)
	}
	return plan, nil
}

func (p ActionPlan) refused() bool {
	return p.Problem.Rule != "" && p.Problem.Severity == SeverityError
}

// ExecuteAction runs the action's program with the one executor.
func ExecuteAction(ctx context.Context, api rdsapi.API, w *Waiter, plan ActionPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Action: &plan})
}

func taskID(t *ScheduledTask) string {
	if t == nil {
		return "none"
	}
	return t.ID
}
