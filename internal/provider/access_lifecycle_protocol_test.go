package provider

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// The access resources' lifecycles (issue 23): the steps and checks of terraform tests, played at
// the plugin protocol with the simulator on the oracle's clock. A reference to a configured name
// (db_names = [rds_database.orders.name]) is known at plan, so these tests give the name itself,
// with the database before the grant as Terraform's graph orders them. The access family keeps its
// terraform tests TestAccAccount_lifecycle and TestAccAccount_sensitivePasswordAndSuper (sensitive
// values in plan files) and TestAccAccessDataSources.

// expectActions is plancheck.ExpectResourceAction for each address of want.
func expectActions(t *testing.T, name string, plan *oraclePlan, want map[string]oracleAction) {
	t.Helper()
	for addr, action := range want {
		if p := plan.res[addr]; p == nil || p.action != action {
			got := "nothing"
			if p != nil {
				got = p.action.String()
			}
			t.Errorf("%s: %s planned %s, want %s", name, addr, got, action)
		}
	}
}

// destroyAll is the test's closing terraform destroy and its CheckDestroy: nothing is left on id.
func (w *oracleWorld) destroyAll(t *testing.T, env *testEnv, id string) {
	t.Helper()
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkNoAccess(id)(nil); err != nil {
		t.Error(err)
	}
}

// rds_database: create (waits for Running) with the default character set, description update,
// import, drift, out-of-band deletion, and a character-set change that replaces it. The family's
// terraform test is TestAccAccount_lifecycle.
func TestDatabase_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	db := func(extra map[string]any) []oracleResource {
		attrs := map[string]any{"instance_id": id, "name": "orders"}
		maps.Copy(attrs, extra)
		return []oracleResource{{databaseRes, attrs}}
	}
	described := db(map[string]any{"description": "Shop orders"})
	plan := w.applyChecked(t, "create", db(nil), w.stateIs(databaseRes, "status", "Running"), w.stateIs(databaseRes, "description", nil),
		env.checkDatabase(id, "orders", "utf8mb4"))
	expectActions(t, "create", plan, map[string]oracleAction{databaseRes: actCreate})
	expectPlanned(t, "create", plan, databaseRes, "character_set", "utf8mb4")
	expectPlanned(t, "create", plan, databaseRes, "id", id+":orders")

	plan = w.applyChecked(t, "describe", described, w.stateIs(databaseRes, "description", "Shop orders"))
	expectActions(t, "describe", plan, map[string]oracleAction{databaseRes: actUpdate})

	w.importVerify(t, databaseRes)

	env.apiCall(t, "ModifyDBDescription", func(ctx context.Context) error {
		return env.api.ModifyDBDescription(ctx, id, "orders", "Changed by hand")
	})()
	plan = w.applyChecked(t, "drift", described, w.stateIs(databaseRes, "description", "Shop orders"))
	expectActions(t, "drift", plan, map[string]oracleAction{databaseRes: actUpdate})

	env.apiCall(t, "DeleteDatabase", func(ctx context.Context) error { return env.api.DeleteDatabase(ctx, id, "orders") })()
	plan = w.applyChecked(t, "deleted outside", described, env.checkDatabase(id, "orders", "utf8mb4"))
	expectActions(t, "deleted outside", plan, map[string]oracleAction{databaseRes: actCreate})

	plan = w.applyChecked(t, "character set", db(map[string]any{"description": "Shop orders", "character_set": "latin1"}),
		env.checkDatabase(id, "orders", "latin1"))
	expectActions(t, "character set", plan, map[string]oracleAction{databaseRes: actReplace})

	w.destroyAll(t, env, id)
}

// grantsResources is grantsConfig at the protocol: an account, two databases and a grant of
// privilege on dbs. The harness's ValidateResourceConfig does not announce write-only attributes,
// so the account sets password (passwordLines' choice on a CLI without them).
func grantsResources(id, privilege string, dbs ...string) []oracleResource {
	return []oracleResource{
		{accountRes, map[string]any{"instance_id": id, "name": "app_user", "password": "Grant-pass1"}},
		{databaseRes, map[string]any{"instance_id": id, "name": "orders"}},
		{"rds_database.audit", map[string]any{"instance_id": id, "name": "audit"}},
		{privilegeRes, map[string]any{"instance_id": id, "account_name": oracleRef{accountRes, "name"}, "privilege": privilege, "db_names": dbs}},
	}
}

// rds_account_privilege: create, adding and removing databases (grant and revoke only those),
// import, drift (a revoke outside Terraform), and out-of-band deletion of the account. The family's
// terraform test is TestAccAccount_lifecycle.
func TestAccountPrivilege_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	both := grantsResources(id, "ReadOnly", "orders", "audit")
	plan := w.applyChecked(t, "create", grantsResources(id, "ReadOnly", "orders"), env.checkGrants(id, "app_user", "orders=ReadOnly"))
	expectPlanned(t, "create", plan, privilegeRes, "id", id+":app_user:ReadOnly")

	plan = w.applyChecked(t, "both", both, env.checkGrants(id, "app_user", "audit=ReadOnly", "orders=ReadOnly"))
	expectActions(t, "both", plan, map[string]oracleAction{privilegeRes: actUpdate})

	w.importVerify(t, privilegeRes)

	// Drift: a revoke outside Terraform; the plan grants it again.
	env.apiCall(t, "RevokeAccountPrivilege", func(ctx context.Context) error {
		return env.api.RevokeAccountPrivilege(ctx, id, "app_user", []string{"audit"})
	})()
	plan = w.applyChecked(t, "revoked outside", both, env.checkGrants(id, "app_user", "audit=ReadOnly", "orders=ReadOnly"))
	expectActions(t, "revoked outside", plan, map[string]oracleAction{privilegeRes: actUpdate})

	// The account deleted outside Terraform: account and grant are created again.
	env.apiCall(t, "DeleteAccount", func(ctx context.Context) error { return env.api.DeleteAccount(ctx, id, "app_user") })()
	plan = w.applyChecked(t, "account deleted outside", both, env.checkGrants(id, "app_user", "audit=ReadOnly", "orders=ReadOnly"))
	expectActions(t, "account deleted outside", plan, map[string]oracleAction{accountRes: actCreate, privilegeRes: actCreate})

	w.applyChecked(t, "audit only", grantsResources(id, "ReadOnly", "audit"), env.checkGrants(id, "app_user", "audit=ReadOnly"),
		func(*terraform.State) error {
			if n := env.requests("RevokeAccountPrivilege"); n != 2 {
				return fmt.Errorf("%d RevokeAccountPrivilege requests by Terraform, want 1 (the drift step's revoke was made directly)", n-1)
			}
			return nil
		})
	w.destroyAll(t, env, id)
}
