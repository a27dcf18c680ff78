package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const testRO = "rds_readonly_instance.ro"

// noReadOnly is upgradeConfig's roVersion for a primary without a read-only instance.
const noReadOnly = "none"

// upgradeConfig is a primary on version with one read-only instance (on roVersion, or the
// primary's when empty; none with noReadOnly).
func (e *testEnv) upgradeConfig(version, roVersion string, extra string) string {
	ro := ""
	if roVersion != "" {
		ro = fmt.Sprintf("engine_version = %q", roVersion)
	}
	config := e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = %q
  instance_type  = "mysql.n2.medium.2c"
  storage        = 100
  instance_name  = "upgrade"
  %s
}
`, version, extra)
	if roVersion == noReadOnly {
		return config
	}
	return config + fmt.Sprintf(`
resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.test.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
  %s
}
`, ro)
}

// apply_restarts = "in_maintenance_window" defers the upgrade: the apply returns at once, plans
// stay empty while it waits (another version is refused), and the window upgrades the instance
// with one switchover.
func TestAccUpgradeEngineVersionInMaintenanceWindow(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	deferred := fmt.Sprintf("maintenance_window = %q\n  apply_restarts = \"in_maintenance_window\"", testWindow)
	cloudVersion := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
			if err != nil {
				return err
			}
			if string(a.EngineVersion) != want {
				return fmt.Errorf("the cloud runs %s, want %s", a.EngineVersion, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{Config: env.upgradeConfig("5.7", noReadOnly, deferred), Check: idOf(&id)},
			{
				Config: env.upgradeConfig("8.0", noReadOnly, deferred),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(testRes, tfjsonpath.New("scheduled_change")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{scheduled(false),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("engine_version"), knownvalue.StringExact("8.0"))},
				Check: resource.ComposeTestCheckFunc(env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 1, 0), cloudVersion("5.7")),
			},
			{
				Config:           env.upgradeConfig("8.0", noReadOnly, deferred),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:      env.upgradeConfig("5.7", noReadOnly, deferred),
				ExpectError: regexp.MustCompile(`(?s)The upgrade of rm-.* to MySQL 8.0 waits for the maintenance window`),
			},
			{
				PreConfig:         env.advance(),
				Config:            env.upgradeConfig("8.0", noReadOnly, deferred),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{scheduled(true)},
				Check:             resource.ComposeTestCheckFunc(env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 1, 1), cloudVersion("8.0")),
			},
		},
	})
}

// A parameter the new version does not have (the cloud drops it with the upgrade) is refused at
// plan with the new version's name for it; nothing is sent.
func TestAccUpgradeEngineVersionParameters(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	params := func(name string) string { return fmt.Sprintf("parameters = { %s = \"READ-COMMITTED\" }", name) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{Config: env.upgradeConfig("5.7", noReadOnly, params("tx_isolation")), Check: idOf(&id)},
			{
				Config:      env.upgradeConfig("8.0", noReadOnly, params("tx_isolation")),
				ExpectError: regexp.MustCompile(`(?s)MySQL 8.0 has no parameter "tx_isolation".*transaction_isolation`),
			},
			{
				// Nothing was sent.
				Config: env.upgradeConfig("5.7", noReadOnly, params("tx_isolation")),
				Check:  env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 0, 0),
			},
		},
	})
}

// checkOrders checks how many requests of one day-2 action (an engine upgrade, a minor version
// upgrade, a zone move) were sent, and the primary's restarts.
func (e *testEnv) checkOrders(action string, id *string, orders, restarts int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := e.requests(action); got != orders {
			return fmt.Errorf("%d %s requests, want %d", got, action, orders)
		}
		if got := e.restarts(*id); got != restarts {
			return fmt.Errorf("primary %s restarted %d times, want %d", *id, got, restarts)
		}
		return nil
	}
}
