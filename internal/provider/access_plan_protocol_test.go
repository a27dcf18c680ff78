package provider

import (
	"context"
	"testing"
)

// Issue 24 §1 at the plugin protocol (issue 23): the plan decides what the apply would refuse,
// with no write. The steps and checks of terraform tests, played with the provider in-process; the
// family's terraform test is TestAccAccessPlan_takenNamesAndMissingInstance.

// accountOf is accountBlock at the protocol: rds_account.<label> of type kind. The harness
// does not announce write-only attributes, so it sets password (passwordLines' choice on a CLI
// without them).
func accountOf(label, instance, name, kind string) oracleResource {
	return oracleResource{"rds_account." + label, map[string]any{"instance_id": instance, "name": name, "type": kind, "password": "Good-pass1"}}
}

// grantOf is grantBlock at the protocol; account is a name or an oracleRef.
func grantOf(label, instance string, account any, privilege string, dbs ...string) oracleResource {
	return oracleResource{"rds_account_privilege." + label, map[string]any{"instance_id": instance, "account_name": account,
		"privilege": privilege, "db_names": dbs}}
}

// expectPlanRefused is a terraform step with ExpectError: the plan of order fails with want, and
// nothing is written.
func expectPlanRefused(t *testing.T, env *testEnv, w *oracleWorld, name string, order []oracleResource, want string) {
	t.Helper()
	expectPlanRefusedAt(t, env, w, name, order, "", want)
}

// expectPlanRefusedAt is expectPlanRefused whose error must be at addr (the resource Terraform
// names in the error's "with <address>" line); any resource when addr is "".
func expectPlanRefusedAt(t *testing.T, env *testEnv, w *oracleWorld, name string, order []oracleResource, addr, want string) {
	t.Helper()
	writes := env.accessWrites()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	if plan.errAt != "" {
		text = errorsText(plan.res[plan.errAt].diags)
	}
	expectErrorText(t, name, text, spaced(want))
	if addr != "" && plan.errAt != addr {
		t.Errorf("%s: the error is at %q, want %s", name, plan.errAt, addr)
	}
	if n := env.accessWrites() - writes; n != 0 {
		t.Errorf("%s: %d account/database writes for a refused plan, want 0", name, n)
	}
}

// Item 2: a second privileged account (planned next to another, or next to an existing one) is a
// plan error naming the other; moving the privilege says how.
func TestAccessPlan_onePrivilegedAccount(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	fresh := env.plantInstance(t, "8.0", "")
	account := accountOf
	// Two new Super accounts on an instance that has none.
	expectPlanRefused(t, env, w, "two new Super", []oracleResource{account("a", fresh, "boss_a", "Super"), account("b", fresh, "boss_b", "Super")},
		`(?s)rule account-one-super.*privileged account "boss_[ab]"`)
	w.applyChecked(t, "boss", []oracleResource{account("boss", id, "boss", "Super")})
	expectPlanRefused(t, env, w, "a second Super", []oracleResource{account("boss", id, "boss", "Super"), account("other", id, "other", "Super")},
		`(?s)privileged account "boss"`)
	// Demote one and promote another in one plan: the apply order is not fixed, so the plan says how.
	expectPlanRefused(t, env, w, "demote and promote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Super")},
		`(?s)privileged account "boss".*first apply "boss" with type = "Normal"`)
	plan := w.applyChecked(t, "demote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Normal")})
	expectActions(t, "demote", plan, map[string]oracleAction{"rds_account.boss": actReplace, "rds_account.other": actCreate})
	plan = w.applyChecked(t, "promote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Super")})
	expectActions(t, "promote", plan, map[string]oracleAction{"rds_account.boss": actNoop, "rds_account.other": actReplace})
	if n := env.requests("CreateAccount"); n != 4 {
		t.Fatalf("%d CreateAccount requests, want 4 (boss, other, and both again when their type changed)", n)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}

// Item 3: a grant naming an account or a database that neither exists nor is planned, or one in
// the wrong case, is a plan error; an account deleted outside Terraform does not lead to a planned
// grant that fails.
func TestAccessPlan_grantTargets(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.mustCreateAccount(t, id, "app_user", "Normal")
	env.mustCreateDatabase(t, id, "orders")
	env.sim.ResetStats()
	expectRefusals(t, env, w, []refusal{
		{"missing account", []oracleResource{grantOf("g", id, "ghost", "ReadOnly", "orders")}, `(?s)account_name = "ghost".*no such account`},
		{"account case", []oracleResource{grantOf("g", id, "App_User", "ReadOnly", "orders")}, `(?s)rule privilege-account-case.*set account_name = "app_user"`},
		{"missing database", []oracleResource{grantOf("g", id, "app_user", "ReadOnly", "orders", "nosuch")}, `(?s)rule privilege-database-missing.*"nosuch"`},
	})
	// A literal name of an existing account works; once the account is deleted outside Terraform,
	// the plan refuses to grant again instead of failing at apply.
	config := []oracleResource{grantOf("g", id, "app_user", "ReadOnly", "orders")}
	w.applyChecked(t, "granted", config, env.checkGrants(id, "app_user", "orders=ReadOnly"))
	env.apiCall(t, "DeleteAccount", func(ctx context.Context) error { return env.api.DeleteAccount(ctx, id, "app_user") })()
	expectPlanRefused(t, env, w, "account deleted outside", config, `(?s)account_name = "app_user".*no such account`)
	if n := env.requests("GrantAccountPrivilege"); n != 1 {
		t.Fatalf("%d GrantAccountPrivilege requests, want 1", n)
	}
}

// Item 4: two grants of one (account, database) pair are a plan error, whether both are new or one
// is already granted; changing one grant's privilege (a replacement) is not.
func TestAccessPlan_onePrivilegePerPair(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	app := oracleRef{"rds_account.app", "name"}
	base := []oracleResource{accountOf("app", id, "app_user", "Normal"), {databaseRes, map[string]any{"instance_id": id, "name": "orders"}}}
	with := func(grants ...oracleResource) []oracleResource {
		return append(append([]oracleResource(nil), base...), grants...)
	}
	ro, rw := grantOf("ro", id, app, "ReadOnly", "orders"), grantOf("rw", id, app, "ReadWrite", "orders")
	expectPlanRefused(t, env, w, "both new", with(ro, rw), `(?s)rule privilege-pair-taken.*"orders" \((ReadOnly|ReadWrite), planned by another`)
	w.applyChecked(t, "read-only", with(ro), env.checkGrants(id, "app_user", "orders=ReadOnly"))
	expectPlanRefusedAt(t, env, w, "one granted", with(ro, rw), "rds_account_privilege.rw", `(?s)rule privilege-pair-taken.*"orders" \(ReadOnly\)`)
	plan := w.applyChecked(t, "read-write", with(grantOf("ro", id, app, "ReadWrite", "orders")), env.checkGrants(id, "app_user", "orders=ReadWrite"))
	expectActions(t, "read-write", plan, map[string]oracleAction{"rds_account_privilege.ro": actReplace})
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}
