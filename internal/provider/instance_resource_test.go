package provider

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Acceptance tests: real terraform plan/apply (TF_ACC=1) against an in-process simulator, one
// simulator per test so they run in parallel.

const testRes = "rds_instance.test"

// instanceConfig renders an rds_instance with the given extra attribute lines.
func (e *testEnv) instanceConfig(extra string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "acctest"
%s
}
`, extra)
}

// idOf remembers the instance id after a step.
func idOf(dest *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[testRes]
		if !ok {
			return fmt.Errorf("%s not in state", testRes)
		}
		*dest = rs.Primary.ID
		return nil
	}
}

// checkCounts asserts the simulator's restart counter and ModifyDBInstanceSpec count for id.
func (e *testEnv) checkCounts(id *string, restarts, specs int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := e.restarts(*id); got != restarts {
			return fmt.Errorf("instance %s restarted %d times, want %d", *id, got, restarts)
		}
		if got := e.requests("ModifyDBInstanceSpec"); got != specs {
			return fmt.Errorf("%d ModifyDBInstanceSpec requests, want %d", got, specs)
		}
		return nil
	}
}

func flagState(v bool) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(v))
}

// The instance family's terraform test: create with the computed flag, toggle it twice (one
// restart each), an empty plan, then `terraform import` with ImportStateVerify. The family's other
// tests are played at the plugin protocol (instance_protocol_test.go, ip_arrays_protocol_test.go,
// instance_security_protocol_test.go, edition_protocol_test.go, backup_instance_protocol_test.go).
func TestAccInstance_createToggleNoopImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				// Unset flag: the plan already holds the computed default.
				Config: env.instanceConfig(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("instruction_set_arch"), knownvalue.StringExact("x86")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					flagState(true),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("status"), knownvalue.StringExact("Running")),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("storage_type"), knownvalue.StringExact("cloud_essd")),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("category"), knownvalue.StringExact("HighAvailability")),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("buffer_pool_extension"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("connection_string"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("read_only_instance_ids"), knownvalue.ListSizeExact(0)),
				},
				Check: resource.ComposeTestCheckFunc(idOf(&id), env.checkCounts(&id, 0, 0), env.checkOneCreate()),
			},
			{
				Config: env.instanceConfig("  atomic_write_16k = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{flagState(false)},
				Check:             env.checkCounts(&id, 1, 1),
			},
			{
				Config: env.instanceConfig("  atomic_write_16k = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{flagState(true)},
				Check:             env.checkCounts(&id, 2, 2),
			},
			{
				// The same configuration again: an empty plan, and no restart.
				Config: env.instanceConfig("  atomic_write_16k = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: env.checkCounts(&id, 2, 2),
			},
			{
				ResourceName:      testRes,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

// An instance deleted outside Terraform leaves the state at the next refresh and plans a create
// (kept as a terraform test: the post-apply refresh and plan are terraform's own).
func TestAccInstance_disappears(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				Config:             env.instanceConfig(""),
				Check:              resource.ComposeTestCheckFunc(idOf(&id), env.deleteOutside(&id)),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// restoreSource plants a MySQL 8.0 source instance with 16K atomic write on and returns its id.
func (e *testEnv) restoreSource(t *testing.T, class string, bought time.Time) string {
	t.Helper()
	src, err := e.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: class,
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: bought, OptimizedWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// restoreConfig is an rds_instance of class cloned from src; extra adds attributes, restore the
// restore_from fields after source_instance_id.
func (e *testEnv) restoreConfig(class, extra, restore string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = %q
  storage        = 20
%s
  restore_from = {
%s
  }
}
`, class, extra, restore)
}

// ---- helpers that act on the simulator outside Terraform ----

// checkDestroyed lists every instance in the region: after destroy only the ones the test planted
// outside Terraform (keep) may remain, so a replacement that left its first instance behind fails.
func (e *testEnv) checkDestroyed(keep ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		items, err := rdsservice.ListAllDBInstances(context.Background(), e.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
		if err != nil {
			return err
		}
		var left []string
		for _, it := range items {
			if !slices.Contains(keep, it.DBInstanceID) {
				left = append(left, it.DBInstanceID)
			}
		}
		if len(left) > 0 || len(items) != len(keep) {
			return fmt.Errorf("after destroy %d instances remain (%v), want only %v", len(items), left, keep)
		}
		return nil
	}
}

func (e *testEnv) deleteOutside(id *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := e.api.DeleteDBInstance(ctx, *id); err != nil {
			return err
		}
		return e.data.Waiter.WaitDeleted(ctx, *id)
	}
}

// checkOneCreate asserts the instance came from exactly one CreateDBInstance (no retried
// duplicate, no toggle after creation).
func (e *testEnv) checkOneCreate() resource.TestCheckFunc {
	return func(*terraform.State) error {
		if e.requests("CreateDBInstance") != 1 {
			return fmt.Errorf("want one CreateDBInstance, got %v", e.sim.Stats().Requests)
		}
		return nil
	}
}
