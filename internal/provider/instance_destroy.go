package provider

// Destroying an instance (either instance resource): the state mapped to the destroy's planner
// input, whose program (rdsservice/destroy_program.go) the plan shows and the executor runs.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// planDestroy is what the plan of a destroy says (rdsservice.PlanInstanceDestroy); the cloud is
// read once the provider is configured.
func planDestroy(ctx context.Context, data *ProviderData, state tfsdk.State, diags *diag.Diagnostics) {
	req := rdsservice.DestroyRequestOf(attrValueOf(state.Raw))
	if diags.HasError() {
		return
	}
	env := rdsservice.Env{}
	if data != nil && data.API != nil {
		env = data.planEnv()
	}
	ctx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	defer cancel()
	out := rdsservice.PlanInstanceDestroy(ctx, env, req)
	addProblems(diags, out.Problems)
	addReadFailures(diags, out.ReadFailures)
}

// destroyInstance plans the destroy from the state and runs its program with the one executor,
// within the delete budget. Not found counts as destroyed; an abandoned subscription instance is
// only removed from the state (the warning says it stays billed).
func destroyInstance(ctx context.Context, data *ProviderData, state tfsdk.State, budgets timeouts.Value, diags *diag.Diagnostics) {
	req := rdsservice.DestroyRequestOf(attrValueOf(state.Raw))
	if diags.HasError() {
		return
	}
	plan := rdsservice.PlanDestroyProgram(req)
	if plan.Refused() {
		addProblems(diags, plan.Refusals)
		return
	}
	budget, ok := operationBudget(ctx, budgets, "delete", diags)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	out := rdsservice.ExecuteDestroy(ctx, data.API, data.Waiter, plan)
	if out.Err != nil {
		diags.AddError("Error destroying RDS instance", fmt.Sprintf("%s, %s: %s", req.InstanceID, out.Step, rdsservice.OperationError(ctx, out.Err)))
		return
	}
	if plan.Abandons() {
		addProblems(diags, plan.Messages())
	}
}
