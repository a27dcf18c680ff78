package rdsservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

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
