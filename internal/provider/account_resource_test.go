package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Acceptance tests of rds_account, rds_database, rds_account_privilege and their data sources
// against the in-process simulator. Instances are planted Running with AddInstance, so each test
// spends its time on the resources it is about.

const (
	accountRes   = "rds_account.app"
	databaseRes  = "rds_database.orders"
	privilegeRes = "rds_account_privilege.app_orders"
)

// accessMutatingActions are the account, database and privilege writes.
var accessMutatingActions = []string{
	"CreateAccount", "ResetAccountPassword", "ModifyAccountDescription", "DeleteAccount", "CreateDatabase",
	"ModifyDBDescription", "DeleteDatabase", "GrantAccountPrivilege", "RevokeAccountPrivilege",
}

// writeOnlySupported reports whether the CLI under test has write-only attributes and ephemeral
// variables: Terraform 1.11 and OpenTofu 1.11 onwards.
var writeOnlySupported = sync.OnceValue(func() bool {
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		return true // the acceptance tests fail on their own without a CLI
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if json.Unmarshal(out, &v) != nil {
		return true
	}
	parts := strings.SplitN(v.Version, ".", 3)
	if len(parts) < 2 {
		return true
	}
	major, _ := strconv.Atoi(parts[0])
	minor, _ := strconv.Atoi(parts[1])
	return major > 1 || (major == 1 && minor >= 11)
})

// passwordLines sets an account's password: password_wo with its version, or the sensitive
// password on CLIs without write-only attributes (OpenTofu 1.10).
func passwordLines(password string, version int) string {
	if !writeOnlySupported() {
		return fmt.Sprintf("  password = %q", password)
	}
	return fmt.Sprintf("  password_wo = %q\n  password_wo_version = %d", password, version)
}

func requireWriteOnly(t *testing.T) {
	t.Helper()
	if !writeOnlySupported() {
		t.Skip("the CLI under test has no write-only attributes (Terraform or OpenTofu 1.11 and later have them)")
	}
}

func accessSimOptions() simulator.Options {
	opts := testSimOptions()
	opts.AccountDuration = 200 * time.Millisecond
	return opts
}

// accessWrites counts the account, database and privilege writes the simulator received.
func (e *testEnv) accessWrites() int {
	n := 0
	st := e.sim.Stats()
	for _, a := range accessMutatingActions {
		n += st.Requests[a]
	}
	return n
}

// plantInstance adds a Running MySQL instance (a read-only one of master when given).
func (e *testEnv) plantInstance(t *testing.T, version, master string) string {
	t.Helper()
	class := "mysql.n2.medium.2c"
	if master != "" {
		class = "mysqlro.n2.medium.1c"
	}
	id, err := e.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: version, DBInstanceClass: class, Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", MasterID: master})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *testEnv) accountHash(id, name string) string {
	a, _ := e.sim.InstanceAccess(id)
	for _, acc := range a.Accounts {
		if acc.Name == name {
			return acc.PasswordHash
		}
	}
	return ""
}

// checkPassword asserts the simulator holds the hash of password for the account.
func (e *testEnv) checkPassword(id, name, password string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := e.accountHash(id, name); got != simulator.NativePasswordHash(password) {
			return fmt.Errorf("account %s on %s has password hash %q, want the hash of the configured password", name, id, got)
		}
		return nil
	}
}

func (e *testEnv) checkNoAccess(id string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, ok := e.sim.InstanceAccess(id)
		if ok && (len(a.Accounts) != 0 || len(a.Databases) != 0) {
			return fmt.Errorf("left after destroy on %s: %d accounts, %d databases", id, len(a.Accounts), len(a.Databases))
		}
		return nil
	}
}

func accountConfig(e *testEnv, id, extra string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_account" "app" {
  instance_id = %q
  name        = "app_user"
%s
}
`, id, extra)
}

func stateValue(res, attr string, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(res, tfjsonpath.New(attr), v)
}

func (e *testEnv) apiCall(t *testing.T, what string, fn func(ctx context.Context) error) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := fn(ctx); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
}

// rds_account: create (waits for Available), update of description and password without
// replacement, import, drift of the description, and out-of-band deletion.
func TestAccAccount_lifecycle(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	const pw1, pw2 = "First-pass1", "Second-pass2"
	step1 := accountConfig(env, id, "  description = \"App account\"\n"+passwordLines(pw1, 1))
	step2 := accountConfig(env, id, "  description = \"Renamed account\"\n"+passwordLines(pw2, 2))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{
			{
				Config: step1,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(accountRes, tfjsonpath.New("id"), knownvalue.StringExact(id+":app_user")),
					plancheck.ExpectKnownValue(accountRes, tfjsonpath.New("type"), knownvalue.StringExact("Normal")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateValue(accountRes, "status", knownvalue.StringExact("Available")),
					stateValue(accountRes, "password_wo", knownvalue.Null()),
					stateValue(accountRes, "password", knownvalue.Null()),
				},
				Check: env.checkPassword(id, "app_user", pw1),
			},
			{
				Config: step2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateValue(accountRes, "description", knownvalue.StringExact("Renamed account"))},
				Check: resource.ComposeTestCheckFunc(env.checkPassword(id, "app_user", pw2), func(*terraform.State) error {
					if n := env.requests("CreateAccount"); n != 1 {
						return fmt.Errorf("%d CreateAccount requests; the update must not replace the account", n)
					}
					return nil
				}),
			},
			{
				ResourceName: accountRes, ImportState: true, ImportStateId: id + ":app_user", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"password_wo", "password_wo_version", "password", "timeouts"},
			},
			{
				// Drift: the description changed outside Terraform; the plan puts it back.
				PreConfig: env.apiCall(t, "ModifyAccountDescription", func(ctx context.Context) error {
					return env.api.ModifyAccountDescription(ctx, id, "app_user", "Changed by hand")
				}),
				Config: step2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateValue(accountRes, "description", knownvalue.StringExact("Renamed account"))},
			},
			{
				// Deleted outside Terraform: the plan creates it again, with the configured password.
				PreConfig: env.apiCall(t, "DeleteAccount", func(ctx context.Context) error { return env.api.DeleteAccount(ctx, id, "app_user") }),
				Config:    step2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionCreate),
				}},
				Check: env.checkPassword(id, "app_user", pw2),
			},
		},
	})
}

// The sensitive `password` attribute, for CLIs without write-only attributes: changing it resets
// the password; the type is fixed (a change replaces the account).
func TestAccAccount_sensitivePasswordAndSuper(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{
			{
				Config: accountConfig(env, id, "  password = \"Plain-pass1\""),
				Check:  env.checkPassword(id, "app_user", "Plain-pass1"),
			},
			{
				Config: accountConfig(env, id, "  password = \"Plain-pass2\""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionUpdate),
				}},
				Check: env.checkPassword(id, "app_user", "Plain-pass2"),
			},
			{
				Config: accountConfig(env, id, "  type = \"Super\"\n  password = \"Plain-pass2\""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(accountRes, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateValue(accountRes, "type", knownvalue.StringExact("Super"))},
			},
		},
	})
}

// The password_wo rules at plan time, naming the attribute and the fix, with no API write: a weak
// write-only password and both passwords set. The other account rules are TestAccount_planTimeRules
// (access_rules_protocol_test.go), played at the plugin protocol, which cannot send write-only
// values.
func TestAccAccount_planTimeRules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	account := func(instance, name, extra string) string {
		return env.providerBlock() + fmt.Sprintf("resource \"rds_account\" \"app\" {\n  instance_id = %q\n  name = %q\n%s\n}\n", instance, name, extra)
	}
	requireWriteOnly(t) // the cases name password_wo
	const pw = "  password_wo = \"Good-pass1\"\n  password_wo_version = 1"
	expectPlanErrors(t, []planErrorCase{
		{"weak password", account(id, "app", "  password_wo = \"alllower123\"\n  password_wo_version = 1"), regexp.MustCompile(`(?s)password_wo = "\(sensitive value\)".*three of`)},
		{"both passwords", account(id, "app", pw+"\n  password = \"Good-pass1\""), regexp.MustCompile(`(?s)password.*cannot be specified when`)},
	})
	if n := env.accessWrites(); n != 0 {
		t.Fatalf("%d account/database writes for bad plans; want 0", n)
	}
}
