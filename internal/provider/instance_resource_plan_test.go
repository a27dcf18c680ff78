package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Unit tests that call ValidateConfig and ModifyPlan directly: warnings cannot be asserted
// through terraform-plugin-testing. Each test has its own simulator and checks that planning
// sent no mutating request.

func instanceSchema(t *testing.T) schema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	NewInstanceResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	return resp.Schema
}

var timeoutsAttrTypes = map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}

// nullModel has every attribute null, with the right types.
func nullModel() instanceModel {
	return instanceModel{
		ID: types.StringNull(), Engine: types.StringNull(), EngineVersion: types.StringNull(), InstanceType: types.StringNull(),
		Storage: types.Int64Null(), StorageType: types.StringNull(), Category: types.StringNull(), ZoneID: types.StringNull(),
		VpcID: types.StringNull(), VSwitchID: types.StringNull(), InstanceName: types.StringNull(),
		SecurityIPs: types.SetNull(types.StringType), DeletionProtection: types.BoolNull(), AtomicWrite16K: types.BoolNull(),
		BufferPoolExtension: types.BoolNull(), PreventRestart: types.BoolNull(), RestoreFrom: types.ObjectNull(restoreFromAttrTypes),
		Timeouts: timeouts.Value{Object: types.ObjectNull(timeoutsAttrTypes)}, Status: types.StringNull(),
		ConnectionString: types.StringNull(), Port: types.Int64Null(), CreationTime: types.StringNull(),
		InstructionSetArch: types.StringNull(), AtomicWrite16KSupported: types.BoolNull(), ReadOnlyInstanceIDs: types.ListNull(types.StringType),
		MaintenanceWindow: types.StringNull(), ApplyRestarts: types.StringNull(), ScheduledChange: types.ObjectNull(scheduledChangeAttrTypes),
		Parameters: types.MapNull(types.StringType), ParametersPending: types.MapNull(types.StringType),
		Tags: types.MapNull(types.StringType), TagsAll: types.MapNull(types.StringType), ResourceGroupID: types.StringNull(),
		Billing: types.ObjectNull(billingAttrTypes), PrepaidOnDestroy: types.StringNull(), ExpireTime: types.StringNull(),
		StorageAutoScale: types.ObjectNull(autoScaleAttrTypes), StorageActual: types.Int64Null(),
		SQLAudit: types.ObjectNull(sqlAuditAttrTypes), HAConfig: types.ObjectNull(haSwitchAttrTypes), PreventDataLoss: types.BoolNull(), ParameterGroupValues: types.MapNull(types.StringType),
		ConnectionStringPrefix: types.StringNull(), PublicEndpoint: types.ObjectNull(publicEndpointAttrTypes),
		PublicConnectionString: types.StringNull(), PreventEndpointChange: types.BoolNull(),
		SecurityIPGroups: types.MapNull(ipGroupsElemType), SecurityGroupIDs: types.SetNull(types.StringType),
		WhitelistTemplateIDs: types.SetNull(types.StringType),
	}
}

// mysqlConfig is a minimal configuration: MySQL 8.0 on cloud_essd (defaults), HA x86 class.
func mysqlConfig() instanceModel {
	m := nullModel()
	m.Engine = types.StringValue("MySQL")
	m.EngineVersion = types.StringValue("8.0")
	m.InstanceType = types.StringValue("mysql.n2.medium.2c")
	m.Storage = types.Int64Value(20)
	return m
}

// createPlan is what the framework plans for config before ModifyPlan: defaults applied,
// computed values unknown.
func createPlan(c instanceModel) instanceModel {
	p := c
	if p.StorageType.IsNull() {
		p.StorageType = types.StringValue(defaultStorageType)
	}
	if p.Category.IsNull() {
		p.Category = types.StringValue(defaultCategory)
	}
	if p.SecurityIPs.IsNull() {
		p.SecurityIPs = types.SetValueMust(types.StringType, []attr.Value{types.StringValue(defaultSecurityIP)})
	}
	if p.DeletionProtection.IsNull() {
		p.DeletionProtection = types.BoolValue(false)
	}
	if p.PreventRestart.IsNull() {
		p.PreventRestart = types.BoolValue(false)
	}
	for _, v := range []*types.String{&p.ID, &p.ZoneID, &p.VpcID, &p.VSwitchID, &p.InstanceName, &p.Status, &p.ConnectionString, &p.CreationTime, &p.InstructionSetArch} {
		if v.IsNull() {
			*v = types.StringUnknown()
		}
	}
	for _, v := range []*types.Bool{&p.AtomicWrite16K, &p.BufferPoolExtension, &p.AtomicWrite16KSupported} {
		if v.IsNull() {
			*v = types.BoolUnknown()
		}
	}
	p.Port = types.Int64Unknown()
	p.ReadOnlyInstanceIDs = types.ListUnknown(types.StringType)
	return p
}

func rawOf(t *testing.T, s schema.Schema, m *instanceModel) tftypes.Value {
	t.Helper()
	st := tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}
	if m == nil {
		return st.Raw
	}
	if d := st.Set(context.Background(), m); d.HasError() {
		t.Fatalf("building value: %v", d)
	}
	return st.Raw
}

type planResult struct {
	plan  instanceModel
	diags diag.Diagnostics
	rr    []path.Path
}

func runModifyPlan(t *testing.T, env *testEnv, config, plan *instanceModel, state *instanceModel, requiresReplace ...path.Path) planResult {
	t.Helper()
	ctx := context.Background()
	s := instanceSchema(t)
	r := &instanceResource{data: env.data}
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Schema: s, Raw: rawOf(t, s, config)},
		Plan:   tfsdk.Plan{Schema: s, Raw: rawOf(t, s, plan)},
		State:  tfsdk.State{Schema: s, Raw: rawOf(t, s, state)},
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan, RequiresReplace: requiresReplace}
	before := env.mutations()
	r.ModifyPlan(ctx, req, &resp)
	if n := env.mutations() - before; n != 0 {
		t.Errorf("ModifyPlan sent %d mutating requests; planning must not change anything", n)
	}
	var out instanceModel
	if !resp.Plan.Raw.IsNull() {
		if d := resp.Plan.Get(ctx, &out); d.HasError() {
			t.Fatalf("reading plan: %v", d)
		}
	}
	return planResult{plan: out, diags: resp.Diagnostics, rr: resp.RequiresReplace}
}

// runValidate runs the configuration's own checks, which the plan runs first (CheckInstanceConfig).
func runValidate(t *testing.T, config instanceModel) diag.Diagnostics {
	t.Helper()
	s := instanceSchema(t)
	var diags diag.Diagnostics
	raw := rawOf(t, s, &config)
	addProblems(&diags, rdsservice.CheckInstanceConfig(attrValueOf(raw)))
	return diags
}

// stateOf reads an instance through the resource's Read, as a refresh would.
func stateOf(t *testing.T, env *testEnv, id string) instanceModel {
	t.Helper()
	m := nullModel()
	m.ID = types.StringValue(id)
	return readWith(t, env, m)
}

// readWith runs the resource's Read on state m, as a refresh would.
func readWith(t *testing.T, env *testEnv, m instanceModel) instanceModel {
	t.Helper()
	ctx := context.Background()
	s := instanceSchema(t)
	req := resource.ReadRequest{State: tfsdk.State{Schema: s, Raw: rawOf(t, s, &m)}}
	resp := resource.ReadResponse{State: req.State}
	(&instanceResource{data: env.data}).Read(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("read %s: %v", m.ID.ValueString(), resp.Diagnostics)
	}
	var out instanceModel
	if d := resp.State.Get(ctx, &out); d.HasError() {
		t.Fatalf("state: %v", d)
	}
	return out
}

// updateInputs derives config and plan from state and a change to the configuration, the way
// the framework does before ModifyPlan (computed values without a plan modifier become unknown).
func updateInputs(state instanceModel, change func(c *instanceModel)) (config, plan instanceModel) {
	config = nullModel()
	config.Engine, config.EngineVersion, config.InstanceType = state.Engine, state.EngineVersion, state.InstanceType
	config.Storage, config.StorageType, config.Category = state.Storage, state.StorageType, state.Category
	change(&config)
	plan = state
	plan.InstanceType, plan.Storage, plan.StorageType = config.InstanceType, config.Storage, config.StorageType
	plan.Engine, plan.EngineVersion, plan.Category = config.Engine, config.EngineVersion, config.Category
	for _, v := range []struct {
		cfg  types.String
		dest *types.String
	}{{config.InstanceName, &plan.InstanceName}} {
		if !v.cfg.IsNull() {
			*v.dest = v.cfg
		}
	}
	if !config.SecurityIPs.IsNull() {
		plan.SecurityIPs = config.SecurityIPs
	}
	if !config.DeletionProtection.IsNull() {
		plan.DeletionProtection = config.DeletionProtection
	}
	if !config.PreventRestart.IsNull() {
		plan.PreventRestart = config.PreventRestart
	}
	plan.AtomicWrite16K, plan.BufferPoolExtension = config.AtomicWrite16K, config.BufferPoolExtension
	if plan.AtomicWrite16K.IsNull() {
		plan.AtomicWrite16K = types.BoolUnknown()
	}
	if plan.BufferPoolExtension.IsNull() {
		plan.BufferPoolExtension = types.BoolUnknown()
	}
	plan.Status, plan.InstructionSetArch, plan.AtomicWrite16KSupported = types.StringUnknown(), types.StringUnknown(), types.BoolUnknown()
	return config, plan
}

func seed(t *testing.T, env *testEnv, s simulator.SeedInstance) string {
	t.Helper()
	id, err := env.sim.AddInstance(s)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return id
}

// wantDiag asserts exactly one diagnostic of the severity, at the path, whose summary and detail
// contain the given texts.
func wantDiag(t *testing.T, diags diag.Diagnostics, sev diag.Severity, at path.Path, summary string, detail ...string) {
	t.Helper()
	var found []diag.Diagnostic
	for _, d := range diags {
		if d.Severity() == sev {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want exactly one %v, got %d: %v", sev, len(found), diags)
	}
	d := found[0]
	if !strings.Contains(d.Summary(), summary) {
		t.Errorf("summary %q does not contain %q", d.Summary(), summary)
	}
	for _, w := range detail {
		if !strings.Contains(d.Detail(), w) {
			t.Errorf("detail does not contain %q:\n%s", w, d.Detail())
		}
	}
	withPath, ok := d.(diag.DiagnosticWithPath)
	if !ok || !withPath.Path().Equal(at) {
		t.Errorf("diagnostic path = %v, want %v", d, at)
	}
}

func wantNoDiags(t *testing.T, diags diag.Diagnostics) {
	t.Helper()
	if len(diags) != 0 {
		t.Fatalf("want no diagnostics, got %v", diags)
	}
}

func TestValidateConfigAtomicWritePrerequisites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		change  func(m *instanceModel)
		summary string
		detail  string
	}{
		{"engine", func(m *instanceModel) {
			m.Engine, m.EngineVersion, m.InstanceType = types.StringValue("PostgreSQL"), types.StringValue("16.0"), types.StringValue("pg.n2.medium.2c")
		}, "not available for this engine", `needs engine MySQL; got "PostgreSQL"`},
		{"version", func(m *instanceModel) { m.EngineVersion = types.StringValue("5.6") },
			"not available for this engine version", `needs engine_version 5.7 or 8.0; got "5.6"`},
		{"storage", func(m *instanceModel) { m.StorageType = types.StringValue("cloud_ssd") },
			"not available for this storage type", `got "cloud_ssd"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mysqlConfig()
			c.AtomicWrite16K = types.BoolValue(true)
			tc.change(&c)
			diags := runValidate(t, c)
			wantDiag(t, diags, diag.SeverityError, path.Root("atomic_write_16k"), tc.summary, tc.detail, "set atomic_write_16k = false")
		})
	}
	t.Run("eligible", func(t *testing.T) {
		c := mysqlConfig()
		c.AtomicWrite16K = types.BoolValue(true)
		wantNoDiags(t, runValidate(t, c))
	})
	t.Run("unknown inputs are skipped", func(t *testing.T) {
		c := mysqlConfig()
		c.AtomicWrite16K = types.BoolValue(true)
		c.EngineVersion = types.StringUnknown()
		c.StorageType = types.StringValue("local_ssd")
		wantNoDiags(t, runValidate(t, c))
	})
	t.Run("false is always fine", func(t *testing.T) {
		c := mysqlConfig()
		c.AtomicWrite16K = types.BoolValue(false)
		c.EngineVersion = types.StringValue("5.6")
		wantNoDiags(t, runValidate(t, c))
	})
}

func TestValidateConfigBufferPoolExtensionAndRestore(t *testing.T) {
	t.Parallel()
	c := mysqlConfig()
	c.BufferPoolExtension = types.BoolValue(true)
	wantDiag(t, runValidate(t, c), diag.SeverityError, path.Root("buffer_pool_extension"),
		"Buffer Pool Extension is not available", `needs storage_type general_essd; got "cloud_essd"`)
	c.StorageType = types.StringValue("general_essd")
	wantNoDiags(t, runValidate(t, c))

	c = mysqlConfig()
	c.RestoreFrom = types.ObjectValueMust(restoreFromAttrTypes, map[string]attr.Value{
		"source_instance_id": types.StringValue("rm-x"), "backup_id": types.StringNull(), "restore_time": types.StringNull(),
		"cross_region_backup_id": types.StringNull(), "source_region": types.StringNull(),
	})
	wantDiag(t, runValidate(t, c), diag.SeverityError, path.Root("restore_from"), "Invalid restore_from", "exactly one of restore_from.backup_id")
}

func TestModifyPlanCreateKnownDefault(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	cases := []struct {
		name      string
		change    func(m *instanceModel)
		flag      bool
		supported bool
		arch      string
	}{
		{"mysql 8.0 essd x86", func(*instanceModel) {}, true, true, "x86"},
		{"mysql 8.0 essd yitian", func(m *instanceModel) { m.InstanceType = types.StringValue("mysql.n2m.medium.2c") }, true, true, "arm"},
		{"mysql 5.7 basic", func(m *instanceModel) {
			m.EngineVersion, m.Category, m.InstanceType = types.StringValue("5.7"), types.StringValue("Basic"), types.StringValue("mysql.n2.medium.1")
		}, true, true, "x86"},
		{"mysql 8.0 local_ssd", func(m *instanceModel) { m.StorageType = types.StringValue("local_ssd") }, false, false, "x86"},
		{"postgresql", func(m *instanceModel) {
			m.Engine, m.EngineVersion, m.InstanceType = types.StringValue("PostgreSQL"), types.StringValue("16.0"), types.StringValue("pg.n2.medium.2c")
		}, false, false, "x86"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mysqlConfig()
			tc.change(&c)
			p := createPlan(c)
			res := runModifyPlan(t, env, &c, &p, nil)
			wantNoDiags(t, res.diags)
			if res.plan.AtomicWrite16K.IsUnknown() || res.plan.AtomicWrite16K.ValueBool() != tc.flag {
				t.Errorf("planned atomic_write_16k = %v, want %v", res.plan.AtomicWrite16K, tc.flag)
			}
			if res.plan.AtomicWrite16KSupported.ValueBool() != tc.supported || res.plan.AtomicWrite16KSupported.IsUnknown() {
				t.Errorf("planned atomic_write_16k_supported = %v, want %v", res.plan.AtomicWrite16KSupported, tc.supported)
			}
			if res.plan.InstructionSetArch.ValueString() != tc.arch {
				t.Errorf("planned instruction_set_arch = %v, want %s", res.plan.InstructionSetArch, tc.arch)
			}
			if res.plan.BufferPoolExtension.IsUnknown() || res.plan.BufferPoolExtension.ValueBool() {
				t.Errorf("planned buffer_pool_extension = %v, want false", res.plan.BufferPoolExtension)
			}
		})
	}
	t.Run("explicit false is kept", func(t *testing.T) {
		c := mysqlConfig()
		c.AtomicWrite16K = types.BoolValue(false)
		p := createPlan(c)
		res := runModifyPlan(t, env, &c, &p, nil)
		wantNoDiags(t, res.diags)
		if res.plan.AtomicWrite16K.ValueBool() {
			t.Error("explicit false must stay false")
		}
	})
	t.Run("unknown version defers", func(t *testing.T) {
		c := mysqlConfig()
		c.EngineVersion = types.StringUnknown()
		p := createPlan(c)
		res := runModifyPlan(t, env, &c, &p, nil)
		wantNoDiags(t, res.diags)
		if !res.plan.AtomicWrite16K.IsUnknown() {
			t.Errorf("atomic_write_16k must stay unknown until the version is known, got %v", res.plan.AtomicWrite16K)
		}
	})
}

func TestModifyPlanCreateClassCheck(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	c := mysqlConfig()
	c.InstanceType = types.StringValue("mysql.n2.medium.3c")
	p := createPlan(c)
	res := runModifyPlan(t, env, &c, &p, nil)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("instance_type"), "Instance type not offered",
		`instance_type "mysql.n2.medium.3c" is not offered for MySQL 8.0, category HighAvailability, storage_type cloud_essd`,
		"Close matches: mysql.n2.medium.2c")

	// A Basic class asked for as HighAvailability is not offered either.
	c = mysqlConfig()
	c.InstanceType = types.StringValue("mysql.n2.medium.1")
	p = createPlan(c)
	res = runModifyPlan(t, env, &c, &p, nil)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("instance_type"), "Instance type not offered", "Close matches:")
}

func TestModifyPlanUpdateToggleWarnsAndGuards(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: time.Now().Add(-time.Hour)})
	state := stateOf(t, env, id)
	if state.AtomicWrite16K.ValueBool() || !state.AtomicWrite16KSupported.ValueBool() {
		t.Fatalf("seeded instance: flag %v supported %v", state.AtomicWrite16K, state.AtomicWrite16KSupported)
	}

	config, plan := updateInputs(state, func(c *instanceModel) { c.AtomicWrite16K = types.BoolValue(true) })
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("atomic_write_16k"), "This apply restarts RDS instance "+id,
		id+": atomic_write_16k changes from false to true", "expected downtime about 30 to 60 seconds", "prevent_restart = true")
	if !res.plan.AtomicWrite16K.ValueBool() {
		t.Errorf("planned flag = %v", res.plan.AtomicWrite16K)
	}

	config.PreventRestart, plan.PreventRestart = types.BoolValue(true), types.BoolValue(true)
	res = runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("atomic_write_16k"), "prevent_restart refuses this plan: it restarts RDS instance "+id,
		id+": atomic_write_16k changes from false to true", "prevent_restart = true refuses any plan that takes the instance out of service")
	for _, d := range res.diags {
		if strings.HasPrefix(d.Summary(), "This apply restarts") {
			t.Errorf("a refused plan also shows %q", d.Summary())
		}
	}
}

func TestModifyPlanUpdateOneWarningForClassAndFlag(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: time.Now().Add(-time.Hour)})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) {
		c.AtomicWrite16K = types.BoolValue(true)
		c.InstanceType = types.StringValue("mysql.n2.large.2c")
		c.Storage = types.Int64Value(40)
	})
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("instance_type"), "This apply restarts RDS instance "+id,
		"atomic_write_16k changes from false to true", `instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"`)
	for _, d := range res.diags {
		if strings.Contains(d.Detail(), "storage changes") {
			t.Errorf("growing cloud-disk storage happens online, yet the plan calls it a restart:\n%s", d.Detail())
		}
	}
}

// A YiTian instance bought before 2025-05-14 on a storage type without the feature: after a move
// to ESSD it is eligible only if its product type never changed, which the API does not show. The
// plan says so and leaves atomic_write_16k_supported unknown instead of guessing.
func TestModifyPlanUpdateUndecidableEligibilityWarns(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2m.medium.2c",
		Storage: 20, StorageType: "cloud_ssd", Category: "HighAvailability", PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) {
		c.AtomicWrite16K = types.BoolValue(true)
		c.StorageType = types.StringValue("cloud_essd")
	})
	res := runModifyPlan(t, env, &config, &plan, &state)
	if res.diags.HasError() {
		t.Fatalf("the cloud decides this one; the plan must not refuse it: %v", res.diags)
	}
	found := false
	for _, d := range res.diags.Warnings() {
		if d.Summary() == "16K atomic write eligibility is decided at apply" && strings.Contains(d.Detail(), "was never changed") {
			found = true
		}
	}
	if !found || res.diags.WarningsCount() != 2 {
		t.Errorf("want the eligibility warning next to the restart warning, got %v", res.diags)
	}
	if !res.plan.AtomicWrite16KSupported.IsUnknown() {
		t.Errorf("atomic_write_16k_supported planned as %v, want unknown", res.plan.AtomicWrite16KSupported)
	}
}

func TestModifyPlanUpdateNoRestartChanges(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: true})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) {
		c.InstanceName = types.StringValue("renamed")
		c.DeletionProtection = types.BoolValue(true)
	})
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantNoDiags(t, res.diags)
	if !res.plan.AtomicWrite16K.ValueBool() || res.plan.AtomicWrite16K.IsUnknown() {
		t.Errorf("unset atomic_write_16k must keep the prior value true, got %v", res.plan.AtomicWrite16K)
	}
	if res.plan.BufferPoolExtension.IsUnknown() || res.plan.AtomicWrite16KSupported.IsUnknown() || res.plan.InstructionSetArch.IsUnknown() {
		t.Errorf("computed values must stay known: %+v", res.plan)
	}
}

func TestModifyPlanUpdateIneligible(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	legacy := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	basic := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.1",
		Storage: 20, StorageType: "cloud_essd", Category: "Basic"})

	state := stateOf(t, env, legacy)
	config, plan := updateInputs(state, func(c *instanceModel) { c.AtomicWrite16K = types.BoolValue(true) })
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("atomic_write_16k"), "16K atomic write is not supported by this instance",
		"atomic_write_16k_supported is false for instance "+legacy, "Set atomic_write_16k = false")

	state = stateOf(t, env, basic)
	config, plan = updateInputs(state, func(c *instanceModel) { c.AtomicWrite16K = types.BoolValue(true) })
	res = runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("category"), "cannot be turned on for an existing instance of this edition",
		`needs category HighAvailability or cluster; got "Basic"`)
}

func TestModifyPlanUpdateProductTypeChangeTurnsFlagOff(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2m.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC),
		OptimizedWrites: true})
	state := stateOf(t, env, id)

	// Unset flag: the plan turns it off and says so, plus the restart warning.
	config, plan := updateInputs(state, func(c *instanceModel) { c.InstanceType = types.StringValue("mysql.n2.medium.2c") })
	res := runModifyPlan(t, env, &config, &plan, &state)
	if res.plan.AtomicWrite16K.ValueBool() || res.plan.AtomicWrite16KSupported.ValueBool() {
		t.Errorf("planned flag/supported = %v/%v, want false/false", res.plan.AtomicWrite16K, res.plan.AtomicWrite16KSupported)
	}
	if res.plan.InstructionSetArch.ValueString() != "x86" {
		t.Errorf("planned arch = %v", res.plan.InstructionSetArch)
	}
	if len(res.diags) != 2 || res.diags.HasError() {
		t.Fatalf("want two warnings, got %v", res.diags)
	}
	if !strings.Contains(res.diags[0].Summary(), "will be turned off") || !strings.Contains(res.diags[1].Detail(), "atomic_write_16k changes from true to false") {
		t.Errorf("unexpected warnings: %v", res.diags)
	}

	// Explicit true with the same change: an error on instance_type.
	config, plan = updateInputs(state, func(c *instanceModel) {
		c.InstanceType = types.StringValue("mysql.n2.medium.2c")
		c.AtomicWrite16K = types.BoolValue(true)
	})
	res = runModifyPlan(t, env, &config, &plan, &state)
	if !res.diags.HasError() {
		t.Fatalf("want an error, got %v", res.diags)
	}
	var found bool
	for _, d := range res.diags.Errors() {
		if p, ok := d.(diag.DiagnosticWithPath); ok && p.Path().Equal(path.Root("instance_type")) &&
			strings.Contains(d.Detail(), "Choose an instance type of the same architecture (arm)") {
			found = true
		}
	}
	if !found {
		t.Errorf("no instance_type error naming the fix: %v", res.diags)
	}
}

func TestModifyPlanTurnOnNamesReadOnlyFollowers(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	primary := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	roOff := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c",
		Storage: 20, StorageType: "cloud_essd", MasterID: primary})
	state := stateOf(t, env, primary)
	config, plan := updateInputs(state, func(c *instanceModel) { c.AtomicWrite16K = types.BoolValue(true) })
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("atomic_write_16k"), "This apply restarts RDS instances",
		primary+": atomic_write_16k changes from false to true",
		roOff+" (read-only instance): follows its primary turning atomic_write_16k on; expected downtime a few minutes")
}

func TestModifyPlanUpdateUnknownInstanceTypeMayRestart(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) { c.InstanceType = types.StringUnknown() })
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("instance_type"), "This apply may restart RDS instance "+id,
		"instance_type, atomic_write_16k", "checked again at apply time")
	if !res.plan.AtomicWrite16K.IsUnknown() {
		t.Errorf("flag must be unknown while the class is unknown, got %v", res.plan.AtomicWrite16K)
	}
}

func TestModifyPlanNoChangeAndDestroy(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: true})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(*instanceModel) {})
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantNoDiags(t, res.diags)
	if res.plan.Status.ValueString() != state.Status.ValueString() {
		t.Errorf("a plan without changes must keep status, got %v", res.plan.Status)
	}

	state.DeletionProtection = types.BoolValue(true)
	res = runModifyPlan(t, env, &config, nil, &state)
	wantDiag(t, res.diags, diag.SeverityError, path.Root("deletion_protection"), rdsservice.Rules[rdsservice.RuleDestroyRefusedProtection].Summary,
		"Set deletion_protection = false, run terraform apply")

	// A replacement deletes the current instance too.
	config, plan = updateInputs(state, func(c *instanceModel) { c.EngineVersion = types.StringValue("5.7") })
	res = runModifyPlan(t, env, &config, &plan, &state, path.Root("engine_version"))
	wantDiag(t, res.diags, diag.SeverityError, path.Root("deletion_protection"), "RDS instance "+id+" has deletion protection and this plan replaces it",
		"engine_version forces replacement of "+id)
}

func TestReadIsOneDescribe(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: true})
	env.sim.ResetStats()
	st := stateOf(t, env, id)
	if got := env.requests("DescribeDBInstanceAttribute"); got != 1 {
		t.Errorf("one refresh made %d DescribeDBInstanceAttribute calls, want 1 (%v)", got, env.sim.Stats().Requests)
	}
	if !st.AtomicWrite16K.ValueBool() || !st.AtomicWrite16KSupported.ValueBool() || st.PreventRestart.ValueBool() {
		t.Errorf("state after read: %+v", st)
	}
}

// Importing (or reading) a read-only instance as rds_instance is refused with the way out.
func TestReadRefusesAReadOnlyInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	primary := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	ro := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", MasterID: primary})
	s := instanceSchema(t)
	m := nullModel()
	m.ID = types.StringValue(ro)
	req := resource.ReadRequest{State: tfsdk.State{Schema: s, Raw: rawOf(t, s, &m)}}
	resp := resource.ReadResponse{State: req.State}
	(&instanceResource{data: env.data}).Read(context.Background(), req, &resp)
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "rds_readonly_instance") {
		t.Fatalf("want an error pointing to rds_readonly_instance, got %v", resp.Diagnostics)
	}
}

// A create whose wait times out still leaves the id in state (Terraform then taints it).
func TestCreateTimeoutKeepsID(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.CreateDuration = time.Minute
	env := newTestEnv(t, opts)
	ctx := context.Background()
	s := instanceSchema(t)
	c := mysqlConfig()
	c.Timeouts = timeouts.Value{Object: types.ObjectValueMust(timeoutsAttrTypes, map[string]attr.Value{
		"create": types.StringValue("1s"), "update": types.StringNull(), "delete": types.StringNull()})}
	p := createPlan(c)
	res := runModifyPlan(t, env, &c, &p, nil)
	plan := res.plan
	r := &instanceResource{data: env.data}
	req := resource.CreateRequest{Config: tfsdk.Config{Schema: s, Raw: rawOf(t, s, &c)}, Plan: tfsdk.Plan{Schema: s, Raw: rawOf(t, s, &plan)}}
	resp := resource.CreateResponse{State: tfsdk.State{Schema: s, Raw: rawOf(t, s, nil)}}
	start := time.Now()
	r.Create(ctx, req, &resp)
	if time.Since(start) > 20*time.Second {
		t.Errorf("create ignored its 1s timeout (took %v)", time.Since(start))
	}
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "recorded in state") {
		t.Fatalf("want a wait error, got %v", resp.Diagnostics)
	}
	var got instanceModel
	if d := resp.State.Get(ctx, &got); d.HasError() {
		t.Fatalf("state: %v", d)
	}
	if got.ID.ValueString() == "" {
		t.Fatal("the accepted instance's id must be in state")
	}
	if _, err := env.api.DescribeDBInstanceAttribute(ctx, got.ID.ValueString()); err != nil {
		t.Errorf("recorded id %s does not exist: %v", got.ID.ValueString(), err)
	}
}

// The plan's prediction for a new instance agrees with what the simulator does, across engine x
// version x storage type x category x architecture: the planned flag and atomic_write_16k_supported
// equal the read-back, and explicit true is refused at plan exactly when the cloud refuses it.
func TestCreatePredictionMatchesSimulator(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, simulator.Options{CreateDuration: time.Nanosecond, RestartDuration: time.Nanosecond, DeleteDuration: time.Nanosecond})
	ctx := context.Background()
	type combo struct{ engine, version, class, storage, category string }
	var combos []combo
	for _, v := range []string{"5.6", "5.7", "8.0", "8.4"} {
		for _, st := range []string{"cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd", "cloud_ssd", "local_ssd"} {
			for _, cc := range [][2]string{{"HighAvailability", "mysql.n2.medium.2c"}, {"HighAvailability", "mysql.n2m.medium.2c"},
				{"Basic", "mysql.n2.medium.1"}, {"cluster", "mysql.n2.medium.xc"}, {"cluster", "mysql.n2e.medium.xc"}} {
				combos = append(combos, combo{"MySQL", v, cc[1], st, cc[0]})
			}
		}
	}
	combos = append(combos, combo{"PostgreSQL", "16.0", "pg.n2.medium.2c", "cloud_essd", "HighAvailability"})
	disagreements, compared, refusedByCatalogue, localSSD := 0, 0, 0, 0
	for _, cb := range combos {
		c := mysqlConfig()
		c.Engine, c.EngineVersion, c.InstanceType = types.StringValue(cb.engine), types.StringValue(cb.version), types.StringValue(cb.class)
		c.StorageType, c.Category = types.StringValue(cb.storage), types.StringValue(cb.category)
		p := createPlan(c)
		config, d := instanceCodec.AttrValue(ctx, c)
		plan, dp := instanceCodec.AttrValue(ctx, p)
		d.Append(dp...)
		m := rdsservice.ModelRequest{Config: config, Plan: plan, State: rdsservice.NullAttr()}
		planned := rdsservice.PlanInstance(ctx, env.data.planEnv(), rdsservice.PrimaryRequest(ctx, env.data.API, m))
		dec := planned.Decision
		if d.HasError() || len(planned.ReadFailures) > 0 || dec.HasErrors() {
			// The class catalogue refused the combination: the create must be refused too.
			refusedByCatalogue++
			// The catalogue offers YiTian classes on cloud disks only (simulator README); those are
			// the only combinations it may refuse here.
			if cb.storage != "local_ssd" || rdsservice.Architecture(cb.class) != rdsapi.ArchitectureARM {
				t.Errorf("%+v: refused at plan: %v", cb, dec.Errors())
				disagreements++
			}
			continue
		}
		an := struct{ flag, supported *bool }{dec.AtomicWrite.Ptr(), dec.AtomicWriteSupported.Ptr()}
		if cb.storage == "local_ssd" {
			localSSD++
		}
		req := &rdsapi.CreateDBInstanceRequest{RegionID: simulator.DefaultRegion, Engine: cb.engine, EngineVersion: cb.version,
			DBInstanceClass: cb.class, DBInstanceStorage: 20, DBInstanceStorageType: cb.storage, Category: cb.category,
			PayType: rdsapi.PayTypePostpaid, SecurityIPList: "127.0.0.1"}
		if rdsservice.IsMySQL(cb.engine) {
			req.OptimizedWrites = optimizedWrites(*an.flag)
		}
		out, err := env.api.CreateDBInstance(ctx, req)
		if err != nil {
			t.Errorf("%+v: the simulator refused the planned create (flag %v): %v", cb, *an.flag, err)
			disagreements++
			continue
		}
		attrs, err := env.data.Waiter.WaitRunning(ctx, out.DBInstanceID)
		if err != nil {
			t.Fatal(err)
		}
		compared++
		gotFlag := attrs.OptimizedWrites != nil && attrs.OptimizedWrites.Enabled
		gotSupported := attrs.OptimizedWrites != nil && attrs.OptimizedWrites.Supported
		if gotFlag != *an.flag || gotSupported != *an.supported {
			t.Errorf("%+v: planned flag/supported %v/%v, simulator %v/%v", cb, *an.flag, *an.supported, gotFlag, gotSupported)
			disagreements++
		}
		// Explicit true: refused at validate time exactly when the simulator refuses it.
		c.AtomicWrite16K = types.BoolValue(true)
		refusedAtPlan := runValidate(t, c).HasError()
		req.OptimizedWrites, req.ClientToken = rdsapi.OptimizedWritesOn, ""
		_, err = env.api.CreateDBInstance(ctx, req)
		if refusedAtPlan != (err != nil) {
			t.Errorf("%+v: explicit true refused at plan=%v, by the simulator=%v (%v)", cb, refusedAtPlan, err != nil, err)
			disagreements++
		}
	}
	// Every combination is either compared or refused by the catalogue (and then by the cloud);
	// most are compared, local_ssd included.
	if disagreements != 0 || compared+refusedByCatalogue != len(combos) || compared < len(combos)/2 || localSSD == 0 {
		t.Errorf("%d disagreements between plan and simulator; %d of %d combinations compared (%d local_ssd), %d refused by the catalogue",
			disagreements, compared, len(combos), localSSD, refusedByCatalogue)
	}
}

// For existing instances (purchase date x architecture x edition x version), turning 16K atomic
// write on is refused at plan exactly when the simulator refuses it, and a class change of an
// instance with the flag on plans the flag and eligibility the simulator ends up with.
func TestExistingPredictionMatchesSimulator(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, simulator.Options{CreateDuration: time.Nanosecond, RestartDuration: time.Nanosecond, DeleteDuration: time.Nanosecond})
	ctx := context.Background()
	legacy, recent := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Now().Add(-time.Hour)
	classes := []struct{ category, class, other string }{
		{"HighAvailability", "mysql.n2.medium.2c", "mysql.n2m.medium.2c"},
		{"HighAvailability", "mysql.n2m.medium.2c", "mysql.n2.medium.2c"},
		{"Basic", "mysql.n2.medium.1", "mysql.n2.large.1"},
		{"cluster", "mysql.n2.medium.xc", "mysql.n2e.medium.xc"},
		{"cluster", "mysql.n2e.medium.xc", "mysql.n2.medium.xc"},
	}
	compared, disagreements := 0, 0
	for _, bought := range []time.Time{legacy, recent} {
		for _, version := range []string{"5.7", "8.0"} {
			for _, cl := range classes {
				name := fmt.Sprintf("%s %s %s bought %s", cl.category, cl.class, version, bought.Format("2006-01-02"))
				off := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: version, DBInstanceClass: cl.class,
					Storage: 20, StorageType: "cloud_essd", Category: cl.category, PurchaseTime: bought})
				state := stateOf(t, env, off)
				config, plan := updateInputs(state, func(c *instanceModel) { c.AtomicWrite16K = types.BoolValue(true) })
				refused := runModifyPlan(t, env, &config, &plan, &state).diags.HasError()
				_, err := env.api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: off,
					DBInstanceClass: cl.class, DBInstanceStorage: 20, PayType: rdsapi.PayTypePostpaid, OptimizedWrites: rdsapi.OptimizedWritesOn})
				compared++
				if refused != (err != nil) {
					t.Errorf("%s: turning on refused at plan=%v, by the simulator=%v (%v)", name, refused, err != nil, err)
					disagreements++
				}

				// Flag on (where the simulator allows it), then a class change with the flag unset.
				if !state.AtomicWrite16KSupported.ValueBool() {
					continue
				}
				on, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: version, DBInstanceClass: cl.class,
					Storage: 20, StorageType: "cloud_essd", Category: cl.category, PurchaseTime: bought, OptimizedWrites: true})
				if err != nil {
					t.Fatal(err)
				}
				state = stateOf(t, env, on)
				config, plan = updateInputs(state, func(c *instanceModel) { c.InstanceType = types.StringValue(cl.other) })
				res := runModifyPlan(t, env, &config, &plan, &state)
				if res.diags.HasError() {
					t.Errorf("%s: class change to %s refused at plan: %v", name, cl.other, res.diags)
					continue
				}
				specReq := &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceClass: cl.other, DBInstanceStorage: 20, PayType: rdsapi.PayTypePostpaid}
				if !res.plan.AtomicWrite16K.ValueBool() {
					specReq.OptimizedWrites = rdsapi.OptimizedWritesOff
				}
				want := res.plan.AtomicWrite16K.ValueBool()
				got, err := rdsservice.ApplySpecChange(ctx, env.api, env.data.Waiter, on, specReq, &want)
				compared++
				if err != nil {
					t.Errorf("%s: class change to %s as planned failed: %v", name, cl.other, err)
					disagreements++
					continue
				}
				if got.OptimizedWrites == nil || got.OptimizedWrites.Supported != res.plan.AtomicWrite16KSupported.ValueBool() ||
					got.InstructionSetArch != res.plan.InstructionSetArch.ValueString() {
					t.Errorf("%s -> %s: planned supported/arch %v/%v, simulator %+v/%s", name, cl.other,
						res.plan.AtomicWrite16KSupported, res.plan.InstructionSetArch, got.OptimizedWrites, got.InstructionSetArch)
					disagreements++
				}
			}
		}
	}
	// 20 turn-on checks (2 dates x 2 versions x 5 classes), plus a class change for each instance
	// eligible by rule 2: the 10 recent ones and the 4 YiTian ones bought before the cutoff.
	if disagreements != 0 || compared != 34 {
		t.Errorf("%d disagreements over %d comparisons, want 34", disagreements, compared)
	}
}
