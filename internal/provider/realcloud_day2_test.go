package provider

import (
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// realCloudDay2Config is the day-2 configuration of the real-cloud subset: one pay-as-you-go
// instance (the only billable object) with an account, a database, a grant, a backup policy, tags
// and a maintenance window; step 2 changes the changeable ones in place. Names start with
// tf-rds-acc- / tf_rds_acc_ so that the sweepers (internal/sweep) find what a killed run left.
func realCloudDay2Config(provider, zone, vpc, vswitch string, step int) string {
	window, team, period := "02:00Z-03:00Z", "db", `["Monday", "Thursday"]`
	if step == 2 {
		window, team, period = "19:00Z-20:00Z", "platform", `["Tuesday", "Friday"]`
	}
	return provider + fmt.Sprintf(`
resource "rds_instance" "day2" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 20
  storage_type       = "cloud_essd"
  zone_id            = %q
  vpc_id             = %q
  vswitch_id         = %q
  instance_name      = "tf-rds-acc-day2"
  maintenance_window = %q
  tags               = { team = %q }
}

resource "rds_account" "app" {
  instance_id = rds_instance.day2.id
  name        = "tf_rds_acc_app"
  password    = "Acc-test-pass-2026"
}

resource "rds_database" "orders" {
  instance_id = rds_instance.day2.id
  name        = "orders"
}

resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.day2.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.orders.name]
}

resource "rds_backup_policy" "day2" {
  instance_id             = rds_instance.day2.id
  preferred_backup_time   = "18:00Z-19:00Z"
  preferred_backup_period = %s
  backup_retention_period = 7
}
`, zone, vpc, vswitch, window, team, period)
}

// realCloudDay2Steps apply the configuration, then change it in place (no replacement, no restart).
func realCloudDay2Steps(config func(step int) string) []resource.TestStep {
	const addr = "rds_instance.day2"
	return []resource.TestStep{
		{
			Config: config(1),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("Running")),
				statecheck.ExpectKnownValue("rds_database.orders", tfjsonpath.New("status"), knownvalue.StringExact("Running")),
			},
		},
		{
			Config: config(2),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("rds_backup_policy.day2", plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("maintenance_window"), knownvalue.StringExact("19:00Z-20:00Z")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("tags").AtMapKey("team"), knownvalue.StringExact("platform")),
			},
		},
	}
}

// TestAccRealCloud_day2 is the day-2 part of the real-cloud subset (make test-cloud): accounts,
// databases, grants, backup policy, tags and the maintenance window on one instance.
func TestAccRealCloud_day2(t *testing.T) {
	realCloudPreCheck(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: realCloudDay2Steps(func(step int) string {
			return realCloudDay2Config("provider \"rds\" {}\n", os.Getenv("RDS_REAL_ZONE_ID"), os.Getenv("RDS_REAL_VPC_ID"), os.Getenv("RDS_REAL_VSWITCH_ID"), step)
		}),
	})
}

// TestAccRealCloudDay2OnSimulator runs the real-cloud day-2 configuration and steps against the
// simulator in make test, so the subset a maintainer runs against the cloud is tested code.
func TestAccRealCloudDay2OnSimulator(t *testing.T) {
	e := newTestEnv(t, testSimOptions())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: realCloudDay2Steps(func(step int) string {
			return realCloudDay2Config(e.providerBlock(), "cn-hangzhou-i", "vpc-1", "vsw-1", step)
		}),
	})
}
