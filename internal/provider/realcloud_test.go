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

// realCloudEnv lists what the real-cloud suite needs. It creates a billable pay-as-you-go
// instance, so it runs only when RDS_REAL_CLOUD=1 is set on purpose.
var realCloudEnv = []string{
	"ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", "ALIBABA_CLOUD_REGION",
	"RDS_REAL_ZONE_ID", "RDS_REAL_VPC_ID", "RDS_REAL_VSWITCH_ID",
}

func realCloudPreCheck(t *testing.T) {
	if os.Getenv("RDS_REAL_CLOUD") != "1" {
		t.Skip("real-cloud suite: set RDS_REAL_CLOUD=1 and " + fmt.Sprint(realCloudEnv) + " to run it (it creates a billable instance)")
	}
	for _, name := range realCloudEnv {
		if os.Getenv(name) == "" {
			t.Fatalf("RDS_REAL_CLOUD=1 needs %s", name)
		}
	}
	if os.Getenv("ALIBABA_CLOUD_RDS_ENDPOINT") != "" {
		t.Fatal("unset ALIBABA_CLOUD_RDS_ENDPOINT: the real-cloud suite must reach the regional endpoint")
	}
}

func realCloudConfig(flag bool) string {
	return fmt.Sprintf(`
provider "rds" {}

resource "rds_instance" "real" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  storage_type     = "cloud_essd"
  zone_id          = %q
  vpc_id           = %q
  vswitch_id       = %q
  instance_name    = "tf-rds-acc-real"
  atomic_write_16k = %t
}
`, os.Getenv("RDS_REAL_ZONE_ID"), os.Getenv("RDS_REAL_VPC_ID"), os.Getenv("RDS_REAL_VSWITCH_ID"), flag)
}

// TestAccRealCloud_createToggleImport is the one test that talks to Alibaba Cloud: create with
// the flag on, toggle it off (one restart), import, destroy.
func TestAccRealCloud_createToggleImport(t *testing.T) {
	realCloudPreCheck(t)
	const addr = "rds_instance.real"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: realCloudConfig(true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("Running")),
				},
			},
			{
				Config: realCloudConfig(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(false)),
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}
