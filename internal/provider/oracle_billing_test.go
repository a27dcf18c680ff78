package provider

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Subscription billing in the oracle (issue 27 §3): the combination factor "billing" (a Prepaid
// instance through the other changes, bought or ended in place, auto-renewal changed) and the
// single scenarios "billing: ..." (a destroy of every billing kind).

// oraclePrepaid is a Prepaid billing object.
func oraclePrepaid(period string, usedTime int, autoRenew bool) map[string]any {
	return map[string]any{"pay_type": "Prepaid", "period": period, "used_time": usedTime, "auto_renew": autoRenew}
}

// comboBilling sets billing on the primary. A Prepaid instance always has prepaid_on_destroy =
// "convert_and_delete", so that the replacements of the other factors can delete it.
func comboBilling(level string, pb, pa map[string]any) {
	postpaid := map[string]any{"pay_type": "Postpaid"}
	switch level {
	case "prepaid":
		pb["billing"], pa["billing"] = oraclePrepaid("Month", 1, false), oraclePrepaid("Month", 1, false)
	case "bought in place":
		pb["billing"], pa["billing"] = postpaid, oraclePrepaid("Year", 1, true)
	case "ended in place":
		pb["billing"], pa["billing"] = oraclePrepaid("Month", 2, true), postpaid
	case "renewal changed":
		pb["billing"], pa["billing"] = oraclePrepaid("Month", 1, false), oraclePrepaid("Month", 1, true)
	default:
		return
	}
	pb["prepaid_on_destroy"], pa["prepaid_on_destroy"] = "convert_and_delete", "convert_and_delete"
}

// abandonedOnDestroy: the destroy of this state removes it from state without deleting it (a
// subscription instance with prepaid_on_destroy = "abandon"), as its plan says.
func abandonedOnDestroy(prior tftypes.Value) bool {
	var choice, expire string
	_ = attrOf(prior, "prepaid_on_destroy").As(&choice)
	_ = attrOf(prior, "expire_time").As(&expire)
	return choice == "abandon" && expire != ""
}

// refusedPrepaidDelete: the plan refused the replacement of a subscription instance because its
// delete needs prepaid_on_destroy; the request to compare is the delete.
func refusedPrepaidDelete(d rdsservice.Decision) bool {
	for _, e := range d.Errors() {
		if e.Rule == rdsservice.RuleBillingDestroy {
			return true
		}
	}
	return false
}
