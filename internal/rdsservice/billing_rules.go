package rdsservice

import (
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Subscription (Prepaid) billing at plan (issue 27 §3): the purchase's ranges, the purchase and
// the refund a change of pay type makes (warned in the plan), renewal settings, deletion
// protection (pay-as-you-go only), and what a destroy does to a subscription instance. Every
// message is a row of the rule table; the operations are in billing_program.go (run by executor_billing.go).

// Billing values.
const (
	PayTypePostpaid = rdsapi.PayTypePostpaid
	PayTypePrepaid  = rdsapi.PayTypePrepaid
	PeriodMonth     = rdsapi.PeriodMonth
	PeriodYear      = rdsapi.PeriodYear
	// MaxUsedMonths and MaxUsedYears bound used_time (CreateDBInstance, TransformDBInstancePayType).
	MaxUsedMonths = 11
	MaxUsedYears  = 5
)

// prepaid_on_destroy values.
const (
	OnDestroyConvertAndDelete = "convert_and_delete"
	OnDestroyAbandon          = "abandon"
)

// AttrBilling is the attribute billing rules point at; AttrPrepaidOnDestroy the destroy choice.
const (
	AttrBilling          = "billing"
	AttrPrepaidOnDestroy = "prepaid_on_destroy"
)

const (
	RuleBillingPeriod        RuleID = "billing-period"
	RuleBillingUsedTime      RuleID = "billing-used-time"
	RuleBillingPostpaidTerms RuleID = "billing-postpaid-terms"
	RuleBillingProtection    RuleID = "billing-prepaid-deletion-protection"
	RuleBillingPurchase      RuleID = "billing-purchase"
	RuleBillingRefund        RuleID = "billing-refund"
	RuleBillingTermsFixed    RuleID = "billing-terms-at-purchase"
	RuleBillingDestroy       RuleID = "billing-destroy-prepaid"
	RuleBillingDestroyConv   RuleID = "billing-destroy-convert"
	RuleBillingDestroyAband  RuleID = "billing-destroy-abandon"
)

// Issue 41: the purchase a replacement makes, and the conversion that lifts an expiration lock.
const (
	RuleBillingReplacePurchase RuleID = "billing-replace-purchase"
	RuleBillingLiftsExpiry     RuleID = "billing-conversion-lifts-expiry-lock"
)

// Billing is billing = { pay_type, period, used_time, auto_renew }.
type Billing struct {
	PayType   string
	Period    string
	UsedTime  int64
	AutoRenew bool
}

// Prepaid reports whether b is a subscription.
func (b Billing) Prepaid() bool { return b.PayType == PayTypePrepaid }

// Term is the purchase in words ("3 months", "1 year").
func (b Billing) Term() string {
	unit := "month"
	if b.Period == PeriodYear {
		unit = "year"
	}
	if b.UsedTime != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", b.UsedTime, unit)
}

// RenewalMonths is the auto-renewal duration: one period (1 or 12 months), as a purchase sets it.
func (b Billing) RenewalMonths() int64 {
	if b.Period == PeriodYear {
		return 12
	}
	return 1
}

func (b Billing) renewalText() string {
	if !b.AutoRenew {
		return "off: the instance is locked when the subscription ends, unless it is renewed"
	}
	return fmt.Sprintf("on: the cloud buys %d more month(s) each time the subscription ends", b.RenewalMonths())
}

// BillingPlan is what the planner knows of billing.
type BillingPlan struct {
	// Set: billing is configured and known; otherwise nothing about billing is planned.
	Set  bool
	Want Billing
	// Prior is the instance's billing now (the refreshed state); nil for a create.
	Prior *Billing
	// DeletionProtection is the planned deletion_protection.
	DeletionProtection Val[bool]
	// PriorPrepaid: the existing instance is a subscription (also when billing is not managed);
	// OnDestroy is prepaid_on_destroy. A replacement deletes it.
	PriorPrepaid bool
	OnDestroy    string
}

// CheckBilling checks billing's values against the API's ranges.
func CheckBilling(b Billing, deletionProtection Val[bool]) []Problem {
	if !b.Prepaid() {
		if b.Period != "" || b.UsedTime != 0 || b.AutoRenew {
			return []Problem{problem(RuleBillingPostpaidTerms, b.PayType, b.PayType)}
		}
		return nil
	}
	var out []Problem
	switch b.Period {
	case PeriodMonth, PeriodYear:
		limit := int64(MaxUsedMonths)
		if b.Period == PeriodYear {
			limit = MaxUsedYears
		}
		if b.UsedTime < 1 || b.UsedTime > limit {
			out = append(out, problem(RuleBillingUsedTime, fmt.Sprint(b.UsedTime), b.UsedTime, b.Period, limit))
		}
	default:
		out = append(out, problem(RuleBillingPeriod, b.Period, b.Period))
	}
	if deletionProtection.Is(true) {
		out = append(out, problem(RuleBillingProtection, "true"))
	}
	return out
}

// planBilling checks billing and warns of the money a plan spends or gets back.
func planBilling(in PlanInput, d *Decision) {
	bp := in.Desired.Billing
	if !bp.Set {
		return
	}
	d.add(CheckBilling(bp.Want, bp.DeletionProtection)...)
	want, prior := bp.Want, bp.Prior
	if prior != nil && (want.PayType != prior.PayType || (want.Prepaid() && want.AutoRenew != prior.AutoRenew)) {
		d.Action = maxAction(d.Action, ActionUpdate) // a write: a locked instance refuses it (planInstanceState)
	}
	switch {
	case want.Prepaid() && (prior == nil || !prior.Prepaid()):
		d.add(problem(RuleBillingPurchase, want.Term(), in.Label, want.Term(), want.renewalText()))
	case !want.Prepaid() && prior != nil && prior.Prepaid():
		d.add(problem(RuleBillingRefund, PayTypePostpaid, in.Label))
	case want.Prepaid() && prior != nil && (want.UsedTime != prior.UsedTime || want.Period != prior.Period) && prior.Period != "":
		d.add(problem(RuleBillingTermsFixed, want.Term(), in.Label, prior.Term(), want.Term()))
	}
}

// planBillingReplace: a replacement deletes the subscription instance it replaces, which needs
// prepaid_on_destroy as a destroy does, and its create buys the new one's subscription (named
// here, in the plan, not first in the apply's create).
func planBillingReplace(in PlanInput, d *Decision) {
	bp := in.Desired.Billing
	d.add(PlanDestroyProgram(DestroyRequest{InstanceID: in.Label, Prepaid: bp.PriorPrepaid, OnDestroy: bp.OnDestroy}).Messages()...)
	if bp.Set {
		d.add(CheckBilling(bp.Want, bp.DeletionProtection)...)
		if bp.Want.Prepaid() {
			d.add(problem(RuleBillingReplacePurchase, bp.Want.Term(), in.Label, bp.Want.Term(), bp.Want.renewalText()))
		}
	}
	if bp.PriorPrepaid && bp.OnDestroy == OnDestroyConvertAndDelete && in.Prior != nil && IsLocked(in.Prior.LockMode) {
		// The conversion is a write, which a locked instance refuses (even a disk-quota lock, which
		// lets the delete through).
		d.add(lockProblem(in.Label, in.Prior.LockMode, in.Prior.LockReason))
	}
}

// ConvertsOutOfExpiry reports whether the plan converts an instance locked by its expired
// subscription to pay-as-you-go: the one write the cloud takes while that lock holds, which lifts
// it (the program sends it first, billing_program.go).
func ConvertsOutOfExpiry(bp BillingPlan, lockMode string) bool {
	return lockMode == lockByExpiration && bp.Set && !bp.Want.Prepaid() && bp.Prior != nil && bp.Prior.Prepaid()
}
