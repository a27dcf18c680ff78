package provider

// Destroying an instance (either instance resource): the state mapped to the destroy's planner
// input, whose program (rdsservice/destroy_program.go) the plan shows and the executor runs.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// destroyRequestOf is the destroy's planner input from the state of rds_instance or
// rds_readonly_instance (an attribute the resource does not have is left unset). An instance is
// a subscription when billing says Prepaid or it has an expiry (the cloud sets ExpireTime for
// subscriptions only).
func destroyRequestOf(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) rdsservice.DestroyRequest {
	attrs := state.Schema.GetAttributes()
	str := func(at path.Path) string {
		var v types.String
		if _, ok := attrs[at.Steps()[0].String()]; ok {
			diags.Append(state.GetAttribute(ctx, at, &v)...)
		}
		return v.ValueString()
	}
	var protected types.Bool
	var readOnly types.List
	diags.Append(state.GetAttribute(ctx, path.Root("deletion_protection"), &protected)...)
	req := rdsservice.DestroyRequest{InstanceID: str(path.Root("id")), DeletionProtection: protected.ValueBool(),
		OnDestroy: str(path.Root("prepaid_on_destroy")), KeepPolicy: str(path.Root("released_keep_policy")), LockMode: str(path.Root("lock_mode"))}
	_, req.ReadOnly = attrs["master_instance_id"]
	req.MasterID, req.StorageType = str(path.Root("master_instance_id")), str(path.Root("storage_type"))
	if _, ok := attrs[rdsservice.AttrPreventDataLoss]; ok {
		var prevent types.Bool
		diags.Append(state.GetAttribute(ctx, path.Root(rdsservice.AttrPreventDataLoss), &prevent)...)
		req.PreventDataLoss = prevent.ValueBool()
	}
	if _, ok := attrs["billing"]; ok {
		var billing types.Object
		diags.Append(state.GetAttribute(ctx, path.Root("billing"), &billing)...)
		payType, _ := billing.Attributes()["pay_type"].(types.String)
		req.Prepaid = rdsservice.BillingState{PayType: payType.ValueString(), ExpireTime: str(path.Root("expire_time"))}.Prepaid()
	}
	if _, ok := attrs["read_only_instance_ids"]; ok {
		diags.Append(state.GetAttribute(ctx, path.Root("read_only_instance_ids"), &readOnly)...)
		diags.Append(readOnly.ElementsAs(ctx, &req.ReadOnlyInstances, false)...)
	}
	return req
}

// planDestroy is what the plan of a destroy says (rdsservice.PlanInstanceDestroy); the cloud is
// read once the provider is configured.
func planDestroy(ctx context.Context, data *ProviderData, state tfsdk.State, diags *diag.Diagnostics) {
	req := destroyRequestOf(ctx, state, diags)
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
	req := destroyRequestOf(ctx, state, diags)
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
