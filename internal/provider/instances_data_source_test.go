package provider

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func TestInstancesDataSourceAllPagesFiltersAndCost(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	ctx := context.Background()
	// 130 instances: more than one page of 100.
	var named []string
	for i := 0; i < 130; i++ {
		id, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", OptimizedWrites: i%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		if i%40 == 0 {
			if err := env.api.ModifyDBInstanceDescription(ctx, id, fmt.Sprintf("orders-%d", i)); err != nil {
				t.Fatal(err)
			}
			named = append(named, id)
		}
	}
	if _, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "PostgreSQL", EngineVersion: "16.0", DBInstanceClass: "pg.n2.medium.2c"}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()

	state, diags := dsRead(t, env, NewInstancesDataSource(), map[string]tftypes.Value{
		"name_regex": tftypes.NewValue(tftypes.String, "^orders-"),
		"engine":     tftypes.NewValue(tftypes.String, "MySQL"),
	})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	var m instancesDataModel
	if d := state.Get(ctx, &m); d.HasError() {
		t.Fatal(d)
	}
	var ids []string
	if d := m.IDs.ElementsAs(ctx, &ids, false); d.HasError() {
		t.Fatal(d)
	}
	if fmt.Sprint(ids) != fmt.Sprint(sortedCopy(named)) {
		t.Errorf("ids = %v, want %v", ids, sortedCopy(named))
	}
	var items []instanceDataModel
	if d := m.Instances.ElementsAs(ctx, &items, false); d.HasError() {
		t.Fatal(d)
	}
	if len(items) != len(named) {
		t.Fatalf("%d instances, want %d", len(items), len(named))
	}
	for i, it := range items {
		if it.ID.ValueString() != ids[i] || !it.AtomicWrite16KSupported.ValueBool() || it.AtomicWrite16K.IsNull() || it.Storage.ValueInt64() != 100 {
			t.Errorf("instance %d = %+v", i, it)
		}
	}
	st := env.sim.Stats()
	if n := st.Requests["DescribeDBInstances"]; n != 2 {
		t.Errorf("131 instances at 100 a page: want 2 list calls, got %d", n)
	}
	if n := st.Requests["DescribeDBInstanceAttribute"]; n != len(named) {
		t.Errorf("DescribeDBInstanceAttribute only for matches: want %d calls, got %d", len(named), n)
	}

	// engine filter, no regex: the PostgreSQL instance alone, flag off and unsupported.
	state, diags = dsRead(t, env, NewInstancesDataSource(), map[string]tftypes.Value{"engine": tftypes.NewValue(tftypes.String, "PostgreSQL")})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	if d := state.Get(ctx, &m); d.HasError() {
		t.Fatal(d)
	}
	items = nil
	if d := m.Instances.ElementsAs(ctx, &items, false); d.HasError() {
		t.Fatal(d)
	}
	if len(items) != 1 || items[0].Engine.ValueString() != "PostgreSQL" || items[0].AtomicWrite16K.ValueBool() || items[0].AtomicWrite16KSupported.ValueBool() {
		t.Errorf("PostgreSQL filter gave %+v", items)
	}

	// No match: empty lists, not null.
	state, diags = dsRead(t, env, NewInstancesDataSource(), map[string]tftypes.Value{"name_regex": tftypes.NewValue(tftypes.String, "^nothing$")})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	if d := state.Get(ctx, &m); d.HasError() {
		t.Fatal(d)
	}
	if m.IDs.IsNull() || len(m.IDs.Elements()) != 0 || m.Instances.IsNull() || len(m.Instances.Elements()) != 0 {
		t.Errorf("no match must give empty lists, got %v / %v", m.IDs, m.Instances)
	}
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}

func TestInstancesDataSourceRegexValidator(t *testing.T) {
	for value, ok := range map[string]bool{"^orders-[0-9]+$": true, "(": false, "a{2,1}": false} {
		var resp validator.StringResponse
		regexValidator{}.ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("name_regex"), ConfigValue: types.StringValue(value),
		}, &resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: error = %v, want valid = %t", value, resp.Diagnostics, ok)
		}
		if !ok {
			d := roFindDiag(t, resp.Diagnostics, diag.SeverityError, "name_regex")
			roWantContains(t, "regex error", d.Detail(), value)
		}
	}
	var resp validator.StringResponse
	regexValidator{}.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("name_regex"), ConfigValue: types.StringUnknown()}, &resp)
	if resp.Diagnostics.HasError() {
		t.Error("an unknown regex is checked later, not refused")
	}
}
