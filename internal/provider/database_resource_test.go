package provider

import (
	"context"
	"fmt"
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

// A database of the same name that is still being deleted (by hand, a moment ago) is waited for,
// not reported as existing: its name is free once it is gone. The database's lifecycle and its
// plan-time rules are played at the plugin protocol: TestDatabase_lifecycle
// (access_lifecycle_protocol_test.go) and TestDatabase_rules (access_rules_protocol_test.go).
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
