package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
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
