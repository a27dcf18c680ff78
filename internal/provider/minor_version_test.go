package provider

import (
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

// minorConfig is a MySQL 8.0 primary on target (with extra settings), and a read-only instance
// unless withRO is false.
func (e *testEnv) minorConfig(target string, withRO bool, extra string) string {
	config := e.upgradeConfig("8.0", noReadOnly, fmt.Sprintf("target_minor_version = %q\n  %s", target, extra))
	if !withRO {
		return config
	}
	return config + `
resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.test.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
}
`
}

func minorIs(addr, v string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("minor_version"), knownvalue.StringExact(v))
}

// Issue 25 §2: a later target_minor_version is an upgrade in place with its switchover, named at
// plan with the read-only instance's restart; prevent_restart refuses it; an older target (the
// cloud's version is later) plans nothing.
func TestAccMinorVersionUpgradeInPlace(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id, roID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				Config:            env.minorConfig("rds_20201031", true, ""),
				ConfigStateChecks: []statecheck.StateCheck{minorIs(testRes, "rds_20201031"), minorIs(testRO, "rds_20201031")},
				Check: resource.ComposeTestCheckFunc(idOf(&id), resource.TestCheckResourceAttr(testRes, "auto_upgrade_minor_version", "Auto"),
					func(s *terraform.State) error { roID = s.RootModule().Resources[testRO].Primary.ID; return nil }),
			},
			{
				Config:      env.minorConfig("20201031", true, ""),
				ExpectError: regexp.MustCompile(`Invalid target_minor_version`),
			},
			{
				Config:      env.minorConfig("rds_20230630", true, "prevent_restart = true"),
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan.*target_minor_version changes from rds_20201031 to rds_20230630.*switchover.*rr-`),
			},
			{
				Config: env.minorConfig("rds_20230630", true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("minor_version"), knownvalue.StringExact("rds_20230630")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{minorIs(testRes, "rds_20230630")},
				Check: resource.ComposeTestCheckFunc(sameID(&id), env.checkOrders("UpgradeDBInstanceKernelVersion", &id, 1, 1), func(*terraform.State) error {
					if n := env.restarts(roID); n != 1 {
						return fmt.Errorf("the read-only instance restarted %d times, want 1", n)
					}
					return nil
				}),
			},
			{
				Config:            env.minorConfig("rds_20230630", true, ""),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{minorIs(testRO, "rds_20230630")},
			},
			{
				// Never a downgrade: the older value is recorded, nothing is sent.
				Config: env.minorConfig("rds_20201031", true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("minor_version"), knownvalue.StringExact("rds_20230630")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{minorIs(testRes, "rds_20230630")},
				Check:             env.checkOrders("UpgradeDBInstanceKernelVersion", &id, 1, 1),
			},
		},
	})
}

// Issue 26 §4: TDE on MySQL 5.6 needs minor version rds_20191015. Below it the plan refuses TDE
// with the fix (nothing is sent); with target_minor_version set in the same apply the program
// upgrades the minor version first, then turns TDE on.
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

// sameID fails when the instance in state is not the one recorded earlier: it was replaced.
func sameID(id *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if got := s.RootModule().Resources[testRes].Primary.ID; got != *id {
			return fmt.Errorf("the instance was replaced: %s, was %s", got, *id)
		}
		return nil
	}
}
