package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Issue 41, item 1: replacing a subscription instance buys the new one's subscription, and the
// plan says so (not the apply's create, after the money is spent).
func TestPlanReplacementNamesItsPurchase(t *testing.T) {
	prior := programPrior()
	desired := billingPlan(monthly(1, false), ptrTo(monthly(1, false)))
	desired.Billing.PriorPrepaid, desired.Billing.OnDestroy = true, OnDestroyConvertAndDelete
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Replace: []string{"vpc_id"}, Facts: Facts{Now: time.Now()}})
	var buys *Problem
	for i, p := range d.Problems {
		if p.Rule == RuleBillingReplacePurchase {
			buys = &d.Problems[i]
		}
	}
	if buys == nil || !strings.Contains(buys.Summary, "1 month subscription for the instance that replaces rm-1") {
		t.Fatalf("the replacement's plan does not name its purchase: %v", rulesOf(d.Problems))
	}
	if !slicesContains(rulesOf(d.Problems), RuleBillingDestroyConv) {
		t.Fatalf("the old instance's conversion is no longer named: %v", rulesOf(d.Problems))
	}
	desired.Billing.Want = Billing{PayType: PayTypePostpaid}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Replace: []string{"vpc_id"}, Facts: Facts{Now: time.Now()}})
	if slicesContains(rulesOf(d.Problems), RuleBillingReplacePurchase) {
		t.Fatalf("a pay-as-you-go replacement is named a purchase: %v", rulesOf(d.Problems))
	}
}

// Issue 41, item 2: an instance locked by its expired subscription, converted to pay-as-you-go
// with a class change: the conversion goes first (the only write the lock lets through), and the
// plan says the lock lifts instead of warning that the apply fails.
func TestPlanExpiredConversionGoesFirst(t *testing.T) {
	prior := programPrior()
	prior.LockMode = lockByExpiration
	desired := billingPlan(Billing{PayType: PayTypePostpaid}, ptrTo(monthly(1, false)))
	desired.InstanceClass = Known("mysql.n2.large.2c")
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
	var steps []string
	for _, op := range d.Program.Operations {
		if op.Action == OpTransformPayType || op.Action == OpModifySpec {
			steps = append(steps, op.Action)
		}
	}
	if want := []string{OpTransformPayType, OpModifySpec}; !reflect.DeepEqual(steps, want) || d.Program.Operations[0].Action != OpTransformPayType {
		t.Fatalf("program %v (first %s), want the conversion first: %v", steps, d.Program.Operations[0].Action, want)
	}
	rules := rulesOf(d.Problems)
	if slicesContains(rules, RuleInstanceLocked) || !slicesContains(rules, RuleBillingLiftsExpiry) {
		t.Fatalf("problems %v: want %s and not %s", rules, RuleBillingLiftsExpiry, RuleInstanceLocked)
	}
	// Any other lock still warns: the conversion does not lift it.
	prior.LockMode = "ManualLock"
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}}); !slicesContains(rulesOf(d.Problems), RuleInstanceLocked) {
		t.Fatalf("a manual lock is not warned of: %v", rulesOf(d.Problems))
	}
}
