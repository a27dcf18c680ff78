package rdsservice

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func monthly(n int64, autoRenew bool) Billing {
	return Billing{PayType: PayTypePrepaid, Period: PeriodMonth, UsedTime: n, AutoRenew: autoRenew}
}

func billingPlan(want Billing, prior *Billing) Desired {
	d := programDesired()
	d.Billing = BillingPlan{Set: true, Want: want, Prior: prior, DeletionProtection: Known(false)}
	return d
}

func billingSteps(p Program) []string {
	var out []string
	for _, op := range p.Operations {
		switch op.Action {
		case OpTransformPayType, OpModifyAutoRenewal, OpModifySettings:
			out = append(out, op.Action)
		}
	}
	return out
}

func rulesOf(ps []Problem) []RuleID {
	var out []RuleID
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return out
}

// The API's ranges, each refused by its row with the value, and deletion protection with Prepaid.
func TestCheckBillingRanges(t *testing.T) {
	cases := []struct {
		b    Billing
		prot bool
		want []RuleID
	}{
		{monthly(1, false), false, nil},
		{monthly(11, true), false, nil},
		{Billing{PayType: PayTypePrepaid, Period: PeriodYear, UsedTime: 5}, false, nil},
		{monthly(12, false), false, []RuleID{RuleBillingUsedTime}},
		{monthly(0, false), false, []RuleID{RuleBillingUsedTime}},
		{Billing{PayType: PayTypePrepaid, Period: PeriodYear, UsedTime: 6}, false, []RuleID{RuleBillingUsedTime}},
		{Billing{PayType: PayTypePrepaid, Period: "Week", UsedTime: 1}, false, []RuleID{RuleBillingPeriod}},
		{Billing{PayType: PayTypePostpaid, UsedTime: 1}, false, []RuleID{RuleBillingPostpaidTerms}},
		{Billing{PayType: PayTypePostpaid}, true, nil},
		{monthly(1, false), true, []RuleID{RuleBillingProtection}},
	}
	for _, c := range cases {
		got := rulesOf(CheckBilling(c.b, Known(c.prot)))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v protection %t: %v, want %v", c.b, c.prot, got, c.want)
		}
	}
	p := CheckBilling(monthly(12, false), Known(false))[0]
	if p.Value != "12" || p.Severity != SeverityError {
		t.Errorf("the problem names the value: %+v", p)
	}
}

// A purchase is warned with its term; the program converts in place, before the settings when
// going to pay-as-you-go and after them when buying; a renewal change is its own operation; a
// create carries the purchase in CreateDBInstance.
func TestProgramBillingOperations(t *testing.T) {
	prior := programPrior()
	now := Facts{Now: time.Now()}
	post := Billing{PayType: PayTypePostpaid}
	cases := []struct {
		name       string
		want       Billing
		prior      *Billing
		steps      []string
		rule       RuleID
		ruleDetail string
	}{
		{"unchanged", monthly(1, false), ptrTo(monthly(1, false)), []string{OpModifySettings}, "", ""},
		{"buy", monthly(3, true), &post, []string{OpModifySettings, OpTransformPayType}, RuleBillingPurchase, "3 months"},
		{"end", post, ptrTo(monthly(3, true)), []string{OpTransformPayType, OpModifySettings}, RuleBillingRefund, ""},
		{"renewal", monthly(1, true), ptrTo(monthly(1, false)), []string{OpModifySettings, OpModifyAutoRenewal}, "", ""},
		{"term only", monthly(6, false), ptrTo(monthly(1, false)), []string{OpModifySettings}, RuleBillingTermsFixed, "6 months"},
	}
	for _, c := range cases {
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: billingPlan(c.want, c.prior), Facts: now})
		if got := billingSteps(d.Program); !reflect.DeepEqual(got, c.steps) {
			t.Errorf("%s: program %v, want %v", c.name, got, c.steps)
		}
		rules := rulesOf(d.Problems)
		if (c.rule == "") != (len(rules) == 0) || (c.rule != "" && rules[0] != c.rule) {
			t.Errorf("%s: problems %v, want %q", c.name, rules, c.rule)
		}
		if c.ruleDetail != "" && !strings.Contains(d.Problems[0].Summary+d.Problems[0].Detail, c.ruleDetail) {
			t.Errorf("%s: the message names the term %q: %+v", c.name, c.ruleDetail, d.Problems[0])
		}
	}
	create := Plan(PlanInput{Label: "new", Desired: billingPlan(monthly(2, false), nil), Facts: now})
	if got := billingSteps(create.Program); len(got) != 0 || !reflect.DeepEqual(rulesOf(create.Problems), []RuleID{RuleBillingPurchase}) {
		t.Fatalf("a create carries the purchase and warns: %v %v", got, rulesOf(create.Problems))
	}
	clone := Plan(PlanInput{Label: "new", Role: RoleClone, Desired: billingPlan(monthly(2, false), nil), Facts: now})
	if got := billingSteps(clone.Program); !reflect.DeepEqual(got, []string{OpModifySettings, OpTransformPayType}) {
		t.Fatalf("a clone is bought right after it is created: %v", got)
	}
}

// billingAPI answers the pay type and records the billing writes.
type billingAPI struct {
	rdsapi.API
	payType    string
	transforms []rdsapi.TransformDBInstancePayTypeRequest
	renewals   []rdsapi.AutoRenewal
}

func (a *billingAPI) DescribeDBInstanceAttribute(_ context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	return &rdsapi.DBInstanceAttribute{DBInstanceID: id, PayType: a.payType, DBInstanceStatus: StatusRunning}, nil
}

func (a *billingAPI) TransformDBInstancePayType(_ context.Context, r *rdsapi.TransformDBInstancePayTypeRequest) (*rdsapi.TransformDBInstancePayTypeResponse, error) {
	a.transforms = append(a.transforms, *r)
	a.payType = r.PayType
	return &rdsapi.TransformDBInstancePayTypeResponse{}, nil
}

func (a *billingAPI) ModifyInstanceAutoRenewalAttribute(_ context.Context, _ string, r rdsapi.AutoRenewal) error {
	a.renewals = append(a.renewals, r)
	return nil
}

// The executor sends a purchase once: an instance that is Prepaid already (an earlier apply whose
// answer was lost) is not bought again; the auto-renewal duration follows the period.
func TestExecutorBillingSendsPurchaseOnce(t *testing.T) {
	api := &billingAPI{payType: PayTypePostpaid}
	x := &executor{api: api, w: &Waiter{API: api}, out: Outcome{ID: "rm-1"}}
	buy := Billing{PayType: PayTypePrepaid, Period: PeriodYear, UsedTime: 2, AutoRenew: true}
	for i := 0; i < 2; i++ {
		if err := x.billing(context.Background(), Operation{Action: OpTransformPayType, Billing: &buy}); err != nil {
			t.Fatal(err)
		}
	}
	if len(api.transforms) != 1 {
		t.Fatalf("%d transforms, want 1", len(api.transforms))
	}
	s := api.transforms[0].Subscription
	if api.transforms[0].PayType != PayTypePrepaid || s == nil || s.Period != PeriodYear || s.UsedTime != 2 || !s.AutoRenew {
		t.Fatalf("transform %+v %+v", api.transforms[0], s)
	}
	if err := x.billing(context.Background(), Operation{Action: OpModifyAutoRenewal, Billing: &buy}); err != nil {
		t.Fatal(err)
	}
	if len(api.renewals) != 1 || api.renewals[0] != (rdsapi.AutoRenewal{AutoRenew: true, Duration: 12}) {
		t.Fatalf("renewals %+v", api.renewals)
	}
}

// A replacement deletes the subscription instance it replaces: refused at plan without
// prepaid_on_destroy, named with it; a billing write makes the plan an update (the lock warning
// names it).
func TestPlanBillingReplaceAndLock(t *testing.T) {
	prior := programPrior()
	desired := billingPlan(monthly(1, false), ptrTo(monthly(1, false)))
	desired.Billing.PriorPrepaid = true
	replace := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Replace: []string{"zone_id"}, Facts: Facts{Now: time.Now()}})
	if !reflect.DeepEqual(rulesOf(replace.Errors()), []RuleID{RuleBillingDestroy}) {
		t.Fatalf("replacing a Prepaid instance without prepaid_on_destroy: %v", rulesOf(replace.Problems))
	}
	desired.Billing.OnDestroy = OnDestroyConvertAndDelete
	replace = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Replace: []string{"zone_id"}, Facts: Facts{Now: time.Now()}})
	if replace.HasErrors() || !slicesContains(rulesOf(replace.Problems), RuleBillingDestroyConv) {
		t.Fatalf("with convert_and_delete: %v", rulesOf(replace.Problems))
	}
	diskFull := programPrior()
	diskFull.LockMode = "LockByDiskQuota"
	replace = Plan(PlanInput{Label: "rm-1", Prior: &diskFull, Desired: desired, Replace: []string{"zone_id"}, Facts: Facts{Now: time.Now()}})
	if !slicesContains(rulesOf(replace.Problems), RuleInstanceLocked) {
		t.Fatalf("converting a locked instance before its delete is warned: %v", rulesOf(replace.Problems))
	}
	locked := programPrior()
	locked.LockMode = "ManualLock"
	end := billingPlan(Billing{PayType: PayTypePostpaid}, ptrTo(monthly(1, false)))
	if d := Plan(PlanInput{Label: "rm-1", Prior: &locked, Desired: end, Facts: Facts{Now: time.Now()}}); !slicesContains(rulesOf(d.Problems), RuleInstanceLocked) {
		t.Fatalf("a conversion of a locked instance is a write the plan warns of: %v", rulesOf(d.Problems))
	}
}

func slicesContains(ids []RuleID, id RuleID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
