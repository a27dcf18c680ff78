package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Acceptance tests for the plan's promises (issue 11, section 2): each step names the behaviour
// it proves; the simulator's counters show what the apply did.
// The steps that need no terraform process run at the plugin protocol in
// plan_promises_protocol_test.go (TestPlan_storageRules and the others there); the tests here show
// what only terraform can (restarts in the CLI's text, import blocks, data sources).

func (e *testEnv) wantRequests(action string, n int) acc.TestCheckFunc {
	return func(*terraform.State) error {
		if got := e.requests(action); got != n {
			return fmt.Errorf("%d %s requests, want %d (%v)", got, action, n, e.sim.Stats().Requests)
		}
		return nil
	}
}

// §2.4: a read-only instance plans with its primary's planned value.
func TestAccReadonlyPlan_primaryAndReadOnlyInOneRun(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	cfg := func(primaryOn bool, count int, extra string) string {
		return env.providerBlock() + roAccPrimary(primaryOn) + roAccReplicasWith(count, extra+"\n")
	}
	roFlag := func(i int, v bool) plancheck.PlanCheck {
		return plancheck.ExpectKnownValue(fmt.Sprintf("rds_readonly_instance.ro[%d]", i), tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(v))
	}
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []acc.TestStep{
			{Config: cfg(true, 1, ""), Check: roAccSettled(env, true)},
			{
				// Both off in one apply: the read-only plan sees the primary turning off.
				Config: cfg(false, 1, "  atomic_write_16k = false"),
				Check:  roAccSettled(env, false),
			},
			{
				// The primary turning on while the read-only instance is configured off: refused at plan.
				Config:      cfg(true, 1, "  atomic_write_16k = false"),
				ExpectError: regexp.MustCompile(`(?s)16K atomic write cannot be off on a read-only instance.*will have 16K atomic\s+write on`),
			},
			{
				// A follower with prevent_restart refuses the plan that restarts it through its primary.
				Config:      cfg(true, 1, "  prevent_restart = true"),
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan: it restarts.*follows its primary`),
			},
			{
				// The follower shows its change in its own plan; a new read-only instance created in
				// the same apply inherits the primary's new value. The next plan is empty.
				Config:           cfg(true, 2, ""),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{roFlag(0, true), roFlag(1, true)}},
				// ro[0] restarted once when turned off (step 2) and once following its primary here;
				// ro[1] was created with the flag on, without a restart.
				Check: acc.ComposeTestCheckFunc(roAccSettled(env, true), roAccWantRestarts(env, 2, "rds_readonly_instance.ro.0"),
					roAccWantRestarts(env, 0, "rds_readonly_instance.ro.1")),
			},
		},
	})
}

// §2.6: importing into a configuration that omits security_ips keeps the allow-list, and the state
// holds no empty optional strings (a generated configuration would not pass validation).
func TestAccInstance_importKeepsSecurityIPs(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	ctx := context.Background()
	out, err := env.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{RegionID: env.data.Region, Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		PayType: rdsapi.PayTypePostpaid, SecurityIPList: "10.0.0.0/24", DBInstanceDescription: "acctest", OptimizedWrites: rdsapi.OptimizedWritesOn})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.data.Waiter.WaitRunning(ctx, out.DBInstanceID); err != nil {
		t.Fatal(err)
	}
	cfg := env.instanceConfig("") + fmt.Sprintf("\nimport {\n  to = rds_instance.test\n  id = %q\n}\n", out.DBInstanceID)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []acc.TestStep{{
			Config: cfg,
			ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionNoop),
				plancheck.ExpectKnownValue(testRes, tfjsonpath.New("security_ips"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("10.0.0.0/24")})),
				plancheck.ExpectKnownValue(testRes, tfjsonpath.New("vpc_id"), knownvalue.Null()),
			}},
			Check: env.wantRequests("ModifySecurityIps", 0),
		}},
	})
}

// §2.7: destroying a primary and a read-only instance that Terraform does not order (the read-only
// instance finds its primary through a data source) succeeds the first time.
func TestAccReadonly_destroyPrimaryAndReadOnlyTogether(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	primary := env.providerBlock() + roAccPrimary(true)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []acc.TestStep{
			{Config: primary},
			{Config: primary + `
data "rds_instances" "orders" {
  name_regex = "^orders$"
}

resource "rds_readonly_instance" "ro" {
  master_instance_id = data.rds_instances.orders.ids[0]
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
}
`},
		},
	})
}

// Interrupting an apply reports a cancellation, not a timeout.
func TestOperationErrorTellsCancellationFromTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msg := rdsservice.OperationError(ctx, ctx.Err()); !regexp.MustCompile(`cancelled`).MatchString(msg) {
		t.Errorf("cancelled: %q", msg)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if msg := rdsservice.OperationError(ctx, ctx.Err()); regexp.MustCompile(`cancelled`).MatchString(msg) {
		t.Errorf("timeout reported as a cancellation: %q", msg)
	}
}
