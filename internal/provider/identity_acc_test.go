package provider

// Resource identity and `terraform query` with a Terraform that has them (1.12+ and 1.14+): these
// tests skip on older CLIs (`make test` runs Terraform 1.11) and run in `make test-modern`, which
// points TF_ACC_TERRAFORM_PATH at a Terraform 1.15 build. The same behaviour is covered at the
// plugin protocol in `make test` (moved_alicloud_test.go, list_resources_test.go).

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// identityConfig is an instance with an account, a database and a grant.
func (e *testEnv) identityConfig() string {
	return e.instanceConfig("") + `
resource "rds_account" "app" {
  instance_id = rds_instance.test.id
  name        = "app_user"
  password    = "Identity-pass1"
}
resource "rds_database" "orders" {
  instance_id = rds_instance.test.id
  name        = "orders"
}
resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.test.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.orders.name]
}
`
}

// Every resource records its identity, and import blocks with `identity = {...}` adopt it with
// an empty plan.
func TestAccModernIdentityImport(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	importStep := func(name string) resource.TestStep {
		return resource.TestStep{
			Config: requiredProviders() + env.identityConfig(), ResourceName: name,
			ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
		}
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.identityConfig(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValueMatchesStateAtPath(testRes, tfjsonpath.New("instance_id"), tfjsonpath.New("id")),
					statecheck.ExpectIdentity("rds_account.app", map[string]knownvalue.Check{
						"instance_id": knownvalue.StringRegexp(instanceIDPattern), "name": knownvalue.StringExact("app_user"),
					}),
					statecheck.ExpectIdentityValueMatchesState("rds_database.orders", tfjsonpath.New("name")),
					statecheck.ExpectIdentity("rds_account_privilege.app", map[string]knownvalue.Check{
						"instance_id": knownvalue.StringRegexp(instanceIDPattern), "account_name": knownvalue.StringExact("app_user"),
						"privilege": knownvalue.StringExact("ReadWrite"),
					}),
				},
			},
			importStep(testRes),
			importStep("rds_database.orders"),
			importStep("rds_account_privilege.app"),
		},
	})
}

// `terraform query` lists the instances with their identities, filtered as the data source does.
func TestAccModernQueryInstances(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	for i := range 3 {
		if _, err := env.sim.AddInstance(seedOf(fmt.Sprintf("rm-query%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	// The query file holds only list blocks: the provider block is the first step's configuration,
	// which the query runs with.
	query := `
list "rds_instance" "all" {
  provider = rds
  include_resource = true
}
list "rds_instance" "none" {
  provider = rds
  config {
    name_regex = "^billing"
  }
}
`
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.providerBlock()},
			{
				Query: true, Config: query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("rds_instance.all", 3),
					querycheck.ExpectIdentity("rds_instance.all", map[string]knownvalue.Check{"instance_id": knownvalue.StringExact("rm-query01")}),
					querycheck.ExpectLength("rds_instance.none", 0),
				},
			},
		},
	})
}

var instanceIDPattern = regexp.MustCompile(`^rm-`)

// seedOf is a running MySQL 8.0 primary with id.
func seedOf(id string) simulator.SeedInstance {
	return simulator.SeedInstance{ID: id, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 100}
}

// An action triggered from a resource's lifecycle runs with the real CLI: rds_restart restarts the
// instance once, rds_backup_now adds a backup set without a restart.
func TestAccModernActions(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	id, err := env.sim.AddInstance(seedOf("rm-actions01"))
	if err != nil {
		t.Fatal(err)
	}
	config := env.providerBlock() + fmt.Sprintf(`
action "rds_restart" "now" {
  config {
    instance_id = %[1]q
  }
}
action "rds_backup_now" "now" {
  config {
    instance_id = %[1]q
  }
}
resource "terraform_data" "trigger" {
  input = "run"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rds_restart.now, action.rds_backup_now.now]
    }
  }
}
`, id)
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				if n := env.restarts(id); n != 1 {
					return fmt.Errorf("rds_restart restarted %s %d times, want 1", id, n)
				}
				if n := env.requests("CreateBackup"); n != 1 {
					return fmt.Errorf("rds_backup_now sent %d CreateBackup, want 1", n)
				}
				return nil
			},
		}},
	})
}
