package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_renew (issue 41, item 4): a manual renewal of a subscription instance (RenewInstance, paid at
// once), the way out of an expiration lock besides a conversion to pay-as-you-go. The plan names
// the purchase and the new end; a pay-as-you-go instance or a Period the API does not take is
// refused at plan, with no write.

// OpRenewInstance is rds_renew's operation.
const OpRenewInstance = "RenewInstance"

// Rules of rds_renew.
const (
	RuleRenewBuys       RuleID = "renew-buys"
	RuleRenewPeriod     RuleID = "renew-period"
	RuleRenewNotPrepaid RuleID = "renew-not-prepaid"
)

// AttrRenewPeriod is rds_renew's period; renewSource the rules' source.
const (
	AttrRenewPeriod = "period"
	renewSource     = "cloud fact: RenewInstance reference (internal/simulator/README.md, Subscription billing)"
)

// PlanRenew is the plan's message for renewing the instance attr describes by months: the
// purchase and the new end, or the refusal.
func PlanRenew(action string, attr *rdsapi.DBInstanceAttribute, months int64, now time.Time) Problem {
	id := attr.DBInstanceID
	switch {
	case !slices.Contains(rdsapi.RenewPeriods, months):
		return Raise(RuleRenewPeriod, fmt.Sprint(months), action, int(months))
	case attr.PayType != PayTypePrepaid:
		return Raise(RuleRenewNotPrepaid, attr.PayType, action, id, attr.PayType)
	}
	return Raise(RuleRenewBuys, fmt.Sprint(months), action, id, int(months), attr.ExpireTime, renewedUntil(attr.ExpireTime, months, now))
}

// renewedUntil is the end of a subscription ending at expire (the API's timestamp) renewed by
// months: from its end, or from now once it has ended.
func renewedUntil(expire string, months int64, now time.Time) string {
	from, err := time.Parse("2006-01-02T15:04:05Z", expire)
	if err != nil {
		return "its end (unknown) plus " + fmt.Sprint(months) + " month(s)"
	}
	if from.Before(now) {
		from = now
	}
	return from.AddDate(0, int(months), 0).UTC().Format("2006-01-02T15:04:05Z")
}

// renewInstance sends the renewal once (a lost answer is not resent: the plan of the next
// invocation shows the new end) and reads the instance back.
func renewInstance(ctx context.Context, api rdsapi.API, w *Waiter, id string, months int64) (*rdsapi.DBInstanceAttribute, error) {
	req := &rdsapi.RenewInstanceRequest{DBInstanceID: id, Period: months, ClientToken: rdsapi.NewClientToken()}
	if err := w.RetryBusy(ctx, func() error { _, err := api.RenewInstance(ctx, req); return err }); err != nil {
		return nil, fmt.Errorf("RenewInstance %s: %w", id, err)
	}
	return api.DescribeDBInstanceAttribute(ctx, id)
}
