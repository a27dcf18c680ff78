package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// billedResources is billedConfig at the protocol: the test instance with billing (nil for none)
// and extra attributes.
func billedResources(billing map[string]any, extra map[string]any) []oracleResource {
	attrs := map[string]any{"billing": billing}
	for k, v := range extra {
		attrs[k] = v
	}
	return instanceResources("mysql.n2.medium.2c", 20, attrs)
}

// A subscription through its life: bought at create (CreateDBInstance carries it), a destroy
// refused at plan without prepaid_on_destroy (no write), auto-renewal in place, converted to
// pay-as-you-go and bought again in place, then destroyed by convert_and_delete. Every apply is
// followed by an empty plan. The steps and checks of a terraform test, played at the plugin
// protocol (TestAccBilling_refusedAtPlan keeps the family's terraform test).
func TestBilling_prepaidLifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	monthly := map[string]any{"pay_type": "Prepaid", "period": "Month", "used_time": 2, "auto_renew": false}
	renewing := map[string]any{"pay_type": "Prepaid", "period": "Month", "used_time": 2, "auto_renew": true}
	yearly := map[string]any{"pay_type": "Prepaid", "period": "Year", "used_time": 1}
	const transform = "TransformDBInstancePayType"
	expireTimeSet := func(*terraform.State) error {
		if attrOf(w.state[testRes], "expire_time").IsNull() {
			return fmt.Errorf("state expire_time is null")
		}
		return nil
	}
	w.checkedStep(t, "monthly", billedResources(monthly, nil), &id, expireTimeSet, env.checkOneCreate(),
		env.checkPayType(&id, "Prepaid", transform, 0))
	expectErrorText(t, "destroy", w.planErrorOf(t, nil), regexp.MustCompile(`(?s)needs prepaid_on_destroy.*prepaid_on_destroy is not set, which does not say what to do`))
	runChecks(t, "destroy", env.checkPayType(&id, "Prepaid", "DeleteDBInstance", 0))
	plan := w.checkedStep(t, "renewing", billedResources(renewing, nil), &id,
		env.checkPayType(&id, "Prepaid", "ModifyInstanceAutoRenewalAttribute", 1), env.checkPayType(&id, "Prepaid", transform, 0))
	expectAction(t, "renewing", plan, testRes, actUpdate)
	w.checkedStep(t, "postpaid", billedResources(map[string]any{"pay_type": "Postpaid"}, nil), &id,
		w.stateIs(testRes, "expire_time", nil), env.checkPayType(&id, "Postpaid", transform, 1))
	w.checkedStep(t, "yearly", billedResources(yearly, map[string]any{"prepaid_on_destroy": "convert_and_delete"}), &id,
		env.checkPayType(&id, "Prepaid", transform, 2), env.checkCounts(&id, 0, 0))
	w.destroyStep(t, env)
	if n := env.requests(transform); n != 3 {
		t.Errorf("convert_and_delete converts before deleting: %d transforms, want 3", n)
	}
}

// Issue 41, item 1: replacing a subscription instance (vpc_id) with convert_and_delete names, at
// plan, the subscription the replacement buys, besides the old instance's conversion.
func TestBilling_replacementNamesItsPurchase(t *testing.T) {
	t.Parallel()
	_, w := envWorld(t, testSimOptions())
	var id string
	monthly := map[string]any{"pay_type": "Prepaid", "period": "Month", "used_time": 1, "auto_renew": false}
	w.checkedStep(t, "monthly", billedResources(monthly, map[string]any{"prepaid_on_destroy": "convert_and_delete"}), &id)
	moved := billedResources(monthly, map[string]any{"prepaid_on_destroy": "convert_and_delete", "vpc_id": "vpc-other", "vswitch_id": "vsw-other"})
	plan, err := w.planWalk(moved)
	if err != nil || plan.errAt != "" {
		t.Fatalf("plan of the replacement: %v %s", err, plan.errMsg)
	}
	text := warningText(plan.res[testRes].shown)
	if !regexp.MustCompile(`buys a 1 month subscription for the instance that replaces `+id).MatchString(text) ||
		!regexp.MustCompile(`converts it to pay-as-you-go`).MatchString(text) {
		t.Fatalf("the replacement's plan warns %q; want the new purchase and the old conversion named in the first plan call (core drops the warnings of the second)", text)
	}
}
