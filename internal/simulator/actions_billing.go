package simulator

import (
	"strconv"
	"strings"
	"time"
)

// Subscription (Prepaid) billing, after the RDS API reference (README, "Subscription billing"):
// CreateDBInstance with PayType=Prepaid, Period, UsedTime and AutoRenew; TransformDBInstancePayType;
// ModifyInstanceAutoRenewalAttribute and DescribeInstanceAutoRenewalAttribute. A subscription
// expires on the simulator's clock: auto-renewal extends it, otherwise the instance is locked
// (LockByExpiration) until it is renewed or converted.

const (
	payPostpaid = "Postpaid"
	payPrepaid  = "Prepaid"
	// maxUsedMonths and maxUsedYears bound UsedTime (CreateDBInstance, TransformDBInstancePayType).
	maxUsedMonths = 11
	maxUsedYears  = 5
	// maxRenewMonths bounds ModifyInstanceAutoRenewalAttribute's Duration.
	maxRenewMonths = 12
)

// subscription is the billing of a Prepaid instance.
type subscription struct {
	ExpireTime time.Time `json:"expire_time"`
	AutoRenew  bool      `json:"auto_renew"`
	// RenewMonths is the auto-renewal duration: one period of the purchase (1 or 12 months) until
	// ModifyInstanceAutoRenewalAttribute sets another.
	RenewMonths int  `json:"renew_months"`
	Expired     bool `json:"expired,omitempty"`
}

// parseSubscription reads Period, UsedTime and AutoRenew of a purchase (PayType=Prepaid); nil for
// any other pay type. AutoPay=false (an order left unpaid) is refused: the simulator models paid
// orders only (assumption).
func parseSubscription(p params, payType string, now time.Time) (*subscription, *apiError) {
	if payType != payPrepaid {
		return nil, nil
	}
	if _, e := p.required("Period"); e != nil {
		return nil, e
	}
	period, e := p.oneOf("Period", "", "Month", "Year")
	if e != nil {
		return nil, e
	}
	if _, e := p.required("UsedTime"); e != nil {
		return nil, e
	}
	used, _, e := p.integer("UsedTime")
	if e != nil {
		return nil, e
	}
	months, limit := int(used), maxUsedMonths
	if period == "Year" {
		months, limit = int(used)*12, maxUsedYears
	}
	if used < 1 || used > int64(limit) {
		return nil, newErr(400, "InvalidUsedTime.Malformed", "UsedTime %d is not valid for Period=%s: 1 to %d.", used, period, limit)
	}
	autoRenew, e := p.boolean("AutoRenew")
	if e != nil {
		return nil, e
	}
	if p.has("AutoPay") {
		if pay, e := p.boolean("AutoPay"); e != nil {
			return nil, e
		} else if !pay {
			return nil, errInvalid("AutoPay", "the simulator models paid orders only (AutoPay=true)")
		}
	}
	renew := 1
	if period == "Year" {
		renew = 12
	}
	return &subscription{ExpireTime: now.AddDate(0, months, 0), AutoRenew: autoRenew, RenewMonths: renew}, nil
}

// errPrepaidProtection refuses deletion protection on a subscription instance: the cloud offers it
// for pay-as-you-go instances only (code: assumption).
func errPrepaidProtection(id string) *apiError {
	return newErr(403, "OperationDenied.PayType", "Deletion protection is available for pay-as-you-go instances only; %s is Prepaid.", id)
}

// errPrepaidDelete is DeleteDBInstance on a subscription primary (the code the API reference lists).
func errPrepaidDelete(id string) *apiError {
	return newErr(403, "OperationDenied.PrePayTypeNotSupported", "The operation is not permitted due to pay type of instance: %s is Prepaid; convert it to Postpaid first (TransformDBInstancePayType).", id)
}

// expireTime is ExpireTime: the subscription's end, or one month after creation for a Prepaid
// instance created without one (read-only instances and clones); empty for pay-as-you-go.
func expireTime(in *instance) string {
	switch {
	case in.Subscription != nil:
		return in.Subscription.ExpireTime.Format(timestampLayout)
	case in.PayType == payPrepaid:
		return in.CreationTime.AddDate(0, 1, 0).Format(timestampLayout)
	}
	return ""
}

// expireSubscriptions renews or locks the subscriptions that ended at now. A renewal extends the
// subscription by its duration as often as needed; an instance not renewed is locked
// (LockByExpiration) unless another lock holds it.
func (s *Simulator) expireSubscriptions(now time.Time) bool {
	changed := false
	for _, in := range s.state.Instances {
		sub := in.Subscription
		if sub == nil || sub.Expired || now.Before(sub.ExpireTime) {
			continue
		}
		changed = true
		if sub.AutoRenew && sub.RenewMonths > 0 {
			for !now.Before(sub.ExpireTime) {
				sub.ExpireTime = sub.ExpireTime.AddDate(0, sub.RenewMonths, 0)
			}
			continue
		}
		sub.Expired = true
		if in.lockMode() == lockUnlocked {
			in.LockMode, in.LockReason = lockByExpiration, defaultLockReasonForExpiration
		}
	}
	return changed
}

// transformDBInstancePayType: TransformDBInstancePayType. To Prepaid buys Period x UsedTime from
// now; to Postpaid ends the subscription (the cloud refunds the rest minus a fee) and lifts an
// expiration lock.
func (s *Simulator) transformDBInstancePayType(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("PayType"); e != nil {
		return nil, e
	}
	target, e := c.p.oneOf("PayType", "", payPostpaid, payPrepaid)
	if e != nil {
		return nil, e
	}
	if target == in.PayType {
		return nil, newErr(400, "InvalidPayType.Same", "Instance %s is already %s.", in.ID, target)
	}
	if e := transformAllowed(in, target); e != nil {
		return nil, e
	}
	sub, e := parseSubscription(c.p, target, c.now)
	if e != nil {
		return nil, e
	}
	in.PayType, in.Subscription = target, sub
	if target == payPostpaid && in.LockMode == lockByExpiration {
		in.LockMode, in.LockReason = "", ""
	}
	c.dirty = true
	// OrderId is an integer, as both SDK models declare it.
	out := map[string]any{"DBInstanceId": in.ID, "OrderId": s.nextOrder(), "ChargeType": "POSTPAY"}
	if sub != nil {
		out["ChargeType"], out["ExpiredTime"] = "PREPAY", expireTime(in)
	}
	return out, nil
}

// transformAllowed: the instance is Running, not locked (an expired subscription may still be
// converted to pay-as-you-go, which is how an owner ends it), and without deletion protection when
// it becomes Prepaid.
func transformAllowed(in *instance, target string) *apiError {
	if in.Status != statusRunning {
		return errBusy(in.ID, in.Status)
	}
	endsExpired := in.LockMode == lockByExpiration && target == payPostpaid
	if in.lockMode() != lockUnlocked && !endsExpired {
		return in.writable("TransformDBInstancePayType")
	}
	if target == payPrepaid && in.DeletionProtection {
		return errPrepaidProtection(in.ID)
	}
	return nil
}

// modifyInstanceAutoRenewalAttribute: AutoRenew True|False; Duration 1-12 (months) with True.
func (s *Simulator) modifyInstanceAutoRenewalAttribute(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("AutoRenew"); e != nil {
		return nil, e
	}
	on, e := c.p.boolean("AutoRenew")
	if e != nil {
		return nil, e
	}
	if in.Subscription == nil {
		return nil, newErr(403, "OperationDenied.PayType", "Instance %s is %s: auto-renewal applies to subscription (Prepaid) instances only.", in.ID, in.PayType)
	}
	months := in.Subscription.RenewMonths
	if on {
		raw, e := c.p.required("Duration")
		if e != nil {
			return nil, e
		}
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil || n < 1 || n > maxRenewMonths {
			return nil, newErr(400, "InvalidDuration.Malformed", "Duration %q is not valid: 1 to %d months.", truncate(raw), maxRenewMonths)
		}
		months = n
	}
	in.Subscription.AutoRenew, in.Subscription.RenewMonths = on, months
	c.dirty = true
	return map[string]any{}, nil
}

// describeInstanceAutoRenewalAttribute lists the renewal settings of subscription instances (one
// with DBInstanceId), classic paging.
func (s *Simulator) describeInstanceAutoRenewalAttribute(c *call) (map[string]any, *apiError) {
	var items []map[string]any
	for _, in := range s.state.sortedInstances() {
		if in.Subscription == nil || (c.p.has("DBInstanceId") && c.p.get("DBInstanceId") != in.ID) {
			continue
		}
		auto := "False"
		if in.Subscription.AutoRenew {
			auto = "True"
		}
		items = append(items, map[string]any{"DBInstanceId": in.ID, "RegionId": in.RegionID,
			"Duration": in.Subscription.RenewMonths, "AutoRenew": auto, "Status": "Normal"})
	}
	if items == nil {
		items = []map[string]any{}
	}
	return map[string]any{"PageNumber": 1, "PageRecordCount": len(items), "TotalRecordCount": len(items),
		"Items": map[string]any{"Item": items}}, nil
}

// renewPeriods are RenewInstance's Period values in months (RenewInstance reference).
var renewPeriods = map[int64]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 12: true, 24: true, 36: true, 48: true, 60: true}

// renewInstance: RenewInstance (Period months, AutoPay, AutoRenew, ClientToken). The subscription is
// extended from its end, or from now when it has ended; an expiration lock lifts. Only a
// subscription instance is renewed (OperationDenied.PayType, assumption); another lock refuses it.
func (s *Simulator) renewInstance(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	raw, e := c.p.required("Period")
	if e != nil {
		return nil, e
	}
	period, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || !renewPeriods[period] {
		return nil, newErr(400, "InvalidPeriod.Malformed", "Period %q is not valid: 1 to 9, 12, 24, 36, 48 or 60 months.", truncate(raw))
	}
	if in.PayType != payPrepaid {
		return nil, newErr(403, "OperationDenied.PayType", "Instance %s is %s: only subscription (Prepaid) instances are renewed.", in.ID, in.PayType)
	}
	if c.p.has("AutoPay") {
		if pay, e := c.p.boolean("AutoPay"); e != nil || !pay {
			return nil, errInvalid("AutoPay", "the simulator models paid orders only (AutoPay=true)")
		}
	}
	if in.lockMode() != lockUnlocked && in.LockMode != lockByExpiration {
		return nil, in.writable("RenewInstance")
	}
	renewSubscription(in, int(period), c.now)
	if c.p.has("AutoRenew") {
		on, e := c.p.boolean("AutoRenew")
		if e != nil {
			return nil, e
		}
		in.Subscription.AutoRenew = on
	}
	c.dirty = true
	return map[string]any{"OrderId": s.nextOrder()}, nil // a long, as the RenewInstance reference and SDK models say
}

// renewSubscription extends the subscription by months from its end (from now once it has ended)
// and lifts the expiration lock.
func renewSubscription(in *instance, months int, now time.Time) {
	if in.Subscription == nil { // a read-only instance or a clone bought without terms
		end, _ := time.Parse(timestampLayout, expireTime(in))
		in.Subscription = &subscription{ExpireTime: end, RenewMonths: 1}
	}
	sub := in.Subscription
	from := sub.ExpireTime
	if from.Before(now) {
		from = now
	}
	sub.ExpireTime, sub.Expired = from.AddDate(0, months, 0), false
	if in.LockMode == lockByExpiration {
		in.LockMode, in.LockReason = "", ""
	}
}
