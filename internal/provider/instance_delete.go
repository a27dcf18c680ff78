package provider

// Deleting an instance: the release (with its released_keep_policy), retried while the instance
// is busy, after its read-only instances are gone, and the wait until it is gone.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// deleteAndWait deletes an instance (retrying while it is busy; keep is its released_keep_policy,
// "" for none) and waits until it is gone, within ctx's deadline. Not found counts as deleted. A primary whose read-only instances are being
// deleted in the same run (Terraform deletes them in parallel when nothing orders them) waits for
// them first.
func deleteAndWait(ctx context.Context, data *ProviderData, id, keep string, diags *diag.Diagnostics) {
	release := func() error { return releaseInstance(ctx, data.API, id, keep) }
	err := data.Waiter.RetryBusy(ctx, release)
	if rdsapi.ErrorCode(err) == "OperationDenied.ReadOnlyInstanceExists" {
		err = waitReadOnlyGone(ctx, data, id)
		if err == nil {
			err = data.Waiter.RetryBusy(ctx, release)
		}
	}
	var stuck *rdsservice.InstanceStateError
	switch {
	case rdsapi.IsNotFound(err):
		return
	case errors.As(err, &stuck) && stuck.Status == rdsservice.StatusDeleting:
		// Released elsewhere already: what is left is waiting until it is gone.
	case rdsapi.ErrorCode(err) == "OperationDenied.DeletionProtection":
		addProblems(diags, rdsservice.PlanDestroy(id, true))
		return
	case err != nil:
		diags.AddError("Error deleting RDS instance", fmt.Sprintf("DeleteDBInstance %s: %s", id, operationError(ctx, err)))
		return
	}
	if err := data.Waiter.WaitDeleted(ctx, id); err != nil {
		diags.AddError("Error waiting for RDS instance deletion", operationError(ctx, err))
	}
}

// readOnlyDeleteGrace is how long a primary's delete waits for a read-only instance that is not
// being deleted yet: Terraform sends the deletes of unordered resources at about the same time.
const readOnlyDeleteGrace = 30 * time.Second

// waitReadOnlyGone waits until primary has no read-only instances. One that is still not being
// deleted after readOnlyDeleteGrace is an error naming it (the cloud never deletes it by itself).
func waitReadOnlyGone(ctx context.Context, data *ProviderData, primary string) error {
	start := data.Waiter.Now()
	var stuck error
	_, err := data.Waiter.WaitFor(ctx, primary, "its read-only instances to be deleted", func(a *rdsapi.DBInstanceAttribute) bool {
		for _, ro := range a.ReadOnlyDBInstanceIDs {
			roAttr, err := data.API.DescribeDBInstanceAttribute(ctx, ro)
			if err != nil || roAttr.DBInstanceStatus == "Deleting" || data.Waiter.Now().Sub(start) < readOnlyDeleteGrace {
				continue
			}
			stuck = fmt.Errorf("primary %s still has read-only instance %s (status %s): delete it first (rds_readonly_instance), "+
				"or reference the primary from it (master_instance_id = <primary resource>.id) so that Terraform deletes it first",
				primary, ro, roAttr.DBInstanceStatus)
			return true
		}
		return len(a.ReadOnlyDBInstanceIDs) == 0
	})
	if stuck != nil {
		return stuck
	}
	return err
}
