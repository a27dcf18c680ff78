package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// security_ips is the default IP array (issue 19 item 8): an array another Alibaba service adds
// (hidden, as DMS does) causes no diff and no failure, changes of security_ips leave it alone, and
// the refresh pays one DescribeDBInstanceIPArrayList only when security_ips is configured.
func TestAccInstance_securityIPsIsTheDefaultArray(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	addDMS := func() {
		if err := env.sim.AddIPArray(id, "ali_dms_group", "100.104.0.0/16", "hidden"); err != nil {
			t.Fatal(err)
		}
		if err := env.sim.AddIPArray(id, "app_team", "10.9.0.0/16", ""); err != nil {
			t.Fatal(err)
		}
		env.sim.ResetStats()
	}
	ips := func(v ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, 0, len(v))
		for _, s := range v {
			checks = append(checks, knownvalue.StringExact(s))
		}
		return knownvalue.SetExact(checks)
	}
	foreignArraysKept := func(*terraform.State) error {
		resp, err := env.api.DescribeDBInstanceIPArrayList(context.Background(), id)
		if err != nil {
			return err
		}
		if a := resp.Array("ali_dms_group"); a == nil || a.SecurityIPList != "100.104.0.0/16" || a.DBInstanceIPArrayAttribute != rdsapi.IPArrayHidden {
			return fmt.Errorf("the DMS array was touched: %+v", resp.Items)
		}
		if a := resp.Array("app_team"); a == nil || a.SecurityIPList != "10.9.0.0/16" {
			return fmt.Errorf("the app_team array was touched: %+v", resp.Items)
		}
		return nil
	}
	// Every refresh of a configured security_ips reads the arrays once; an unset one never.
	arrayReads := func(perRefresh int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			describes, lists := env.requests("DescribeDBInstanceAttribute"), env.requests("DescribeDBInstanceIPArrayList")
			if describes == 0 || lists != perRefresh*describes {
				return fmt.Errorf("%d DescribeDBInstanceIPArrayList for %d DescribeDBInstanceAttribute, want %d each", lists, describes, perRefresh)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.instanceConfig(`  security_ips = ["10.0.0.1"]`), Check: idOf(&id)},
			{
				PreConfig:        addDMS,
				Config:           env.instanceConfig(`  security_ips = ["10.0.0.1"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("security_ips"), ips("10.0.0.1")),
				},
				Check: resource.ComposeTestCheckFunc(arrayReads(1), foreignArraysKept),
			},
			{
				Config: env.instanceConfig(`  security_ips = ["10.0.0.2", "10.0.0.3"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("security_ips"), ips("10.0.0.2", "10.0.0.3")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("security_ips"), ips("10.0.0.2", "10.0.0.3")),
				},
				Check: foreignArraysKept,
			},
			{
				// Drift of the default array itself still shows.
				PreConfig: env.apiCall(t, "ModifySecurityIps", func(ctx context.Context) error {
					return env.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "10.0.0.2"})
				}),
				Config: env.instanceConfig(`  security_ips = ["10.0.0.2", "10.0.0.3"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				Check: foreignArraysKept,
			},
			{
				// Unset (the next apply that changes the instance records it): no diff, then no array read
				// (one call per refresh), the arrays untouched.
				PreConfig:        func() { env.sim.ResetStats() },
				Config:           env.instanceConfig(`  prevent_restart = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig:        func() { env.sim.ResetStats() },
				Config:           env.instanceConfig(`  prevent_restart = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeTestCheckFunc(arrayReads(0), foreignArraysKept),
			},
		},
	})
}
