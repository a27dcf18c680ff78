package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Issue 24 §2: applies that always recover.

// Item 6: an unset description is not managed: removing it, or a description set outside
// Terraform on an object whose configuration has none, plans nothing (the API cannot clear one).
func TestAccAccessRecovery_descriptionUnsetIsNotManaged(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	db := func(extra string) string {
		return fmt.Sprintf("resource \"rds_database\" \"orders\" {\n  instance_id = %q\n  name = \"orders\"\n%s\n}\n", id, extra)
	}
	with := env.providerBlock() + accountBlock("app", id, "app_user", "Normal") + db(`  description = "Shop orders"`)
	without := env.providerBlock() + accountBlock("app", id, "app_user", "Normal") + db("")
	noChange := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: with, ConfigStateChecks: []statecheck.StateCheck{stateValue("rds_account.app", "description", knownvalue.Null())}},
			{Config: without, ConfigPlanChecks: noChange,
				ConfigStateChecks: []statecheck.StateCheck{stateValue(databaseRes, "description", knownvalue.StringExact("Shop orders"))}},
			{
				PreConfig: env.apiCall(t, "ModifyAccountDescription", func(ctx context.Context) error {
					return env.api.ModifyAccountDescription(ctx, id, "app_user", "Set by hand")
				}),
				Config: without, ConfigPlanChecks: noChange,
				ConfigStateChecks: []statecheck.StateCheck{stateValue("rds_account.app", "description", knownvalue.StringExact("Set by hand"))},
			},
		},
	})
	if n := env.requests("ModifyDBDescription") + env.requests("ModifyAccountDescription"); n != 1 {
		t.Fatalf("%d description writes, want 1 (the one made by hand)", n)
	}
}

// Item 7: renaming a database that a grant lists succeeds in one apply (the old database is gone,
// and with it the privilege: nothing to revoke). Item 9: importing a grant the account does not
// hold fails as for a missing object.
func TestAccAccessRecovery_renamedDatabaseAndEmptyGrantImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	config := func(name string) string {
		return requiredProviders() + env.providerBlock() + accountBlock("app", id, "app_user", "Normal") +
			fmt.Sprintf("resource \"rds_database\" \"orders\" {\n  instance_id = %q\n  name = %q\n}\n", id, name) +
			grantBlock("g", id, "rds_account.app.name", "ReadOnly", "rds_database.orders.name")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("orders"), Check: env.checkGrants(id, "app_user", "orders=ReadOnly")},
			{Config: config("orders_v2"), Check: env.checkGrants(id, "app_user", "orders_v2=ReadOnly")},
			{
				Config: config("orders_v2") + "resource \"rds_account_privilege\" \"dml\" {\n  instance_id = \"" + id +
					"\"\n  account_name = \"app_user\"\n  privilege = \"DMLOnly\"\n  db_names = [\"orders_v2\"]\n}\n",
				ResourceName: "rds_account_privilege.dml", ImportState: true, ImportStateId: id + ":app_user:DMLOnly",
				ExpectError: regexp.MustCompile(`Cannot import non-existent remote object`),
			},
		},
	})
}

// Item 10: an imported account without password_wo or password keeps its password: the
// configuration validates, the plan is empty, and no reset is sent.
func TestAccAccessRecovery_importedAccountPasswordNotManaged(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.mustCreateAccount(t, id, "legacy", "Normal")
	config := requiredProviders() + env.providerBlock() + fmt.Sprintf("resource \"rds_account\" \"legacy\" {\n  instance_id = %q\n  name = \"legacy\"\n}\n", id)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ResourceName: "rds_account.legacy", ImportState: true, ImportStateId: id + ":legacy", ImportStatePersist: true},
			{Config: config, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: env.checkPassword(id, "legacy", "Seed-pass1")},
			{Config: requiredProviders() + env.providerBlock() + fmt.Sprintf("resource \"rds_account\" \"fresh\" {\n  instance_id = %q\n  name = \"fresh\"\n}\n", id),
				PlanOnly: true, ExpectError: regexp.MustCompile(`Missing account password`)},
		},
	})
	if n := env.requests("ResetAccountPassword"); n != 0 {
		t.Fatalf("%d password resets for an account whose password is not managed", n)
	}
}

// Item 8: terraform destroy is not blocked by a create-time rule of a resource that does not exist
// yet (a second privileged account): the test's closing destroy runs with the refused
// configuration.
func TestAccAccessRecovery_destroyNotBlockedByCreateRules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	p := env.providerBlock()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{
			{Config: p + accountBlock("boss", id, "boss", "Super")},
			{
				Config:      p + accountBlock("boss", id, "boss", "Super") + accountBlock("other", id, "other", "Super"),
				ExpectError: regexp.MustCompile(`rule account-one-super`),
			},
		},
	})
}
