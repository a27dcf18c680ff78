package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The executor's part of a destroy (destroy_program.go). Before each decision of the program (the
// conversion, the release, the abandonment) it reads the instance and plans the destroy again from
// the instance as it is: an instance already gone leaves nothing to do; a plan that now refuses
// (deletion protection turned on outside Terraform) or that now holds a step the plan did not show
// (the pay type changed since the plan) sends nothing (changed-since-plan).

// ExecuteDestroy runs the destroy's program with the one executor.
func ExecuteDestroy(ctx context.Context, api rdsapi.API, w *Waiter, plan DestroyPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Destroy: &plan})
}

func (x *executor) destroy(ctx context.Context, op Operation) error {
	if x.gone {
		return nil
	}
	switch op.Action {
	case OpReleasedWithPrimary:
		return nil // the cloud's own step of the release
	case OpWaitDeleted:
		return x.w.WaitDeleted(ctx, x.out.ID)
	}
	if err := x.recheckDestroy(ctx); err != nil || x.gone {
		return err
	}
	switch op.Action {
	case OpAbandon:
		return nil
	case OpTransformPayType:
		return TransformPayType(ctx, x.api, x.w, x.out.ID, *op.Billing)
	case OpDelete:
		return x.release(ctx, op.Keep)
	}
	return fmt.Errorf("the destroy's program holds an operation the executor does not know: %s", op.Action)
}

// recheckDestroy reads the instance and plans the destroy again. An instance not found, or being
// released by someone else, is gone: only the wait is left.
func (x *executor) recheckDestroy(ctx context.Context) error {
	id, planned := x.out.ID, x.e.Destroy
	attr, err := x.api.DescribeDBInstanceAttribute(ctx, id)
	switch {
	case rdsapi.IsNotFound(err):
		x.gone = true
		return nil
	case err != nil:
		return fmt.Errorf("reading RDS instance %s before destroying it: %w", id, err)
	case attr.DBInstanceStatus == StatusDeleting:
		x.gone = true // released by someone else: what is left is the wait
		if slices.Contains(planned.Program.destroySteps(), OpAbandon) {
			return nil
		}
		return x.w.WaitDeleted(ctx, id)
	}
	now := destroyRequestAt(planned.Request, attr)
	if now.ProtectedReadOnly, err = ProtectedReadOnly(ctx, x.api, attr.ReadOnlyDBInstanceIDs); err != nil {
		return fmt.Errorf("before destroying RDS instance %s: %w", id, err)
	}
	again := PlanDestroyProgram(now)
	changes := destroyChanges(planned.Request, now)
	if again.Refused() {
		return &ChangedSincePlanError{ID: id, Changes: changes, Problems: again.Refusals}
	}
	for _, step := range again.Program.destroySteps() {
		if !slices.Contains(planned.Program.destroySteps(), step) {
			return &ChangedSincePlanError{ID: id, Changes: changes, Problems: again.Messages()}
		}
	}
	return nil
}

// destroyChanges names the facts that differ from those the destroy was planned with.
func destroyChanges(before, now DestroyRequest) []string {
	var out []string
	payType := func(prepaid bool) string {
		if prepaid {
			return PayTypePrepaid
		}
		return PayTypePostpaid
	}
	if before.Prepaid != now.Prepaid {
		out = append(out, fmt.Sprintf("the pay type is %s (the plan saw %s)", payType(now.Prepaid), payType(before.Prepaid)))
	}
	if before.DeletionProtection != now.DeletionProtection {
		out = append(out, fmt.Sprintf("deletion_protection is %t (the plan saw %t)", now.DeletionProtection, before.DeletionProtection))
	}
	if !slices.Equal(before.ProtectedReadOnly, now.ProtectedReadOnly) {
		out = append(out, fmt.Sprintf("the read-only instances with deletion protection are [%s] (the plan saw [%s])",
			strings.Join(now.ProtectedReadOnly, ", "), strings.Join(before.ProtectedReadOnly, ", ")))
	}
	return out
}

// release sends DeleteDBInstance (with the keep policy), retried while the instance is busy. The
// cloud releases a primary's read-only instances with it.
func (x *executor) release(ctx context.Context, keep string) error {
	id := x.out.ID
	err := x.w.RetryBusy(ctx, func() error {
		if keep == "" {
			return x.api.DeleteDBInstance(ctx, id)
		}
		return x.api.DeleteDBInstanceKeeping(ctx, id, keep)
	})
	var stuck *InstanceStateError
	switch {
	case rdsapi.IsNotFound(err):
		x.gone = true
		return nil
	case errors.As(err, &stuck) && stuck.Status == StatusDeleting:
		return nil // released elsewhere already: what is left is the wait
	case rdsapi.ErrorCode(err) == CodeDeletionProtection:
		// Turned on after the read right before the request.
		return &ChangedSincePlanError{ID: id, Changes: []string{"deletion_protection is true"},
			Problems: PlanDestroyProgram(DestroyRequest{InstanceID: id, DeletionProtection: true}).Refusals}
	case err != nil:
		return fmt.Errorf("DeleteDBInstance %s: %w", id, err)
	}
	return nil
}

// CodeDeletionProtection is DeleteDBInstance's refusal of a protected instance.
const CodeDeletionProtection = "OperationDenied.DeletionProtection"

// destroyOrBackupStep names a destroy's or a backup program's step ("" for other programs).
func (x *executor) destroyOrBackupStep(op Operation) string {
	switch {
	case x.e.Destroy != nil && op.Action == OpTransformPayType:
		return "converting the instance to pay-as-you-go before releasing it"
	case x.e.Destroy != nil && op.Action == OpWaitDeleted:
		return "waiting for the instance to be gone"
	case x.e.Destroy != nil:
		return "releasing the instance"
	case op.Action == OpCreateBackup:
		return "creating the backup"
	case op.Action == OpDeleteBackup:
		return "deleting the backup set"
	}
	return ""
}

// endsWithoutRead: a destroy and a backup program leave no instance to read back.
func (e Execution) endsWithoutRead() bool {
	if e.Destroy != nil {
		return true
	}
	for _, op := range e.Decision.Program.Operations {
		if op.Action != OpCreateBackup && op.Action != OpDeleteBackup {
			return false
		}
	}
	return len(e.Decision.Program.Operations) > 0
}
