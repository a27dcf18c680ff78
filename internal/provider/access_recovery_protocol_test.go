package provider

import (
	"context"
	"testing"
)

// Issue 24 §2 at the plugin protocol (issue 23): applies that always recover. The steps and checks
// of terraform tests, played with the provider in-process; the family's terraform test is
// TestAccAccessRecovery_destroyNotBlockedByCreateRules.

// importOfMissing is an import step that must fail as Terraform's "Cannot import non-existent
// remote object": the import succeeds and the read after it finds nothing. Nothing enters the state.
func (w *oracleWorld) importOfMissing(t *testing.T, addr, id string) {
	t.Helper()
	if err := w.importInstance(addr, id); err != nil {
		t.Fatalf("import %s %s: %v; want the read after the import to find no object", addr, id, err)
	}
	if v, ok := w.state[addr]; !ok || !v.IsNull() {
		t.Errorf("import %s %s: read %s, want no object (Cannot import non-existent remote object)", addr, id, shortValue(v))
	}
	delete(w.state, addr)
	delete(w.priv, addr)
}

// Item 6: an unset description is not managed: removing it, or a description set outside
// Terraform on an object whose configuration has none, plans nothing (the API cannot clear one).
func TestAccessRecovery_descriptionUnsetIsNotManaged(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	config := func(description any) []oracleResource {
		return []oracleResource{accountOf("app", id, "app_user", "Normal"),
			{databaseRes, map[string]any{"instance_id": id, "name": "orders", "description": description}}}
	}
	w.applyChecked(t, "with", config("Shop orders"), w.stateIs("rds_account.app", "description", nil))
	plan := w.applyChecked(t, "without", config(nil), w.stateIs(databaseRes, "description", "Shop orders"))
	expectEmptyPlan(t, "without", plan)
	env.apiCall(t, "ModifyAccountDescription", func(ctx context.Context) error {
		return env.api.ModifyAccountDescription(ctx, id, "app_user", "Set by hand")
	})()
	plan = w.applyChecked(t, "set by hand", config(nil), w.stateIs("rds_account.app", "description", "Set by hand"))
	expectEmptyPlan(t, "set by hand", plan)
	if n := env.requests("ModifyDBDescription") + env.requests("ModifyAccountDescription"); n != 1 {
		t.Fatalf("%d description writes, want 1 (the one made by hand)", n)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}

// Item 7: renaming a database that a grant lists succeeds in one apply (the old database is gone,
// and with it the privilege: nothing to revoke). Item 9: importing a grant the account does not
// hold fails as for a missing object.
func TestAccessRecovery_renamedDatabaseAndEmptyGrantImport(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	config := func(name string) []oracleResource {
		return []oracleResource{accountOf("app", id, "app_user", "Normal"), {databaseRes, map[string]any{"instance_id": id, "name": name}},
			grantOf("g", id, oracleRef{"rds_account.app", "name"}, "ReadOnly", name)}
	}
	w.applyChecked(t, "orders", config("orders"), env.checkGrants(id, "app_user", "orders=ReadOnly"))
	plan := w.applyChecked(t, "renamed", config("orders_v2"), env.checkGrants(id, "app_user", "orders_v2=ReadOnly"))
	expectActions(t, "renamed", plan, map[string]oracleAction{databaseRes: actReplace})
	w.importOfMissing(t, "rds_account_privilege.dml", id+":app_user:DMLOnly")
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}

// Item 10: an imported account without password_wo or password keeps its password: the
// configuration validates, the plan is empty, and no reset is sent.
func TestAccessRecovery_importedAccountPasswordNotManaged(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.mustCreateAccount(t, id, "legacy", "Normal")
	legacy := []oracleResource{{"rds_account.legacy", map[string]any{"instance_id": id, "name": "legacy"}}}
	if err := w.importInstance("rds_account.legacy", id+":legacy"); err != nil {
		t.Fatal(err)
	}
	plan := w.applyChecked(t, "imported", legacy, env.checkPassword(id, "legacy", "Seed-pass1"))
	expectEmptyPlan(t, "imported", plan)
	fresh := []oracleResource{{"rds_account.fresh", map[string]any{"instance_id": id, "name": "fresh"}}}
	expectPlanRefused(t, env, w, "no password", fresh, `Missing account password`)
	if n := env.requests("ResetAccountPassword"); n != 0 {
		t.Fatalf("%d password resets for an account whose password is not managed", n)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}
