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
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
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

// §2.3: a clone's engine_version must be its source's: refused at plan, nothing cloned.
func TestAccPlan_cloneVersionMustMatchSource(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	cfg := env.restoreConfig("mysql.n2.medium.2c", "", fmt.Sprintf("    source_instance_id = %q\n    backup_id = \"b-1\"", src))
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(src),
		Steps: []acc.TestStep{
			{
				Config:      regexp.MustCompile(`engine_version = "8.0"`).ReplaceAllString(cfg, `engine_version = "5.7"`),
				ExpectError: regexp.MustCompile(`(?s)A clone cannot differ from its source.*engine_version = "5.7"`),
			},
			{Config: cfg, Check: env.wantRequests("CloneDBInstance", 1)},
		},
	})
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

// Issue 19, items 1 and 4: a clone is predicted with its own class (a 2024 YiTian source cloned
// into an x86 class loses 16K atomic write: rule 9 with the source's purchase date), and a
// restore_time outside the source's lifetime is refused at plan.
func TestAccPlan_clonePredictionAndRestoreWindow(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	clone := func(class, restore string) string {
		return env.restoreConfig(class, "", fmt.Sprintf("    source_instance_id = %q\n%s", src, restore))
	}
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(src),
		Steps: []acc.TestStep{
			{
				Config:      clone("mysql.n2m.medium.2c", `    restore_time = "2024-01-01T00:00:00Z"`),
				ExpectError: regexp.MustCompile(`(?s)restore_time is outside the source's restorable window.*2024-01-01T00:00:00Z`),
			},
			{
				Config: clone("mysql.n2.medium.2c", `    backup_id = "b-1"`),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(false)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{flagState(false)},
				Check:             env.wantRequests("CloneDBInstance", 1),
			},
		},
	})
}

// Interrupting an apply reports a cancellation, not a timeout.
func TestOperationErrorTellsCancellationFromTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msg := operationError(ctx, ctx.Err()); !regexp.MustCompile(`cancelled`).MatchString(msg) {
		t.Errorf("cancelled: %q", msg)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if msg := operationError(ctx, ctx.Err()); regexp.MustCompile(`cancelled`).MatchString(msg) {
		t.Errorf("timeout reported as a cancellation: %q", msg)
	}
}

// Issue 19, item 3: a clone keeps its source's product line, so moving a clone of a 2024 YiTian
// source to an x86 class loses 16K atomic write, and the plan says so (the clone's own
// creation_time is today).
func TestAccPlan_cloneKeepsSourceProductLine(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	restore := fmt.Sprintf("    source_instance_id = %q\n    backup_id = \"b-1\"", src)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(src),
		Steps: []acc.TestStep{
			{
				Config: env.restoreConfig("mysql.n2m.medium.2c", "", restore),
				ConfigStateChecks: []statecheck.StateCheck{
					flagState(true),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("purchase_time"), knownvalue.StringExact("2024-06-01T00:00:00Z")),
				},
			},
			{
				Config: env.restoreConfig("mysql.n2.medium.2c", "", restore),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(false)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{flagState(false)},
			},
		},
	})
}

// Issue 19, item 1: a general_essd clone with buffer_pool_extension gets it right after the clone
// (CloneDBInstance cannot set it), with the one restart the plan announced.
func TestAccPlan_cloneBufferPoolExtension(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	var id string
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(src),
		Steps: []acc.TestStep{
			{
				Config: env.restoreConfig("mysql.n2.medium.2c", "  storage_type = \"general_essd\"\n  buffer_pool_extension = true\n  prevent_restart = true",
					fmt.Sprintf("    source_instance_id = %q\n    backup_id = \"b-1\"", src)),
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan.*buffer_pool_extension is turned on right after creation`),
			},
			{
				Config: env.restoreConfig("mysql.n2.medium.2c", "  storage_type = \"general_essd\"\n  buffer_pool_extension = true",
					fmt.Sprintf("    source_instance_id = %q\n    backup_id = \"b-1\"", src)),
				ConfigStateChecks: []statecheck.StateCheck{
					flagState(true),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("buffer_pool_extension"), knownvalue.Bool(true)),
				},
				Check: acc.ComposeTestCheckFunc(idOf(&id), env.checkCounts(&id, 1, 1)),
			},
		},
	})
}
