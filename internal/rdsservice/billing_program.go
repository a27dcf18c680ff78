package rdsservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Billing in the program: a change of pay type (TransformDBInstancePayType) and a change of
// auto-renewal (ModifyInstanceAutoRenewalAttribute), run by the one executor. A conversion to
// pay-as-you-go goes before the settings (deletion protection may be turned on with it), a
// purchase after them (deletion protection must be off first).

// Operation kinds of billing.
const (
	OpTransformPayType  = "TransformDBInstancePayType"
	OpModifyAutoRenewal = "ModifyInstanceAutoRenewalAttribute"
)

// billingBeforeSettings adds a conversion to pay-as-you-go, the first operation of an update.
func (b *programBuilder) billingBeforeSettings(label string) {
	bp := b.in.Desired.Billing
	if bp.Set && !bp.Want.Prepaid() && bp.Prior != nil && bp.Prior.Prepaid() {
		want := bp.Want
		b.add(Operation{Instance: label, Action: OpTransformPayType, When: WhenNow, Billing: &want})
	}
}

// billingAfterSettings adds a purchase (an instance that is not Prepaid now; a clone is created
// pay-as-you-go and bought right after) or a change of auto-renewal.
func (b *programBuilder) billingAfterSettings(label string, when When) {
	bp := b.in.Desired.Billing
	if !bp.Set || !bp.Want.Prepaid() || (when == WhenAfterCreate && b.in.Role != RoleClone) {
		return
	}
	want := bp.Want
	switch prior := bp.Prior; {
	case prior == nil || !prior.Prepaid():
		b.add(Operation{Instance: label, Action: OpTransformPayType, When: when, Billing: &want})
	case prior.AutoRenew != want.AutoRenew || (want.AutoRenew && prior.Period != want.Period):
		b.add(Operation{Instance: label, Action: OpModifyAutoRenewal, When: when, Billing: &want})
	}
}

// billing runs an OpTransformPayType or OpModifyAutoRenewal. A conversion reads the instance's
// pay type first: an earlier apply whose answer was lost may have done it already, and a purchase
// is never sent twice.
func (x *executor) billing(ctx context.Context, op Operation) error {
	want := op.Billing
	if want == nil {
		return errors.New("the billing of the instance is not known at apply")
	}
	if op.Action == OpModifyAutoRenewal {
		r := rdsapi.AutoRenewal{AutoRenew: want.AutoRenew, Duration: want.RenewalMonths()}
		return x.w.RetryBusy(ctx, func() error { return x.api.ModifyInstanceAutoRenewalAttribute(ctx, x.out.ID, r) })
	}
	x.stale = true // ExpireTime and PayType change: the state after the apply reads them again
	return TransformPayType(ctx, x.api, x.w, x.out.ID, *want)
}

// TransformPayType converts an instance to want.PayType unless it has that pay type already.
func TransformPayType(ctx context.Context, api rdsapi.API, w *Waiter, id string, want Billing) error {
	attr, err := api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return err
	}
	if attr.PayType == want.PayType {
		return nil
	}
	req := &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: id, PayType: want.PayType, ClientToken: rdsapi.NewClientToken()}
	if want.Prepaid() {
		req.Subscription = &rdsapi.Subscription{Period: want.Period, UsedTime: want.UsedTime, AutoRenew: want.AutoRenew}
	}
	// A busy refusal sent nothing; resending the same token is the same order.
	err = w.RetryBusy(ctx, func() error {
		_, err := api.TransformDBInstancePayType(ctx, req)
		return err
	})
	if err != nil {
		return fmt.Errorf("TransformDBInstancePayType %s to %s: %w", id, want.PayType, err)
	}
	return nil
}
