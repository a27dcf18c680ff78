package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

func databaseConfig(e *testEnv, id, extra string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_database" "orders" {
  instance_id = %q
  name        = "orders"
%s
}
`, id, extra)
}

func (e *testEnv) checkDatabase(id, name, charset string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, _ := e.sim.InstanceAccess(id)
		for _, db := range a.Databases {
			if db.Name == name {
				if db.CharacterSet != charset || db.Status != "Running" {
					return fmt.Errorf("database %s: %+v, want %s and Running", name, db, charset)
				}
				return nil
			}
		}
		return fmt.Errorf("database %s not on %s", name, id)
	}
}

// Database rules at plan time, an existing name included, with no write. The database's lifecycle
// is TestDatabase_lifecycle (access_lifecycle_protocol_test.go), played at the plugin protocol.
func TestAccDatabase_rules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", id)
	if err := env.api.CreateDatabase(context.Background(), &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8"}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	db := func(instance, name, extra string) string {
		return env.providerBlock() + fmt.Sprintf("resource \"rds_database\" \"orders\" {\n  instance_id = %q\n  name = %q\n%s\n}\n", instance, name, extra)
	}
	expectPlanErrors(t, []planErrorCase{
		{"upper case", db(id, "Orders", ""), regexp.MustCompile(`(?s)name = "Orders".*lower-case`)},
		{"reserved", db(id, "mysql", ""), regexp.MustCompile(`(?s)name = "mysql".*reserves`)},
		{"trailing hyphen", db(id, "orders-", ""), regexp.MustCompile(`(?s)name = "orders-".*end with a letter or a digit`)},
		{"character set", db(id, "shop", `  character_set = "utf16"`), regexp.MustCompile(`(?s)character_set = "utf16".*utf8mb4`)},
		{"read-only instance", db(ro, "shop", ""), regexp.MustCompile(`(?s)read-only instance.*primary`)},
		{"existing name", db(id, "orders", ""), regexp.MustCompile(`(?s)already exists \(rule database-exists\).*terraform\s+import\s+<address>\s+` + id + `:orders`)},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d account/database writes for refused configurations; want 0", n)
	}
}

// A database of the same name that is still being deleted (by hand, a moment ago) is waited for,
// not reported as existing: its name is free once it is gone.
func TestAccDatabase_createAfterDeletionInProgress(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.AccountDuration = 3 * time.Second // a deletion takes long enough to meet it
	env := newTestEnv(t, opts)
	id := env.plantInstance(t, "8.0", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				ctx := context.Background()
				if err := env.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8mb4"}); err != nil {
					t.Fatal(err)
				}
				if err := env.data.Waiter.Poll(ctx, "database orders to be Running", func() (bool, string, error) {
					db, err := rdsservice.FindDatabase(ctx, env.api, id, "orders")
					return err == nil && db != nil && db.DBStatus == rdsapi.DatabaseStatusRunning, "", err
				}); err != nil {
					t.Fatal(err)
				}
				if err := env.api.DeleteDatabase(ctx, id, "orders"); err != nil {
					t.Fatal(err)
				}
			},
			Config: databaseConfig(env, id, ""),
			Check:  env.checkDatabase(id, "orders", "utf8mb4"),
		}},
	})
}
