package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Issue 41, item 3: destroying a primary releases its read-only instances; one with deletion
// protection (managed in another workspace: only the cloud tells) refuses the destroy at plan,
// named, and the apply sends no DeleteDBInstance; without protection the plan only notes it.
func TestDestroyPlanRefusesReleasingAProtectedReadOnly(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	primary := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", primary)
	state := stateOf(t, env, primary)
	at := path.Root("deletion_protection")
	wantDiag(t, runModifyPlan(t, env, nil, nil, &state).diags, diag.SeverityWarning, path.Root("read_only_instance_ids"), "also releases")

	if err := env.api.ModifyDBInstanceDeletionProtection(context.Background(), ro, true); err != nil {
		t.Fatal(err)
	}
	wantDiag(t, runModifyPlan(t, env, nil, nil, &state).diags, diag.SeverityError, at, "would release read-only instance(s) with deletion protection: "+ro, "another workspace")

	plan := rdsservice.PlanDestroyProgram(rdsservice.DestroyRequest{InstanceID: primary, ReadOnlyInstances: []string{ro}})
	out := rdsservice.ExecuteDestroy(context.Background(), env.api, env.data.Waiter, plan)
	if out.Err == nil || env.requests("DeleteDBInstance") != 0 {
		t.Fatalf("apply of a destroy planned before the protection was turned on: %v, %d DeleteDBInstance sent", out.Err, env.requests("DeleteDBInstance"))
	}
}
