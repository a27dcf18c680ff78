package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// zoneConfig is a High-availability primary in a VPC with placement (HCL lines) and extra, and
// one read-only instance; zoneConfigClass with another class.
func (e *testEnv) zoneConfig(placement, extra string) string {
	return e.zoneConfigClass("mysql.n2.medium.2c", placement, extra)
}

func (e *testEnv) zoneConfigClass(class, placement, extra string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = %q
  storage        = 100
  instance_name  = "zones"
  vpc_id         = "vpc-zones"
  %s
  %s
}

resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.test.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
}
`, class, placement, extra)
}

// Issue 25 §3: zone_id, zone_id_slave_a and vswitch_id change in place with one switchover. A
// vSwitch left in the old zone and prevent_restart are refused at plan (nothing is sent); the
// move keeps the id and the read-only instance; the secondary zone is read back.
func TestAccZoneMoveInPlace(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	const (
		inI = `zone_id = "cn-hangzhou-i"
  vswitch_id = "vsw-zones-i"`
		toJ = `zone_id = "cn-hangzhou-j"
  zone_id_slave_a = "cn-hangzhou-k"
  vswitch_id = "vsw-zones-j"`
	)
	zones := func(zone, slave string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id"), knownvalue.StringExact(zone)),
			statecheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id_slave_a"), knownvalue.StringExact(slave)),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{Config: env.zoneConfig(inI, ""), Check: idOf(&id), ConfigStateChecks: zones("cn-hangzhou-i", "cn-hangzhou-i")},
			{
				Config:      env.zoneConfig(`zone_id = "cn-hangzhou-j"`+"\n  vswitch_id = \"vsw-zones-i\"", ""),
				ExpectError: regexp.MustCompile(`(?s)Moving rm-\S+ \(zones\) to cn-hangzhou-j needs a vSwitch in cn-hangzhou-j.*Set vswitch_id to a vSwitch of\s+vpc-zones`),
			},
			{
				Config:      env.zoneConfig(toJ, "prevent_restart = true"),
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan: it restarts RDS instance rm-.*zone_id\s+changes\s+from\s+"cn-hangzhou-i"\s+to\s+"cn-hangzhou-j".*switchover`),
			},
			{
				Config:      env.zoneConfigClass("mysql.n2.large.2c", toJ, ""),
				ExpectError: regexp.MustCompile(`(?s)Move rm-\S+ \(zones\) to another zone in an apply of its own.*instance_type`),
			},
			{
				// Nothing was sent.
				Config: env.zoneConfig(inI, ""),
				Check:  env.checkOrders("MigrateToOtherZone", &id, 0, 0),
			},
			{
				Config: env.zoneConfig(toJ, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(testRO, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id_slave_a"), knownvalue.StringExact("cn-hangzhou-k")),
				}},
				ConfigStateChecks: zones("cn-hangzhou-j", "cn-hangzhou-k"),
				Check:             resource.ComposeTestCheckFunc(sameID(&id), env.checkOrders("MigrateToOtherZone", &id, 1, 1)),
			},
			{
				Config:           env.zoneConfig(toJ, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
