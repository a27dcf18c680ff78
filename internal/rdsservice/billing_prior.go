package rdsservice

import "github.com/openrds/terraform-provider-rds/internal/rdsapi"

// BillingState is an existing instance's billing as its state holds it.
type BillingState struct {
	// Billing is the state's billing (nil: not managed, or not known).
	Billing *Billing
	// PayType is the state's billing.pay_type ("" when unset or not known); ExpireTime its
	// expire_time and OnDestroy its prepaid_on_destroy.
	PayType, ExpireTime, OnDestroy string
}

// Prepaid: the state's billing says Prepaid, or the instance has an expiry (the cloud sets
// ExpireTime for subscriptions only).
func (s BillingState) Prepaid() bool {
	return s.PayType == rdsapi.PayTypePrepaid || s.ExpireTime != ""
}

// PlanBilling is the planner's billing input: want is billing as configured (nil: not configured,
// or not known), prior the state's (nil for a create). Without billing in the state, the instance's
// pay type is what the state says of it (Prepaid).
func PlanBilling(want *Billing, deletionProtection Val[bool], prior *BillingState) BillingPlan {
	bp := BillingPlan{Set: want != nil, DeletionProtection: deletionProtection}
	if want != nil {
		bp.Want = *want
	}
	if prior == nil {
		return bp
	}
	bp.PriorPrepaid, bp.OnDestroy = prior.Prepaid(), prior.OnDestroy
	switch {
	case want == nil:
	case prior.Billing != nil:
		bp.Prior = prior.Billing
	case prior.Prepaid():
		bp.Prior = &Billing{PayType: rdsapi.PayTypePrepaid}
	default:
		bp.Prior = &Billing{PayType: rdsapi.PayTypePostpaid}
	}
	return bp
}
