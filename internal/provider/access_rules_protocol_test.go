package provider

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The access resources' plan-time rules at the plugin protocol (issue 23): each refused
// configuration is a plan that fails with the terraform test's pattern, at the resource, with no
// write. The family keeps its terraform tests TestAccDatabase_createAfterDeletionInProgress and
// TestAccAccessDataSources (and TestAccAccount_planTimeRules for the write-only password cases).

// refusal is one refused configuration: its resources and the pattern its plan's error must match
// (spaced: a space matches any white space).
type refusal struct {
	name  string
	order []oracleResource
	want  string
}

// expectRefusals plans each refusal on w, as expectPlanErrors does with terraform.
func expectRefusals(t *testing.T, env *testEnv, w *oracleWorld, refusals []refusal) {
	t.Helper()
	for _, r := range refusals {
		expectPlanRefused(t, env, w, r.name, r.order, r.want)
	}
}

// Database rules at plan time, an existing name included, with no write.
func TestDatabase_rules(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", id)
	if err := env.api.CreateDatabase(context.Background(), &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8"}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	db := func(instance, name string, extra map[string]any) []oracleResource {
		attrs := map[string]any{"instance_id": instance, "name": name}
		for k, v := range extra {
			attrs[k] = v
		}
		return []oracleResource{{databaseRes, attrs}}
	}
	expectRefusals(t, env, w, []refusal{
		{"upper case", db(id, "Orders", nil), `(?s)name = "Orders".*lower-case`},
		{"reserved", db(id, "mysql", nil), `(?s)name = "mysql".*reserves`},
		{"trailing hyphen", db(id, "orders-", nil), `(?s)name = "orders-".*end with a letter or a digit`},
		{"character set", db(id, "shop", map[string]any{"character_set": "utf16"}), `(?s)character_set = "utf16".*utf8mb4`},
		{"read-only instance", db(ro, "shop", nil), `(?s)read-only instance.*primary`},
		{"existing name", db(id, "orders", nil), `(?s)already exists \(rule database-exists\).*terraform import <address> ` + id + `:orders`},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d account/database writes for refused configurations; want 0", n)
	}
}

// The privileged account cannot be granted privileges: refused at plan, no write.
func TestAccountPrivilege_superAccountRefused(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ctx := context.Background()
	if err := env.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "boss", AccountPassword: "Boss-pass1", AccountType: "Super"}); err != nil {
		t.Fatal(err)
	}
	if err := env.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8"}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	grant := func(privilege string) []oracleResource {
		return []oracleResource{grantOf("boss", id, "boss", privilege, "orders")}
	}
	expectRefusals(t, env, w, []refusal{
		{"super account", grant("ReadWrite"), `(?s)account_name = "boss".*privileged \(Super\) account.*Fix`},
		{"privilege value", grant("Everything"), `(?s)privilege = "Everything".*ReadWrite, ReadOnly, DDLOnly, DMLOnly`},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d writes for refused grants", n)
	}
}

// Every account rule is decided at plan time, naming the attribute, the value and the fix, with no
// API write. The cases that name password_wo stay in TestAccAccount_planTimeRules: the harness
// does not announce write-only attributes.
func TestAccount_planTimeRules(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	old := env.plantInstance(t, "5.6", "")
	ro := env.plantInstance(t, "8.0", id)
	env.mustCreateAccount(t, id, "boss", "Super")
	env.mustCreateAccount(t, id, "taken", "Normal")
	env.sim.ResetStats()
	account := func(instance, name string, extra map[string]any) []oracleResource {
		attrs := map[string]any{"instance_id": instance, "name": name, "password": "Good-pass1"}
		for k, v := range extra {
			attrs[k] = v
		}
		return []oracleResource{{accountRes, attrs}}
	}
	expectRefusals(t, env, w, []refusal{
		{"digit first", account(id, "1app", nil), `(?s)name = "1app".*start with a letter.*Fix`},
		{"hyphen", account(id, "app-user", nil), `(?s)name = "app-user".*letters, digits and underscores`},
		{"reserved", account(id, "root", nil), `(?s)name = "root".*reserves`},
		{"17 characters on MySQL 5.6", account(old, "a234567890123456x", nil), `(?s)2 to 16 characters`},
		{"no password", account(id, "app", map[string]any{"password": nil}), `Missing account password`},
		{"second Super", account(id, "app", map[string]any{"type": "Super"}), `(?s)at most one privileged.*boss|already has one`},
		{"read-only instance", account(ro, "app", nil), `(?s)read-only instance.*primary`},
		{"bad description", account(id, "app", map[string]any{"description": "https://example.com"}), `(?s)description = "https://example.com".*http://`},
		{"bad type", account(id, "app", map[string]any{"type": "Root"}), `(?s)type = "Root".*Normal`},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d account/database writes for bad plans; want 0", n)
	}
}
