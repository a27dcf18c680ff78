package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 24 §1 and issue 31 §1: whenever the instance id is known, the plan decides what the apply
// would refuse (names taken, a second privileged account, grants naming what does not exist, two
// grants of one pair, instances that take no change, instances that do not exist), with no write.
// The tests with applied steps are played at the plugin protocol in access_plan_protocol_test.go
// (TestAccessPlan_onePrivilegedAccount and the others there); the family keeps its terraform test
// TestAccAccessPlan_takenNamesAndMissingInstance.

func (e *testEnv) mustCreateAccount(t *testing.T, id, name, kind string) {
	t.Helper()
	if err := e.api.CreateAccount(context.Background(), &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: name, AccountPassword: "Seed-pass1", AccountType: kind}); err != nil {
		t.Fatal(err)
	}
}

func (e *testEnv) mustCreateDatabase(t *testing.T, id, name string) {
	t.Helper()
	if err := e.api.CreateDatabase(context.Background(), &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: name, CharacterSetName: "utf8mb4"}); err != nil {
		t.Fatal(err)
	}
}

// spaced compiles pattern with each space matching any run of white space: Terraform wraps the
// messages it shows.
func spaced(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// planFails runs each configuration as a plan that must fail with its pattern.
func planFails(t *testing.T, cases map[string][2]string) {
	t.Helper()
	var steps []planErrorCase
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		steps = append(steps, planErrorCase{name, cases[name][0], spaced(cases[name][1])})
	}
	expectPlanErrors(t, steps)
}

func accountBlock(label, instance, name, kind string) string {
	return fmt.Sprintf("resource \"rds_account\" %q {\n  instance_id = %q\n  name = %q\n  type = %q\n%s\n}\n", label, instance, name, kind, passwordLines("Good-pass1", 1))
}

// Item 1 and issue 31: a name the instance has (in another case, for the privileged account) and
// an instance that does not exist are plan errors naming the import or the id.
func TestAccAccessPlan_takenNamesAndMissingInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.mustCreateAccount(t, id, "app_user", "Normal")
	env.mustCreateAccount(t, id, "dba_super", "Super")
	env.mustCreateDatabase(t, id, "orders")
	env.sim.ResetStats()
	p := env.providerBlock()
	planFails(t, map[string][2]string{
		"account name taken": {p + accountBlock("app", id, "app_user", "Normal"),
			`(?s)RDS account already exists \(rule account-exists\).*terraform\s+import\s+<address>\s+` + id + `:app_user`},
		"super name in another case": {p + accountBlock("app", id, "DBA_SUPER", "Normal"),
			`(?s)name = "DBA_SUPER".*the account\s+"dba_super".*` + id + `:dba_super\x60\s+\(and\s+set\s+name\s+=\s+"dba_super"\)`},
		"database name taken": {p + fmt.Sprintf("resource \"rds_database\" \"orders\" {\n  instance_id = %q\n  name = \"orders\"\n}\n", id),
			`(?s)RDS database already exists \(rule database-exists\).*` + id + `:orders`},
		"two accounts of one name": {p + accountBlock("a", id, "twin", "Normal") + accountBlock("b", id, "twin", "Normal"),
			`rule account-planned-twice`},
		"account on a missing instance": {p + accountBlock("app", "rm-doesnotexist", "app", "Normal"),
			`(?s)instance_id = "rm-doesnotexist": the region has no such instance`},
		"database on a missing instance": {p + "resource \"rds_database\" \"d\" {\n  instance_id = \"rm-doesnotexist\"\n  name = \"shop\"\n}\n",
			`(?s)rule access-instance-missing`},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d writes for refused plans, want 0", n)
	}
}

// Item 5: an account or a database on a Stopped, locked or Deleting instance is named at plan, at
// instance_id, as rds_instance does (Deleting refuses the plan).
func TestAccessPlanNamesInstanceStates(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	cases := []struct {
		state    simulator.InstanceState
		severity diag.Severity
		summary  string
	}{
		{simulator.InstanceState{Status: "Stopped"}, diag.SeverityWarning, "is Stopped"},
		{simulator.InstanceState{LockMode: "LockByExpiration"}, diag.SeverityWarning, "is locked"},
		{simulator.InstanceState{Status: "Deleting", ForMS: 600000}, diag.SeverityError, "is being deleted"},
	}
	for _, c := range cases {
		id := env.plantInstance(t, "8.0", "")
		setState(t, env, id, c.state)
		account := accountModel{InstanceID: types.StringValue(id), Name: types.StringValue("app"), Type: types.StringValue("Normal"),
			Password: types.StringValue("Good-pass1")}
		database := databaseModel{InstanceID: types.StringValue(id), Name: types.StringValue("shop"), CharacterSet: types.StringValue("utf8mb4")}
		var accountDiags, databaseDiags diag.Diagnostics
		accounts, databases := NewAccountResource().(*accountResource), NewDatabaseResource().(*databaseResource)
		accounts.data, databases.data = env.data, env.data
		accounts.check(context.Background(), account, account, nil, atPlan, &accountDiags)
		databases.check(context.Background(), database, database, nil, atPlan, &databaseDiags)
		for what, diags := range map[string]diag.Diagnostics{"account": accountDiags, "database": databaseDiags} {
			found := diagsWith(diags, c.severity, "RDS instance "+id+" "+c.summary)
			if len(found) != 1 {
				t.Errorf("%s on %+v: want one %q, got %v", what, c.state, c.summary, diags)
				continue
			}
			if at, ok := found[0].(diag.DiagnosticWithPath); !ok || !at.Path().Equal(path.Root("instance_id")) {
				t.Errorf("%s: diagnostic not at instance_id: %v", what, found[0])
			}
			if !strings.Contains(found[0].Detail(), id) {
				t.Errorf("%s: detail does not name %s", what, id)
			}
		}
	}
}
