package rdsservice

import (
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Without billing in the state, a configured billing is compared with the pay type the state says
// of the instance: an expiry means a subscription.
func TestPlanBillingPriorFromState(t *testing.T) {
	want := &Billing{PayType: rdsapi.PayTypePrepaid, Period: "Month", UsedTime: 1}
	for _, tc := range []struct {
		name         string
		want         *Billing
		prior        *BillingState
		set, prepaid bool
		priorPayType string
	}{
		{"create", want, nil, true, false, ""},
		{"not configured", nil, &BillingState{ExpireTime: "2027-01-01T00:00:00Z"}, false, true, ""},
		{"state's billing", want, &BillingState{Billing: &Billing{PayType: rdsapi.PayTypePostpaid}, PayType: rdsapi.PayTypePostpaid}, true, false, rdsapi.PayTypePostpaid},
		{"expiry", want, &BillingState{ExpireTime: "2027-01-01T00:00:00Z"}, true, true, rdsapi.PayTypePrepaid},
		{"pay type only", want, &BillingState{PayType: rdsapi.PayTypePrepaid}, true, true, rdsapi.PayTypePrepaid},
		{"nothing", want, &BillingState{}, true, false, rdsapi.PayTypePostpaid},
	} {
		bp := PlanBilling(tc.want, Known(false), tc.prior)
		got := ""
		if bp.Prior != nil {
			got = bp.Prior.PayType
		}
		if bp.Set != tc.set || bp.PriorPrepaid != tc.prepaid || got != tc.priorPayType {
			t.Errorf("%s: set %v prepaid %v prior %q, want %v %v %q", tc.name, bp.Set, bp.PriorPrepaid, got, tc.set, tc.prepaid, tc.priorPayType)
		}
	}
}
