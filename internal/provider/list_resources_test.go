package provider

// List resources at the plugin protocol: ListResource as `terraform query` calls it, then the
// configuration Terraform generates from each result (its Required and Optional attributes) is
// validated and planned against the listed resource: the plan must be empty.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

const fleetSize = 50

// seedFleet plants fleetSize primaries named fleet-NN (every tenth on MySQL 5.7) and two read-only
// instances of the first one.
func seedFleet(t *testing.T, w *oracleWorld) []string {
	t.Helper()
	var ids []string
	for i := range fleetSize {
		version := "8.0"
		if i%10 == 9 {
			version = "5.7"
		}
		id, err := w.sim.AddInstance(simulator.SeedInstance{ID: fmt.Sprintf("rm-fleet%03d", i), Engine: "MySQL",
			EngineVersion: version, DBInstanceClass: "mysql.n2.medium.2c", Storage: 100})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for i := range 2 {
		if _, err := w.sim.AddInstance(simulator.SeedInstance{ID: fmt.Sprintf("rr-fleet%03d", i), Engine: "MySQL", EngineVersion: "8.0",
			DBInstanceClass: "mysql.n2.medium.2c", Storage: 100, MasterID: ids[0]}); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// listConfig is a list block's configuration of the type's list schema.
func listConfig(t *testing.T, server tfprotov6.ProviderServer, typeName string, attrs map[string]string) *tfprotov6.DynamicValue {
	t.Helper()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema, ok := resp.ListResourceSchemas[typeName]
	if !ok {
		t.Fatalf("no list resource %s", typeName)
	}
	typ := schema.ValueType().(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := attrs[name]; ok {
			vals[name] = tftypes.NewValue(at, v)
		}
	}
	return dynamic(typ, tftypes.NewValue(typ, vals))
}

// listed calls ListResource and returns the results, failing on any error.
func listed(t *testing.T, w *oracleWorld, typeName string, attrs map[string]string, include bool, limit int64) []tfprotov6.ListResourceResult {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	stream, err := server.(tfprotov6.ListResourceServer).ListResource(context.Background(), &tfprotov6.ListResourceRequest{TypeName: typeName,
		Config: listConfig(t, server, typeName, attrs), IncludeResource: include, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	var out []tfprotov6.ListResourceResult
	for r := range stream.Results {
		if diagsHaveError(r.Diagnostics) {
			t.Fatalf("list %s: %s", typeName, diagText(r.Diagnostics))
		}
		out = append(out, r)
	}
	return out
}

// generatedConfig is the configuration `terraform query -generate-config-out` writes for a listed
// resource: its Required and Optional attributes as listed, nothing computed-only or write-only.
func generatedConfig(w *oracleWorld, typeName string, state tftypes.Value) tftypes.Value {
	typ := w.h.objType(typeName)
	vals := map[string]tftypes.Value{}
	for _, a := range w.h.schemas[typeName].Block.Attributes {
		vals[a.Name] = tftypes.NewValue(typ.AttributeTypes[a.Name], nil)
		if (a.Required || a.Optional) && !a.WriteOnly && !a.Sensitive {
			vals[a.Name] = attrOf(state, a.Name)
		}
	}
	return tftypes.NewValue(typ, vals)
}

// planGenerated plans each listed resource with its generated configuration; every plan must be
// empty.
func planGenerated(t *testing.T, w *oracleWorld, typeName string, results []tfprotov6.ListResourceResult) {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		state, err := r.Resource.Unmarshal(w.h.objType(typeName))
		if err != nil {
			t.Fatal(err)
		}
		addr := fmt.Sprintf("%s.listed_%d", typeName, i)
		w.state[addr] = state
		p := w.planOne(server, oracleResource{addr: addr}, generatedConfig(w, typeName, state))
		if diagsHaveError(p.diags) || p.action != actNoop {
			t.Fatalf("%s (%s): generated configuration plans %s, want no change; %s", addr, r.DisplayName, p.action, diagText(p.diags))
		}
	}
}

func identityString(t *testing.T, r tfprotov6.ListResourceResult, names ...string) string {
	t.Helper()
	types := map[string]tftypes.Type{}
	for _, n := range names {
		types[n] = tftypes.String
	}
	v, err := r.Identity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, n := range names {
		var s string
		if err := attrOf(v, n).As(&s); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ":")
}

// The fleet of 50 is listed with one DescribeDBInstances page, and each listed instance's generated
// configuration plans empty.
func TestListInstancesGeneratesConfigThatPlansEmpty(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	ids := seedFleet(t, w)
	before := w.sim.Stats().Requests["DescribeDBInstances"]
	results := listed(t, w, "rds_instance", nil, true, 0)
	if pages := w.sim.Stats().Requests["DescribeDBInstances"] - before; pages != 1 {
		t.Errorf("listing %d instances took %d DescribeDBInstances calls, want 1 (100 a page)", fleetSize, pages)
	}
	if len(results) != fleetSize {
		t.Fatalf("listed %d instances, want %d (the primaries only)", len(results), fleetSize)
	}
	for i, r := range results {
		if got := identityString(t, r, "instance_id"); got != ids[i] {
			t.Errorf("result %d has identity %s, want %s", i, got, ids[i])
		}
	}
	planGenerated(t, w, "rds_instance", results)

	readonly := listed(t, w, "rds_readonly_instance", nil, true, 0)
	if len(readonly) != 2 {
		t.Fatalf("listed %d read-only instances, want 2", len(readonly))
	}
	planGenerated(t, w, "rds_readonly_instance", readonly)
}

// Filters and the limit narrow the list; without include_resource nothing but the list is read.
func TestListInstancesFiltersAndLimit(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	seedFleet(t, w)
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ModifyDBInstanceDescription(context.Background(), "rm-fleet007", "billing-db"); err != nil {
		t.Fatal(err)
	}
	before := w.sim.Stats().Requests["DescribeDBInstanceAttribute"]
	for _, tc := range []struct {
		attrs map[string]string
		limit int64
		want  int
	}{
		{nil, 0, fleetSize},
		{map[string]string{"name_regex": "^billing"}, 0, 1},
		{map[string]string{"engine": "mysql", "status": "running"}, 0, fleetSize},
		{map[string]string{"vpc_id": "vpc-elsewhere"}, 0, 0},
		{nil, 7, 7},
	} {
		if got := len(listed(t, w, "rds_instance", tc.attrs, false, tc.limit)); got != tc.want {
			t.Errorf("list with %v, limit %d: %d results, want %d", tc.attrs, tc.limit, got, tc.want)
		}
	}
	if n := w.sim.Stats().Requests["DescribeDBInstanceAttribute"] - before; n != 0 {
		t.Errorf("listing without include_resource read %d instances one by one, want 0", n)
	}
}

// Accounts and databases are listed per instance or across the fleet; their generated
// configuration plans empty too (the account's password stays unmanaged).
func TestListAccountsAndDatabases(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	ids := seedFleet(t, w)
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range ids[:3] {
		if err := api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "app", AccountPassword: movedSecret}); err != nil {
			t.Fatal(err)
		}
		if err := api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8mb4"}); err != nil {
			t.Fatal(err)
		}
	}
	accounts := listed(t, w, "rds_account", map[string]string{"instance_id": ids[1]}, true, 0)
	if len(accounts) != 1 || identityString(t, accounts[0], "instance_id", "name") != ids[1]+":app" {
		t.Fatalf("accounts of %s: %v", ids[1], accounts)
	}
	planGenerated(t, w, "rds_account", accounts)
	if all := listed(t, w, "rds_account", nil, false, 0); len(all) != 3 {
		t.Errorf("accounts of the fleet: %d, want 3", len(all))
	}
	databases := listed(t, w, "rds_database", map[string]string{"name_regex": "^ord"}, true, 0)
	if len(databases) != 3 {
		t.Fatalf("databases of the fleet: %d, want 3", len(databases))
	}
	planGenerated(t, w, "rds_database", databases)
	for _, r := range append(accounts, databases...) {
		if strings.Contains(string(r.Resource.JSON)+string(r.Resource.MsgPack), movedSecret) {
			t.Errorf("listed %s carries the password", r.DisplayName)
		}
	}
}

// The backup policy of every primary of the fleet is listed with the instances' one page, and its
// generated configuration plans empty.
func TestListBackupPolicies(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	ids := seedFleet(t, w)
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ModifyDBInstanceDescription(context.Background(), ids[3], "billing-db"); err != nil {
		t.Fatal(err)
	}
	before := w.sim.Stats().Requests["DescribeDBInstances"]
	if all := listed(t, w, "rds_backup_policy", nil, false, 0); len(all) != fleetSize {
		t.Fatalf("listed %d backup policies, want %d (one per primary)", len(all), fleetSize)
	}
	if pages := w.sim.Stats().Requests["DescribeDBInstances"] - before; pages != 1 {
		t.Errorf("listing the policies of %d instances took %d DescribeDBInstances calls, want 1", fleetSize, pages)
	}
	results := listed(t, w, "rds_backup_policy", map[string]string{"name_regex": "^billing"}, true, 0)
	if len(results) != 1 || identityString(t, results[0], "instance_id") != ids[3] {
		t.Fatalf("backup policies named ^billing: %v, want the one of %s", results, ids[3])
	}
	planGenerated(t, w, "rds_backup_policy", results)
}
