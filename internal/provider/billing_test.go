package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// billedConfig is an rds_instance with billing (an HCL object, "" for none) and extra lines.
func (e *testEnv) billedConfig(billing, extra string) string {
	if billing != "" {
		extra += "\n  billing = " + billing
	}
	return e.taggedConfig(nil, nil, extra)
}

// checkPayType asserts the instance's pay type in the cloud and the count of an action so far.
func (e *testEnv) checkPayType(id *string, payType string, action string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, err := e.api.DescribeDBInstanceAttribute(context.Background(), *id)
		if err != nil {
			return err
		}
		if a.PayType != payType {
			return fmt.Errorf("PayType %s, want %s", a.PayType, payType)
		}
		if got := e.requests(action); got != n {
			return fmt.Errorf("%d %s, want %d", got, action, n)
		}
		return nil
	}
}

// Bad billing is refused at plan by its row, naming the value, with no write. The family's
// terraform test: TestBilling_prepaidLifecycle (billing_protocol_test.go) covers a subscription's
// life.
func TestAccBilling_refusedAtPlan(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	cases := []struct{ billing, extra, want string }{
		{`{ pay_type = "Prepaid", period = "Month", used_time = 12 }`, "", `used_time = 12 with period = "Month"`},
		{`{ pay_type = "Prepaid", period = "Week", used_time = 1 }`, "", `got "Week"`},
		{`{ pay_type = "Postpaid", used_time = 1 }`, "", `Postpaid" is pay-as-you-go`},
		{`{ pay_type = "Prepaid", period = "Year", used_time = 1 }`, "  deletion_protection = true", `deletion_protection is for pay-as-you-go`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: env.billedConfig(c.billing, c.extra), PlanOnly: true,
			ExpectError: regexp.MustCompile(regexp.QuoteMeta(c.want))})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	if n := env.mutations(); n != 0 {
		t.Fatalf("%d writes for refused plans", n)
	}
}

// The plan of a destroy, for every billing kind, decided at plan with no write: pay-as-you-go says
// nothing; a subscription (here converted outside Terraform, billing not managed: expire_time
// tells) is refused without prepaid_on_destroy and named with it.
func TestModifyPlanDestroyOfEveryBillingKind(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	state := stateOf(t, env, id)
	config, _ := updateInputs(state, func(*instanceModel) {})
	wantNoDiags(t, runModifyPlan(t, env, &config, nil, &state).diags)

	if _, err := env.api.TransformDBInstancePayType(context.Background(), &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: id,
		PayType: rdsapi.PayTypePrepaid, Subscription: &rdsapi.Subscription{Period: "Month", UsedTime: 1}}); err != nil {
		t.Fatal(err)
	}
	writes := env.mutations()
	state = stateOf(t, env, id)
	if !isKnown(state.ExpireTime) || state.ExpireTime.ValueString() == "" {
		t.Fatalf("a subscription's expire_time is read: %v", state.ExpireTime)
	}
	at := path.Root("prepaid_on_destroy")
	wantDiag(t, runModifyPlan(t, env, &config, nil, &state).diags, diag.SeverityError, at, "needs prepaid_on_destroy", id, "convert_and_delete", "abandon")
	state.PrepaidOnDestroy = types.StringValue("abandon")
	wantDiag(t, runModifyPlan(t, env, &config, nil, &state).diags, diag.SeverityWarning, at, "only removes it from state: it stays billed")
	state.PrepaidOnDestroy = types.StringValue("convert_and_delete")
	wantDiag(t, runModifyPlan(t, env, &config, nil, &state).diags, diag.SeverityWarning, at, "converts it to pay-as-you-go, then releases it")
	if n := env.mutations(); n != writes {
		t.Fatalf("plans of a destroy wrote %d times", n-writes)
	}
}

// A Prepaid alicloud_db_instance with force_delete = true moves with prepaid_on_destroy =
// "convert_and_delete" (alicloud's force_delete converts before deleting); without force_delete
// the choice is left unset, so its destroy is refused at plan.
func TestMoveFromAlicloudCarriesForceDelete(t *testing.T) {
	c := newMovedCloud(t)
	facts := c.instanceFacts(t, movedPrimary)
	raw := string(renderAlicloudState(t, "db_instance", facts))
	for _, force := range []bool{true, false} {
		src := strings.Replace(raw, `"instance_charge_type": "Postpaid"`, `"instance_charge_type": "Prepaid"`, 1)
		src = strings.Replace(src, `"force_delete": false`, fmt.Sprintf(`"force_delete": %t`, force), 1)
		if src == raw {
			t.Fatal("the alicloud state template no longer holds instance_charge_type and force_delete")
		}
		resp := c.move(t, alicloudProvider, "alicloud_db_instance", "rds_instance", []byte(src))
		if diagsHaveError(resp.Diagnostics) {
			t.Fatalf("MoveResourceState: %s", diagText(resp.Diagnostics))
		}
		moved, err := resp.TargetState.Unmarshal(c.w.h.objType("rds_instance"))
		if err != nil {
			t.Fatal(err)
		}
		want := tftypes.NewValue(tftypes.String, nil)
		if force {
			want = tftypes.NewValue(tftypes.String, "convert_and_delete")
		}
		if got := attrOf(moved, "prepaid_on_destroy"); !got.Equal(want) {
			t.Errorf("force_delete = %t: prepaid_on_destroy = %s, want %s", force, got, want)
		}
	}
}

// Issue 41, item 2: a subscription that expired without auto-renewal (LockByExpiration), converted
// to pay-as-you-go together with a class change, in one apply: the conversion is sent first, and
// the class change follows in the same apply (TestPlanExpiredConversionGoesFirst checks the plan's
// words).
func TestAccBilling_expiredConvertedWithClassChange(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	prepaid := env.billedConfig(`{ pay_type = "Prepaid", period = "Month", used_time = 1, auto_renew = false }`, "  prepaid_on_destroy = \"convert_and_delete\"")
	converted := strings.Replace(env.billedConfig(`{ pay_type = "Postpaid" }`, "  prepaid_on_destroy = \"convert_and_delete\""),
		`"mysql.n2.medium.2c"`, `"mysql.n2.large.2c"`, 1)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: []resource.TestStep{
		{Config: prepaid, Check: resource.ComposeTestCheckFunc(idOf(&id), env.checkPayType(&id, rdsapi.PayTypePrepaid, "TransformDBInstancePayType", 0))},
		{PreConfig: func() { env.sim.AdvanceClock(40 * 24 * time.Hour) }, Config: converted, Check: resource.ComposeTestCheckFunc(env.checkPayType(&id, rdsapi.PayTypePostpaid, "TransformDBInstancePayType", 1),
			env.checkClassInCloud(&id, "mysql.n2.large.2c"))},
	}})
}
