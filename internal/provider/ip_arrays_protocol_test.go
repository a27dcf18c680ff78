package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// security_ips is the default IP array (issue 19 item 8): an array another Alibaba service adds
// (hidden, as DMS does) causes no diff and no failure, changes of security_ips leave it alone, and
// the refresh pays one DescribeDBInstanceIPArrayList only when security_ips is configured. The
// steps and checks of a terraform test, played at the plugin protocol
// (TestAccInstance_createToggleNoopImport in instance_resource_test.go keeps the instance family's
// terraform test).
func TestInstance_securityIPsIsTheDefaultArray(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	withIPs := func(ips ...string) []oracleResource {
		return instanceResources("mysql.n2.medium.2c", 20, map[string]any{"security_ips": ips})
	}
	unset := instanceResources("mysql.n2.medium.2c", 20, map[string]any{"prevent_restart": true})
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
	stateIPs := func(name string, want ...string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			expectStrings(t, name+": state security_ips", attrOf(w.state[testRes], "security_ips"), want...)
			return nil
		}
	}
	w.checkedStep(t, "create", withIPs("10.0.0.1"), &id)
	// Arrays of other services appear: no diff.
	if err := env.sim.AddIPArray(id, "ali_dms_group", "100.104.0.0/16", "hidden"); err != nil {
		t.Fatal(err)
	}
	if err := env.sim.AddIPArray(id, "app_team", "10.9.0.0/16", ""); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	plan := w.checkedStep(t, "foreign arrays", withIPs("10.0.0.1"), &id, stateIPs("foreign arrays", "10.0.0.1"),
		arrayReads(1), foreignArraysKept)
	expectAction(t, "foreign arrays", plan, testRes, actNoop)
	plan = w.checkedStep(t, "change", withIPs("10.0.0.2", "10.0.0.3"), &id, stateIPs("change", "10.0.0.2", "10.0.0.3"),
		foreignArraysKept)
	expectAction(t, "change", plan, testRes, actUpdate)
	expectStrings(t, "change: planned security_ips", attrOf(plan.res[testRes].planned, "security_ips"), "10.0.0.2", "10.0.0.3")
	// Drift of the default array itself still shows.
	env.apiCall(t, "ModifySecurityIps", func(ctx context.Context) error {
		return env.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "10.0.0.2"})
	})()
	plan = w.checkedStep(t, "drift", withIPs("10.0.0.2", "10.0.0.3"), &id, stateIPs("drift", "10.0.0.2", "10.0.0.3"), foreignArraysKept)
	expectAction(t, "drift", plan, testRes, actUpdate)
	// Unset (the next apply that changes the instance records it): no diff after it, then no array
	// read (one call per refresh), the arrays untouched.
	env.sim.ResetStats()
	w.checkedStep(t, "unset", unset, &id)
	env.sim.ResetStats()
	plan = w.checkedStep(t, "unset again", unset, &id, arrayReads(0), foreignArraysKept)
	expectAction(t, "unset again", plan, testRes, actNoop)
	w.destroyStep(t, env)
}
