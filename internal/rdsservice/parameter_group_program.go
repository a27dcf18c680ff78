package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_parameter_group's apply as a program: PlanParameterGroup decides from the group as the
// cloud has it and the configuration one CreateParameterGroup, ModifyParameterGroup (G5:
// ModifyMode=Individual, so the group holds exactly the configured parameters) or
// DeleteParameterGroup, and the one executor runs it.

// The parameter group operations.
const (
	OpCreateParameterGroup = "CreateParameterGroup"
	OpModifyParameterGroup = "ModifyParameterGroup"
	OpDeleteParameterGroup = "DeleteParameterGroup"
)

// ParameterGroupRequest is what rds_parameter_group's plan or apply asks for.
type ParameterGroupRequest struct {
	// ID is the group's id; empty when the apply creates it.
	ID       string
	RegionID string
	Desired  ParameterGroupSpec
	// UnknownNames are parameters whose values are known only at apply; NameKnown is false while
	// the name is.
	UnknownNames map[string]bool
	NameKnown    bool
	// Template is the default template of the group's engine version (empty when it could not be
	// read: the names and values are then checked by the cloud).
	Template ParameterTemplate
	// Delete: the group is destroyed.
	Delete bool
}

// ParameterGroupPlan is the decision: the problems found, or the program, and G6's restarts.
type ParameterGroupPlan struct {
	Request  ParameterGroupRequest
	Problems []Problem
	Program  Program
	// Restarts are the group's parameters whose change restarts an instance the group is
	// applied to (G6).
	Restarts []string
}

// PlanParameterGroup decides the apply; current is the group as the cloud has it, nil for a
// group the apply creates.
func PlanParameterGroup(req ParameterGroupRequest, current *ParameterGroupSpec) ParameterGroupPlan {
	plan := ParameterGroupPlan{Request: req}
	op := func(action string) {
		plan.Program.Operations = append(plan.Program.Operations, Operation{Instance: req.ID, Action: action, When: WhenNow, Effect: EffectNone})
	}
	if req.Delete {
		op(OpDeleteParameterGroup)
		return plan
	}
	if plan.Problems = CheckParameterGroup(req.Desired, req.UnknownNames, req.NameKnown, req.Template); len(plan.Problems) > 0 {
		return plan
	}
	plan.Restarts = ParameterGroupRestarts(req.Desired.Parameters, req.Template)
	switch {
	case current == nil:
		op(OpCreateParameterGroup)
	case parameterGroupChanged(*current, req.Desired, req.Template):
		op(OpModifyParameterGroup)
	}
	return plan
}

// ExecuteParameterGroup runs the plan's program with the one executor; the outcome's ID is the
// group's id (the new one after a create).
func ExecuteParameterGroup(ctx context.Context, api rdsapi.API, w *Waiter, plan ParameterGroupPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.ID, Decision: Decision{Program: plan.Program}, ParameterGroup: &plan})
}
