package rdsapi

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Subscription billing (RDS API reference: CreateDBInstance's Period/UsedTime/AutoRenew/AutoPay,
// TransformDBInstancePayType, ModifyInstanceAutoRenewalAttribute,
// DescribeInstanceAutoRenewalAttribute).

// PayTypePrepaid is a subscription instance; PayTypePostpaid (types.go) pay-as-you-go.
const PayTypePrepaid = "Prepaid"

// Subscription periods.
const (
	PeriodMonth = "Month"
	PeriodYear  = "Year"
)

// Subscription is what a purchase carries: Period, UsedTime and AutoRenew. It is sent with
// CreateDBInstance (PayType=Prepaid, AutoPay=true) and TransformDBInstancePayType.
type Subscription struct {
	Period    string
	UsedTime  int64
	AutoRenew bool
}

// set writes the purchase parameters. AutoPay=true pays the order at once: without it the
// cloud leaves an unpaid order and no instance.
func (s *Subscription) set(p params, withAutoPay bool) {
	p.set("Period", s.Period)
	p.setInt("UsedTime", s.UsedTime)
	p.setBool("AutoRenew", s.AutoRenew)
	if withAutoPay {
		p.setBool("AutoPay", true)
	}
}

// TransformDBInstancePayTypeRequest changes an instance's billing: to PayTypePrepaid with a
// Subscription (a purchase), or to PayTypePostpaid (the cloud refunds the rest minus a fee).
type TransformDBInstancePayTypeRequest struct {
	DBInstanceID string
	PayType      string
	Subscription *Subscription
	// ClientToken makes a resend the same order; empty: a new token.
	ClientToken string
}

// TransformDBInstancePayTypeResponse is the order.
type TransformDBInstancePayTypeResponse struct {
	RequestID   string     `json:"RequestId"`
	OrderID     FlexString `json:"OrderId"`
	ChargeType  string     `json:"ChargeType"`
	ExpiredTime string     `json:"ExpiredTime"`
}

// TransformDBInstancePayType sends the change of billing. It spends or refunds money, so it is not
// resent after an answer is lost (the caller reads the instance's PayType instead).
func (c *Client) TransformDBInstancePayType(ctx context.Context, req *TransformDBInstancePayTypeRequest) (*TransformDBInstancePayTypeResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS TransformDBInstancePayType: %w", err)
	}
	switch {
	case req.PayType == PayTypePrepaid && req.Subscription == nil:
		return nil, fmt.Errorf("RDS TransformDBInstancePayType: PayType=Prepaid needs Period and UsedTime")
	case req.PayType != PayTypePrepaid && req.PayType != PayTypePostpaid:
		return nil, fmt.Errorf("RDS TransformDBInstancePayType: PayType %q is not Prepaid or Postpaid", req.PayType)
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, fmt.Errorf("RDS TransformDBInstancePayType: %w", err)
	}
	p.set("PayType", req.PayType)
	p.set("ClientToken", token)
	if req.PayType == PayTypePrepaid {
		req.Subscription.set(p, false)
	}
	var out TransformDBInstancePayTypeResponse
	if err := c.call(ctx, "TransformDBInstancePayType", p, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AutoRenewal is an instance's auto-renewal: on, for Duration months (1 to 12).
type AutoRenewal struct {
	AutoRenew bool
	Duration  int64
}

// MaxRenewalMonths is ModifyInstanceAutoRenewalAttribute's longest Duration.
const MaxRenewalMonths = 12

// ModifyInstanceAutoRenewalAttribute sets auto-renewal; Duration is sent only when it is on.
func (c *Client) ModifyInstanceAutoRenewalAttribute(ctx context.Context, dbInstanceID string, r AutoRenewal) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyInstanceAutoRenewalAttribute: %w", err)
	}
	if r.AutoRenew && (r.Duration < 1 || r.Duration > MaxRenewalMonths) {
		return fmt.Errorf("RDS ModifyInstanceAutoRenewalAttribute: Duration %d is not 1 to %d months", r.Duration, MaxRenewalMonths)
	}
	p.set("RegionId", c.regionID)
	p.set("AutoRenew", map[bool]string{true: "True", false: "False"}[r.AutoRenew])
	if r.AutoRenew {
		p.setInt("Duration", r.Duration)
	}
	return c.call(ctx, "ModifyInstanceAutoRenewalAttribute", p, true, nil)
}

// describeAutoRenewalResponse is DescribeInstanceAutoRenewalAttribute's answer.
type describeAutoRenewalResponse struct {
	Items struct {
		Item []struct {
			DBInstanceID string     `json:"DBInstanceId"`
			Duration     FlexString `json:"Duration"`
			AutoRenew    string     `json:"AutoRenew"`
		} `json:"Item"`
	} `json:"Items"`
}

// DescribeInstanceAutoRenewal reads one subscription instance's auto-renewal; found is false when
// the cloud lists none for it (a pay-as-you-go instance).
func (c *Client) DescribeInstanceAutoRenewal(ctx context.Context, dbInstanceID string) (r AutoRenewal, found bool, err error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return r, false, fmt.Errorf("RDS DescribeInstanceAutoRenewalAttribute: %w", err)
	}
	p.set("RegionId", c.regionID)
	var out describeAutoRenewalResponse
	if err := c.call(ctx, "DescribeInstanceAutoRenewalAttribute", p, true, &out); err != nil {
		return r, false, err
	}
	for _, it := range out.Items.Item {
		if it.DBInstanceID != dbInstanceID {
			continue
		}
		n, convErr := strconv.ParseInt(string(it.Duration), 10, 64)
		if convErr != nil && it.Duration != "" {
			return r, false, fmt.Errorf("RDS DescribeInstanceAutoRenewalAttribute: Duration %q is not a number", it.Duration)
		}
		return AutoRenewal{AutoRenew: strings.EqualFold(it.AutoRenew, "True"), Duration: n}, true, nil
	}
	return r, false, nil
}

// RenewPeriods are RenewInstance's valid Period values, in months (RenewInstance reference).
var RenewPeriods = []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 24, 36, 48, 60}

// RenewInstanceRequest renews a subscription instance by Period months, paid at once (AutoPay).
type RenewInstanceRequest struct {
	DBInstanceID string
	Period       int64
	// ClientToken makes a resend the same order; empty: a new token.
	ClientToken string
}

// RenewInstanceResponse is the order.
type RenewInstanceResponse struct {
	RequestID string     `json:"RequestId"`
	OrderID   FlexString `json:"OrderId"`
}

// RenewInstance sends a manual renewal. It spends money, so it is not resent after an answer is
// lost (the caller reads the instance's ExpireTime instead).
func (c *Client) RenewInstance(ctx context.Context, req *RenewInstanceRequest) (*RenewInstanceResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS RenewInstance: %w", err)
	}
	if !slices.Contains(RenewPeriods, req.Period) {
		return nil, fmt.Errorf("RDS RenewInstance: Period %d is not one of %v months", req.Period, RenewPeriods)
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, fmt.Errorf("RDS RenewInstance: %w", err)
	}
	p.set("RegionId", c.regionID)
	p.setInt("Period", req.Period)
	p.setBool("AutoPay", true)
	p.set("ClientToken", token)
	var out RenewInstanceResponse
	if err := c.call(ctx, "RenewInstance", p, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
