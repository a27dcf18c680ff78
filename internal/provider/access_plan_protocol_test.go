package provider

import (
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
	writes := env.accessWrites()
	expectErrorText(t, name, w.planErrorOf(t, order), spaced(want))
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
	w.accessStep(t, "boss", []oracleResource{account("boss", id, "boss", "Super")})
	expectPlanRefused(t, env, w, "a second Super", []oracleResource{account("boss", id, "boss", "Super"), account("other", id, "other", "Super")},
		`(?s)privileged account "boss"`)
	// Demote one and promote another in one plan: the apply order is not fixed, so the plan says how.
	expectPlanRefused(t, env, w, "demote and promote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Super")},
		`(?s)privileged account "boss".*first apply "boss" with type = "Normal"`)
	plan := w.accessStep(t, "demote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Normal")})
	expectActions(t, "demote", plan, map[string]oracleAction{"rds_account.boss": actReplace, "rds_account.other": actCreate})
	plan = w.accessStep(t, "promote", []oracleResource{account("boss", id, "boss", "Normal"), account("other", id, "other", "Super")})
	expectActions(t, "promote", plan, map[string]oracleAction{"rds_account.boss": actNoop, "rds_account.other": actReplace})
	if n := env.requests("CreateAccount"); n != 4 {
		t.Fatalf("%d CreateAccount requests, want 4 (boss, other, and both again when their type changed)", n)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
}
