package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// applyAccess is the apply of rds_account, rds_database and rds_account_privilege: plan the
// request in rdsservice and run its program with the one executor. Refusals and the failed step
// go to diags; the password is handed to the executor only.
func applyAccess(ctx context.Context, data *ProviderData, req rdsservice.AccessRequest, password, summary string, diags *diag.Diagnostics) rdsservice.AccessOutcome {
	plan, err := rdsservice.PlanAccess(ctx, data.API, req)
	if err != nil {
		diags.AddError(summary, rdsservice.OperationError(ctx, err))
		return rdsservice.AccessOutcome{}
	}
	if addProblems(diags, plan.Problems); diags.HasError() {
		return rdsservice.AccessOutcome{}
	}
	out := rdsservice.ExecuteAccess(ctx, data.API, data.Waiter, plan, password)
	if out.Err != nil {
		if rdsservice.ChangedOutside(out.Err) {
			summary = rdsservice.Rules[rdsservice.RuleChangedSincePlan].Summary
		}
		diags.AddError(summary, fmt.Sprintf("%s: %s", out.Step, rdsservice.OperationError(ctx, out.Err)))
	}
	return out
}

// managedDescription is the description the configuration manages (nil: unmanaged or unknown).
func managedDescription(planned types.String) *string {
	if !isKnown(planned) {
		return nil
	}
	d := planned.ValueString()
	return &d
}
