package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// dsRead runs a data source's Read against env with the given configuration values (others null).
func dsRead(t *testing.T, env *testEnv, ds datasource.DataSource, vals map[string]tftypes.Value) (tfsdk.State, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	var s datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &s)
	if s.Diagnostics.HasError() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	if c, ok := ds.(datasource.DataSourceWithConfigure); ok {
		var cr datasource.ConfigureResponse
		c.Configure(ctx, datasource.ConfigureRequest{ProviderData: env.data}, &cr)
		if cr.Diagnostics.HasError() {
			t.Fatalf("configure: %v", cr.Diagnostics)
		}
	}
	typ := s.Schema.Type().TerraformType(ctx).(tftypes.Object)
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		all[name] = tftypes.NewValue(at, nil)
	}
	for k, v := range vals {
		all[k] = v
	}
	raw := tftypes.NewValue(typ, all)
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: s.Schema, Raw: raw}}
	ds.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config{Schema: s.Schema, Raw: raw}}, &resp)
	return resp.State, resp.Diagnostics
}

func TestInstanceDataSourceReadsPrimaryAndReadonly(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	ro := roSeedReadonly(t, env, primary, true)
	env.sim.ResetStats()

	state, diags := dsRead(t, env, NewInstanceDataSource(), map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, primary)})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	var m instanceDataModel
	if d := state.Get(context.Background(), &m); d.HasError() {
		t.Fatal(d)
	}
	if !m.AtomicWrite16K.ValueBool() || !m.AtomicWrite16KSupported.ValueBool() || m.Engine.ValueString() != "MySQL" ||
		m.InstanceType.ValueString() != "mysql.n2.medium.2c" || m.Storage.ValueInt64() != 100 || m.Status.ValueString() != "Running" ||
		m.DBInstanceType.ValueString() != "Primary" || m.MasterInstanceID.ValueString() != "" || m.Port.ValueInt64() != 3306 ||
		m.InstructionSetArch.ValueString() != "x86" {
		t.Errorf("primary read as %+v", m)
	}
	var ros []string
	if d := m.ReadOnlyInstanceIDs.ElementsAs(context.Background(), &ros, false); d.HasError() {
		t.Fatal(d)
	}
	if len(ros) != 1 || ros[0] != ro {
		t.Errorf("read_only_instance_ids = %v, want [%s]", ros, ro)
	}
	if n := env.requests("DescribeDBInstanceAttribute"); n != 1 {
		t.Errorf("one read = one DescribeDBInstanceAttribute, got %d", n)
	}

	state, diags = dsRead(t, env, NewInstanceDataSource(), map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, ro)})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	if d := state.Get(context.Background(), &m); d.HasError() {
		t.Fatal(d)
	}
	if m.MasterInstanceID.ValueString() != primary || m.DBInstanceType.ValueString() != "Readonly" || !m.AtomicWrite16K.ValueBool() {
		t.Errorf("read-only read as %+v", m)
	}
}

func TestInstanceDataSourceNonMySQLAndNotFound(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	pg, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "PostgreSQL", EngineVersion: "16.0", DBInstanceClass: "pg.n2.medium.2c"})
	if err != nil {
		t.Fatal(err)
	}
	state, diags := dsRead(t, env, NewInstanceDataSource(), map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, pg)})
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	var m instanceDataModel
	if d := state.Get(context.Background(), &m); d.HasError() {
		t.Fatal(d)
	}
	if m.AtomicWrite16K.ValueBool() || m.AtomicWrite16KSupported.ValueBool() || m.AtomicWrite16K.IsNull() {
		t.Errorf("PostgreSQL has no 16K atomic write: got %v / %v", m.AtomicWrite16K, m.AtomicWrite16KSupported)
	}

	_, diags = dsRead(t, env, NewInstanceDataSource(), map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "rm-missing")})
	e := roFindDiag(t, diags, diag.SeverityError, "id")
	roWantContains(t, "not-found error", e.Summary()+e.Detail(), "rm-missing", "not found")
}
