package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func minorIs(addr, v string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("minor_version"), knownvalue.StringExact(v))
}

// Issue 26 §4: TDE on MySQL 5.6 needs minor version rds_20191015. Below it the plan refuses TDE
// with the fix (nothing is sent); with target_minor_version set in the same apply the program
// upgrades the minor version first, then turns TDE on. The terraform test of the zone and
// minor-version moves; TestMinorVersionUpgradeInPlace, TestMinorVersionInMaintenanceWindow and
// the zone tests (zone_protocol_test.go) play the rest at the plugin protocol.
func TestAccMinorVersionBeforeTDEOn56(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	config := func(target, extra string) string {
		return env.upgradeConfig("5.6", noReadOnly, fmt.Sprintf("target_minor_version = %q\n  auto_upgrade_minor_version = \"Manual\"\n  %s", target, extra))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{Config: config("rds_20190815", ""), Check: idOf(&id)},
			{
				Config:      config("rds_20190815", "tde_enabled = true"),
				ExpectError: regexp.MustCompile(`(?s)TDE on MySQL 5.6 needs minor version rds_20191015.*target_minor_version = "rds_20191015"`),
			},
			{
				Config:            config("rds_20191015", "tde_enabled = true"),
				ConfigStateChecks: []statecheck.StateCheck{minorIs(testRes, "rds_20191015")},
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(testRes, "tde_enabled", "true"), func(*terraform.State) error {
					if n := env.requests("ModifyDBInstanceTDE"); n != 1 {
						return fmt.Errorf("%d ModifyDBInstanceTDE requests, want 1 (none refused)", n)
					}
					return nil
				}, env.checkOrders("UpgradeDBInstanceKernelVersion", &id, 1, 2)),
			},
		},
	})
}
