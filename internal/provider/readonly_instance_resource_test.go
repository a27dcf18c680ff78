package provider

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// unknownValue marks an attribute as unknown in roVals.
type unknownValue struct{}

// roVals holds attribute values for building rds_readonly_instance configs, plans and states:
// string, int, bool, or unknownValue{}. Attributes not listed are null.
type roVals map[string]any

func roResource(t *testing.T, env *testEnv) (*readonlyInstanceResource, resource.SchemaResponse) {
	t.Helper()
	r := &readonlyInstanceResource{}
	var s resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &s)
	if s.Diagnostics.HasError() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	if env != nil {
		var c resource.ConfigureResponse
		r.Configure(context.Background(), resource.ConfigureRequest{ProviderData: env.data}, &c)
		if c.Diagnostics.HasError() {
			t.Fatalf("configure: %v", c.Diagnostics)
		}
	}
	return r, s
}

func roRaw(t *testing.T, s resource.SchemaResponse, vals roVals) tftypes.Value {
	t.Helper()
	typ := s.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		all[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range vals {
		at, ok := typ.AttributeTypes[name]
		if !ok {
			t.Fatalf("no attribute %s", name)
		}
		switch x := v.(type) {
		case unknownValue:
			all[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		case string:
			all[name] = tftypes.NewValue(tftypes.String, x)
		case bool:
			all[name] = tftypes.NewValue(tftypes.Bool, x)
		case int:
			all[name] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(x)))
		default:
			t.Fatalf("attribute %s: unsupported test value %T", name, v)
		}
	}
	return tftypes.NewValue(typ, all)
}

// roPlannedCreate is what the framework hands ModifyPlan for a create: the configuration, with
// schema defaults applied and every other computed attribute unknown.
func roPlannedCreate(s resource.SchemaResponse, cfg roVals) roVals {
	plan := roVals{"deletion_protection": false, "prevent_restart": false}
	for name, a := range s.Schema.Attributes {
		if a.IsComputed() && name != "deletion_protection" && name != "prevent_restart" {
			plan[name] = unknownValue{}
		}
	}
	for k, v := range cfg {
		plan[k] = v
	}
	return plan
}

func merge(base roVals, over roVals) roVals {
	out := roVals{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

type roPlanResult struct {
	diags diag.Diagnostics
	plan  tfsdk.Plan
}

func (res roPlanResult) attr(t *testing.T, name string) tftypes.Value {
	t.Helper()
	var out tftypes.Value
	obj := map[string]tftypes.Value{}
	if err := res.plan.Raw.As(&obj); err != nil {
		t.Fatal(err)
	}
	out, ok := obj[name]
	if !ok {
		t.Fatalf("plan has no %s", name)
	}
	return out
}

func (res roPlanResult) boolAttr(t *testing.T, name string) (value, isKnown bool) {
	t.Helper()
	v := res.attr(t, name)
	if !v.IsKnown() || v.IsNull() {
		return false, false
	}
	var b bool
	if err := v.As(&b); err != nil {
		t.Fatal(err)
	}
	return b, true
}

func (res roPlanResult) stringAttr(t *testing.T, name string) string {
	t.Helper()
	v := res.attr(t, name)
	if !v.IsKnown() || v.IsNull() {
		return "<unknown or null>"
	}
	var s string
	if err := v.As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func roModifyPlan(t *testing.T, r *readonlyInstanceResource, s resource.SchemaResponse, cfg, plan, state roVals) roPlanResult {
	t.Helper()
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: roRaw(t, s, cfg)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: roRaw(t, s, plan)},
		State:  tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)},
	}
	if state != nil {
		req.State.Raw = roRaw(t, s, state)
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(context.Background(), req, &resp)
	return roPlanResult{diags: resp.Diagnostics, plan: resp.Plan}
}

// findDiag returns the one diagnostic of the severity at the attribute, failing otherwise.
func findDiag(t *testing.T, diags diag.Diagnostics, sev diag.Severity, attr string) diag.Diagnostic {
	t.Helper()
	var found []diag.Diagnostic
	for _, d := range diags {
		if d.Severity() != sev {
			continue
		}
		withPath, ok := d.(diag.DiagnosticWithPath)
		if ok && withPath.Path().Equal(path.Root(attr)) {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want exactly one %v at %s, got %d in %v", sev, attr, len(found), diags)
	}
	return found[0]
}

func wantContains(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s does not contain %q:\n%s", what, p, text)
		}
	}
}

// roSeed plants a MySQL 8.0 HA primary (flag as given) and returns its id.
func roSeedPrimary(t *testing.T, env *testEnv, on bool) string {
	t.Helper()
	id, err := env.sim.AddInstance(simulator.SeedInstance{
		Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 100,
		StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: on,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func roSeedReadonly(t *testing.T, env *testEnv, primary string, on bool) string {
	t.Helper()
	id, err := env.sim.AddInstance(simulator.SeedInstance{
		Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c", Storage: 100,
		StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: on, MasterID: primary,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func roConfig(master string) roVals {
	return roVals{
		"master_instance_id": master,
		"instance_type":      "mysqlro.n2.medium.1c",
		"storage":            100,
		"instance_name":      "reporting",
	}
}

func TestReadonlyModifyPlanCreateInheritsPrimaryValue(t *testing.T) {
	for _, on := range []bool{true, false} {
		env := newTestEnv(t, testSimOptions())
		primary := roSeedPrimary(t, env, on)
		r, s := roResource(t, env)
		cfg := roConfig(primary)
		env.sim.ResetStats()
		res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
		if res.diags.HasError() || res.diags.WarningsCount() > 0 {
			t.Fatalf("primary on=%t: unexpected diagnostics %v", on, res.diags)
		}
		got, isKnown := res.boolAttr(t, "atomic_write_16k")
		if !isKnown || got != on {
			t.Errorf("primary on=%t: planned atomic_write_16k = %t (known %t), want the inherited %t", on, got, isKnown, on)
		}
		for name, want := range map[string]string{"engine_version": "8.0", "storage_type": "cloud_essd", "zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-simulator", "engine": "MySQL"} {
			if got := res.stringAttr(t, name); got != want {
				t.Errorf("planned %s = %q, want the primary's %q", name, got, want)
			}
		}
		if n := env.mutations(); n != 0 {
			t.Errorf("planning sent %d mutating requests", n)
		}
		if n := env.requests("DescribeDBInstanceAttribute"); n != 1 {
			t.Errorf("planning read the primary %d times, want 1", n)
		}
	}
}

func TestReadonlyModifyPlanCreateOffWhilePrimaryOnIsAnError(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	r, s := roResource(t, env)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": false})
	env.sim.ResetStats()
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	d := findDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	if d.Summary() != "16K atomic write cannot be off on a read-only instance whose primary has it on" {
		t.Errorf("summary = %q", d.Summary())
	}
	wantContains(t, "detail", d.Detail(), `the new read-only instance "reporting"`, "its primary "+primary,
		"Remove atomic_write_16k", "set it to true", "turn 16K atomic write off on the primary "+primary)
	if n := env.mutations(); n != 0 {
		t.Errorf("planning sent %d mutating requests", n)
	}
}

func TestReadonlyModifyPlanCreateOnWhilePrimaryOffWarnsOfRestart(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": true})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	if res.diags.HasError() {
		t.Fatalf("unexpected error: %v", res.diags)
	}
	w := findDiag(t, res.diags, diag.SeverityWarning, "atomic_write_16k")
	wantContains(t, "warning summary", w.Summary(), `the new read-only instance "reporting"`)
	wantContains(t, "warning detail", w.Detail(), "then turned on", "atomic_write_16k changes from false to true",
		primary, "expected downtime", "prevent_restart = true")
	if got, _ := res.boolAttr(t, "atomic_write_16k"); !got {
		t.Error("planned atomic_write_16k must stay true")
	}

	// The guard turns the warning into an error at plan time.
	cfg["prevent_restart"] = true
	res = roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := findDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	wantContains(t, "error summary", e.Summary(), "prevent_restart", `the new read-only instance "reporting"`)
	if n := env.mutations(); n != 0 {
		t.Errorf("planning sent %d mutating requests", n)
	}
}

func TestReadonlyModifyPlanCreateIneligibleOnIsAnError(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": true, "storage_type": "cloud_ssd"})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := findDiag(t, res.diags, diag.SeverityError, "storage_type")
	wantContains(t, "detail", e.Detail(), "cloud_ssd", "ESSD")
}

func TestReadonlyModifyPlanUnknownPrimaryDefersToApply(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	r, s := roResource(t, env)
	cfg := merge(roConfig(""), roVals{"master_instance_id": unknownValue{}})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	if res.diags.HasError() || res.diags.WarningsCount() != 0 {
		t.Fatalf("unexpected diagnostics: %v", res.diags)
	}
	if _, isKnown := res.boolAttr(t, "atomic_write_16k"); isKnown {
		t.Error("with the primary unknown, the inherited value must be unknown")
	}
	// false with an unknown primary: no plan error; Create repeats the check (next test).
	cfg["atomic_write_16k"] = false
	res = roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	if res.diags.HasError() {
		t.Fatalf("unexpected error: %v", res.diags)
	}
	if n := env.requests("DescribeDBInstanceAttribute"); n != 0 {
		t.Errorf("an unknown primary was read %d times", n)
	}
}

func TestReadonlyCreateOffWhilePrimaryOnFailsBeforeCreating(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	r, s := roResource(t, env)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": false})
	plan := merge(roPlannedCreate(s, cfg), roVals{"engine_version": "8.0"})
	env.sim.ResetStats()
	req := resource.CreateRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: roRaw(t, s, cfg)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: roRaw(t, s, plan)},
	}
	resp := resource.CreateResponse{State: tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)}}
	r.Create(context.Background(), req, &resp)
	d := findDiag(t, resp.Diagnostics, diag.SeverityError, "atomic_write_16k")
	if d.Summary() != "16K atomic write cannot be off on a read-only instance whose primary has it on" {
		t.Errorf("apply-time summary differs from the plan's: %q", d.Summary())
	}
	wantContains(t, "detail", d.Detail(), primary)
	if n := env.mutations(); n != 0 {
		t.Errorf("a refused create sent %d mutating requests", n)
	}
	if !resp.State.Raw.IsNull() {
		t.Error("nothing may be recorded in state")
	}
}

// roState is a refreshed state of an existing read-only instance.
func roState(id, primary string, on bool) roVals {
	return roVals{
		"id": id, "master_instance_id": primary, "engine_version": "8.0", "instance_type": "mysqlro.n2.medium.1c",
		"storage": 100, "storage_type": "cloud_essd", "zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-simulator",
		"instance_name": "reporting", "deletion_protection": false, "atomic_write_16k": on, "atomic_write_16k_supported": true,
		"prevent_restart": false, "status": "Running", "connection_string": id + ".mysql.rds.aliyuncs.com", "port": 3306,
		"engine": "MySQL", "category": "HighAvailability", "instruction_set_arch": "x86", "creation_time": "2025-08-01T00:00:00Z",
	}
}

func TestReadonlyModifyPlanUpdateOffWhilePrimaryOnIsAnError(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	ro := roSeedReadonly(t, env, primary, true)
	r, s := roResource(t, env)
	state := roState(ro, primary, true)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": false})
	plan := merge(state, roVals{"atomic_write_16k": false, "status": unknownValue{}})
	env.sim.ResetStats()
	res := roModifyPlan(t, r, s, cfg, plan, state)
	d := findDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	wantContains(t, "detail", d.Detail(), "read-only instance "+ro, "its primary "+primary)
	if n := env.mutations(); n != 0 {
		t.Errorf("planning sent %d mutating requests", n)
	}
}

func TestReadonlyModifyPlanUpdateUnsetFlagKeepsRefreshedValue(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	ro := roSeedReadonly(t, env, primary, true)
	r, s := roResource(t, env)
	state := roState(ro, primary, true)
	cfg := merge(roConfig(primary), roVals{"instance_name": "renamed"})
	// The framework marks an unset Optional+Computed attribute unknown when anything changes.
	plan := merge(state, roVals{"instance_name": "renamed", "atomic_write_16k": unknownValue{}, "status": unknownValue{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	if res.diags.HasError() || res.diags.WarningsCount() != 0 {
		t.Fatalf("a rename must plan silently: %v", res.diags)
	}
	if got, isKnown := res.boolAttr(t, "atomic_write_16k"); !isKnown || !got {
		t.Errorf("planned atomic_write_16k = %t (known %t), want the refreshed true", got, isKnown)
	}
}

func TestReadonlyModifyPlanUpdateClassChangeWarnsAndGuards(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	ro := roSeedReadonly(t, env, primary, false)
	r, s := roResource(t, env)
	state := roState(ro, primary, false)
	cfg := merge(roConfig(primary), roVals{"instance_type": "mysqlro.n2.large.1c", "storage": 120})
	plan := merge(state, roVals{"instance_type": "mysqlro.n2.large.1c", "storage": 120, "status": unknownValue{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	w := findDiag(t, res.diags, diag.SeverityWarning, "instance_type")
	if w.Summary() != "This apply restarts RDS instance "+ro {
		t.Errorf("summary = %q", w.Summary())
	}
	wantContains(t, "detail", w.Detail(), `instance_type changes from "mysqlro.n2.medium.1c" to "mysqlro.n2.large.1c"`,
		"storage changes from 100 to 120 GB", "expected downtime")
	if strings.Count(w.Detail(), "  - ") != 1 {
		t.Errorf("one instance, one restart expected in:\n%s", w.Detail())
	}
	if v := res.attr(t, "atomic_write_16k_supported"); v.IsKnown() {
		t.Error("a class change leaves atomic_write_16k_supported to the cloud (unknown)")
	}

	cfg["prevent_restart"] = true
	plan["prevent_restart"] = true
	res = roModifyPlan(t, r, s, cfg, plan, state)
	e := findDiag(t, res.diags, diag.SeverityError, "instance_type")
	wantContains(t, "error", e.Summary()+e.Detail(), "prevent_restart", ro)
}

func TestReadonlyModifyPlanUpdateToggleOnWarnsNamingInstance(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	ro := roSeedReadonly(t, env, primary, false)
	r, s := roResource(t, env)
	state := roState(ro, primary, false)
	cfg := merge(roConfig(primary), roVals{"atomic_write_16k": true})
	plan := merge(state, roVals{"atomic_write_16k": true, "status": unknownValue{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	w := findDiag(t, res.diags, diag.SeverityWarning, "atomic_write_16k")
	wantContains(t, "warning", w.Summary()+w.Detail(), ro, "atomic_write_16k changes from false to true")
}

func TestReadonlyModifyPlanPrimaryNotFound(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	r, s := roResource(t, env)
	cfg := roConfig("rm-doesnotexist")
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := findDiag(t, res.diags, diag.SeverityError, "master_instance_id")
	wantContains(t, "detail", e.Detail(), "rm-doesnotexist")
}

func TestReadonlyModifyPlanDestroyAndUnconfigured(t *testing.T) {
	r, s := roResource(t, nil)
	cfg := roConfig("rm-x")
	// Not configured (provider settings unknown): nothing to check yet, no panic.
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	if res.diags.HasError() {
		t.Fatalf("unexpected diagnostics: %v", res.diags)
	}
	// Destroy: a null plan is left alone.
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)},
		State:  tfsdk.State{Schema: s.Schema, Raw: roRaw(t, s, roState("rr-x", "rm-x", true))},
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(context.Background(), req, &resp)
	if resp.Diagnostics.HasError() || !resp.Plan.Raw.IsNull() {
		t.Fatalf("destroy plan changed: %v", resp.Diagnostics)
	}
}
