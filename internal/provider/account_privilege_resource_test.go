package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// grantsConfig is an account, two databases and a grant of privilege on dbs.
func grantsConfig(e *testEnv, id, privilege string, dbs ...string) string {
	refs := make([]string, len(dbs))
	for i, db := range dbs {
		refs[i] = "rds_database." + db + ".name"
	}
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_account" "app" {
  instance_id = %[1]q
  name        = "app_user"
%[4]s
}

resource "rds_database" "orders" {
  instance_id = %[1]q
  name        = "orders"
}

resource "rds_database" "audit" {
  instance_id = %[1]q
  name        = "audit"
}

resource "rds_account_privilege" "app_orders" {
  instance_id  = %[1]q
  account_name = rds_account.app.name
  privilege    = %[2]q
  db_names     = [%[3]s]
}
`, id, privilege, strings.Join(refs, ", "), passwordLines("Grant-pass1", 1))
}

// checkGrants asserts the account's privileges in the simulator, as "db=Privilege" sorted.
func (e *testEnv) checkGrants(id, account string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, _ := e.sim.InstanceAccess(id)
		for _, acc := range a.Accounts {
			if acc.Name != account {
				continue
			}
			var got []string
			for db, p := range acc.Privileges {
				got = append(got, db+"="+p)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				return fmt.Errorf("grants of %s: %v, want %v", account, got, want)
			}
			return nil
		}
		return fmt.Errorf("account %s not on %s", account, id)
	}
}

// The data sources list accounts and databases with their grants; a read-only instance lists its
// primary's. The grant's lifecycle and its refusal of the privileged account are played at the
// plugin protocol: TestAccountPrivilege_lifecycle (access_lifecycle_protocol_test.go) and
// TestAccountPrivilege_superAccountRefused (access_rules_protocol_test.go).
func TestAccAccessDataSources(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", id)
	lists := fmt.Sprintf(`
data "rds_accounts" "all" {
  instance_id = %[1]q
  depends_on  = [rds_account_privilege.app_orders]
}

data "rds_databases" "ro" {
  instance_id = %[2]q
  name_regex  = "^ord"
  depends_on  = [rds_account_privilege.app_orders]
}
`, id, ro)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: grantsConfig(env, id, "DMLOnly", "orders") + lists,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.rds_accounts.all", tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("app_user")})),
				statecheck.ExpectKnownValue("data.rds_accounts.all", tfjsonpath.New("accounts").AtSliceIndex(0).AtMapKey("privileges").AtSliceIndex(0).AtMapKey("privilege"), knownvalue.StringExact("DMLOnly")),
				statecheck.ExpectKnownValue("data.rds_databases.ro", tfjsonpath.New("names"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("orders")})),
				statecheck.ExpectKnownValue("data.rds_databases.ro", tfjsonpath.New("databases").AtSliceIndex(0).AtMapKey("accounts").AtSliceIndex(0).AtMapKey("account_name"), knownvalue.StringExact("app_user")),
				statecheck.ExpectKnownValue("data.rds_databases.ro", tfjsonpath.New("databases").AtSliceIndex(0).AtMapKey("character_set"), knownvalue.StringExact("utf8mb4")),
			},
		}},
	})
}
