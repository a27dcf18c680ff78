package provider

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// roUnknown marks an attribute as unknown in roVals.
type roUnknown struct{}

// roVals holds attribute values for building rds_readonly_instance configs, plans and states:
// string, int, bool, or roUnknown{}. Attributes not listed are null.
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
		case roUnknown:
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
			plan[name] = roUnknown{}
		}
	}
	for k, v := range cfg {
		plan[k] = v
	}
	return plan
}

func roMerge(base roVals, over roVals) roVals {
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
func roFindDiag(t *testing.T, diags diag.Diagnostics, sev diag.Severity, attr string) diag.Diagnostic {
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

func roWantContains(t *testing.T, what, text string, parts ...string) {
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
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": false})
	env.sim.ResetStats()
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	d := roFindDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	if d.Summary() != "16K atomic write cannot be off on a read-only instance whose primary has it on" {
		t.Errorf("summary = %q", d.Summary())
	}
	roWantContains(t, "detail", d.Detail(), `the new read-only instance "reporting"`, "its primary "+primary,
		"Remove atomic_write_16k", "set it to true", "turn 16K atomic write off on the primary "+primary)
	if n := env.mutations(); n != 0 {
		t.Errorf("planning sent %d mutating requests", n)
	}
}

func TestReadonlyModifyPlanCreateOnWhilePrimaryOffWarnsOfRestart(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": true})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	if res.diags.HasError() {
		t.Fatalf("unexpected error: %v", res.diags)
	}
	w := roFindDiag(t, res.diags, diag.SeverityWarning, "atomic_write_16k")
	roWantContains(t, "warning summary", w.Summary(), `the new read-only instance "reporting"`)
	roWantContains(t, "warning detail", w.Detail(), "then turned on", "atomic_write_16k changes from false to true",
		primary, "expected downtime", "prevent_restart = true")
	if got, _ := res.boolAttr(t, "atomic_write_16k"); !got {
		t.Error("planned atomic_write_16k must stay true")
	}

	// The guard turns the warning into an error at plan time.
	cfg["prevent_restart"] = true
	res = roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	roWantContains(t, "error summary", e.Summary(), "prevent_restart", `the new read-only instance "reporting"`)
	if n := env.mutations(); n != 0 {
		t.Errorf("planning sent %d mutating requests", n)
	}
}

func TestReadonlyModifyPlanCreateIneligibleOnIsAnError(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": true, "storage_type": "cloud_ssd"})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "storage_type")
	roWantContains(t, "detail", e.Detail(), "cloud_ssd", "ESSD")
}

func TestReadonlyModifyPlanCreateEngineVersionMustMatchPrimary(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := roMerge(roConfig(primary), roVals{"engine_version": "5.7"})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "engine_version")
	roWantContains(t, "detail", e.Detail(), primary, `"8.0"`, `"5.7"`)
}

func TestReadonlyModifyPlanUnknownPrimaryDefersToApply(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	r, s := roResource(t, env)
	cfg := roMerge(roConfig(""), roVals{"master_instance_id": roUnknown{}})
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
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": false})
	plan := roMerge(roPlannedCreate(s, cfg), roVals{"engine_version": "8.0"})
	env.sim.ResetStats()
	req := resource.CreateRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: roRaw(t, s, cfg)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: roRaw(t, s, plan)},
	}
	resp := resource.CreateResponse{State: tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)}}
	r.Create(context.Background(), req, &resp)
	d := roFindDiag(t, resp.Diagnostics, diag.SeverityError, "atomic_write_16k")
	if d.Summary() != "16K atomic write cannot be off on a read-only instance whose primary has it on" {
		t.Errorf("apply-time summary differs from the plan's: %q", d.Summary())
	}
	roWantContains(t, "detail", d.Detail(), primary)
	if n := env.mutations(); n != 0 {
		t.Errorf("a refused create sent %d mutating requests", n)
	}
	if !resp.State.Raw.IsNull() {
		t.Error("nothing may be recorded in state")
	}
}

// A plan that showed an inherited false, applied after the primary was turned on (e.g. earlier in
// the same apply), fails before creating instead of producing an inconsistent result.
func TestReadonlyCreateInheritedValueChangedSincePlan(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	r, s := roResource(t, env)
	cfg := roConfig(primary)
	plan := roMerge(roPlannedCreate(s, cfg), roVals{"atomic_write_16k": false, "engine_version": "8.0", "storage_type": "cloud_essd"})
	env.sim.ResetStats()
	resp := resource.CreateResponse{State: roNullState(s)}
	r.Create(context.Background(), resource.CreateRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: roRaw(t, s, cfg)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: roRaw(t, s, plan)},
	}, &resp)
	e := roFindDiag(t, resp.Diagnostics, diag.SeverityError, "atomic_write_16k")
	if e.Summary() != rdsservice.Rules[rdsservice.Rule16KPrimaryChanged].Summary {
		t.Errorf("summary = %q", e.Summary())
	}
	roWantContains(t, "detail", e.Detail(), primary, "Nothing was created", "apply again")
	if n := env.mutations(); n != 0 {
		t.Errorf("%d mutating requests", n)
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
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": false})
	plan := roMerge(state, roVals{"atomic_write_16k": false, "status": roUnknown{}})
	env.sim.ResetStats()
	res := roModifyPlan(t, r, s, cfg, plan, state)
	d := roFindDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	roWantContains(t, "detail", d.Detail(), "possible for "+ro, "its primary "+primary)
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
	cfg := roMerge(roConfig(primary), roVals{"instance_name": "renamed"})
	// The framework marks an unset Optional+Computed attribute unknown when anything changes.
	plan := roMerge(state, roVals{"instance_name": "renamed", "atomic_write_16k": roUnknown{}, "status": roUnknown{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	if res.diags.HasError() || res.diags.WarningsCount() != 0 {
		t.Fatalf("a rename must plan silently: %v", res.diags)
	}
	if got, isKnown := res.boolAttr(t, "atomic_write_16k"); !isKnown || !got {
		t.Errorf("planned atomic_write_16k = %t (known %t), want the refreshed true", got, isKnown)
	}
}

// A plan with no change reads nothing: a refresh of N read-only instances costs N API calls.
func TestReadonlyModifyPlanNoChangeMakesNoCall(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, true)
	ro := roSeedReadonly(t, env, primary, true)
	r, s := roResource(t, env)
	state := roState(ro, primary, true)
	env.sim.ResetStats()
	res := roModifyPlan(t, r, s, roConfig(primary), state, state)
	if len(res.diags) != 0 {
		t.Fatalf("a plan without changes must be silent: %v", res.diags)
	}
	if requests := env.sim.Stats().Requests; len(requests) != 0 {
		t.Errorf("planning no change sent %v", requests)
	}
}

func TestReadonlyModifyPlanUpdateClassChangeWarnsAndGuards(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	ro := roSeedReadonly(t, env, primary, false)
	r, s := roResource(t, env)
	state := roState(ro, primary, false)
	cfg := roMerge(roConfig(primary), roVals{"instance_type": "mysqlro.n2.large.1c", "storage": 120})
	plan := roMerge(state, roVals{"instance_type": "mysqlro.n2.large.1c", "storage": 120, "status": roUnknown{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	w := roFindDiag(t, res.diags, diag.SeverityWarning, "instance_type")
	if w.Summary() != "This apply restarts RDS instance "+ro {
		t.Errorf("summary = %q", w.Summary())
	}
	roWantContains(t, "detail", w.Detail(), `instance_type changes from "mysqlro.n2.medium.1c" to "mysqlro.n2.large.1c"`, "expected downtime")
	if strings.Count(w.Detail(), "  - ") != 1 || strings.Contains(w.Detail(), "storage changes") {
		t.Errorf("one instance, one restart, and cloud-disk growth online expected in:\n%s", w.Detail())
	}
	if supported, known := res.boolAttr(t, "atomic_write_16k_supported"); !known || !supported {
		t.Error("an x86 class change of an instance bought after the cutoff keeps atomic_write_16k_supported = true, and the plan says so")
	}

	cfg["prevent_restart"] = true
	plan["prevent_restart"] = true
	res = roModifyPlan(t, r, s, cfg, plan, state)
	e := roFindDiag(t, res.diags, diag.SeverityError, "instance_type")
	roWantContains(t, "error", e.Summary()+e.Detail(), "prevent_restart", ro)
}

func TestReadonlyModifyPlanUpdateToggleOnWarnsNamingInstance(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	ro := roSeedReadonly(t, env, primary, false)
	r, s := roResource(t, env)
	state := roState(ro, primary, false)
	cfg := roMerge(roConfig(primary), roVals{"atomic_write_16k": true})
	plan := roMerge(state, roVals{"atomic_write_16k": true, "status": roUnknown{}})
	res := roModifyPlan(t, r, s, cfg, plan, state)
	w := roFindDiag(t, res.diags, diag.SeverityWarning, "atomic_write_16k")
	roWantContains(t, "warning", w.Summary()+w.Detail(), ro, "atomic_write_16k changes from false to true")
}

func TestReadonlyModifyPlanPrimaryNotFound(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	r, s := roResource(t, env)
	cfg := roConfig("rm-doesnotexist")
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "master_instance_id")
	roWantContains(t, "detail", e.Detail(), "rm-doesnotexist")
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
	// Destroying a protected instance fails at plan time, naming the attribute and the way out.
	req.State.Raw = roRaw(t, s, roMerge(roState("rr-x", "rm-x", true), roVals{"deletion_protection": true}))
	resp = resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(context.Background(), req, &resp)
	d := roFindDiag(t, resp.Diagnostics, diag.SeverityError, "deletion_protection")
	roWantContains(t, "detail", d.Detail(), "rr-x", "Set deletion_protection = false")
}

func roNullState(s resource.SchemaResponse) tfsdk.State {
	return tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(context.Background()), nil)}
}

// CreateReadOnlyDBInstance while the primary restarts answers OperationDenied.MasterDBInstanceState;
// Create retries within its deadline and records the instance.
func TestReadonlyCreateRetriesWhilePrimaryBusy(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	ctx := context.Background()
	if _, err := env.api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{
		DBInstanceID: primary, DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 100, OptimizedWrites: rdsapi.OptimizedWritesOn,
	}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	cfg := roConfig(primary)
	plan := roPlannedCreate(s, cfg)
	req := resource.CreateRequest{
		Config: tfsdk.Config{Schema: s.Schema, Raw: roRaw(t, s, cfg)},
		Plan:   tfsdk.Plan{Schema: s.Schema, Raw: roRaw(t, s, plan)},
	}
	resp := resource.CreateResponse{State: roNullState(s)}
	r.Create(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("create: %v", resp.Diagnostics)
	}
	if n := env.requests("CreateReadOnlyDBInstance"); n < 2 {
		t.Errorf("the busy primary should have refused the first CreateReadOnlyDBInstance (sent %d times)", n)
	}
	var got readonlyInstanceModel
	resp.Diagnostics.Append(resp.State.Get(ctx, &got)...)
	if got.ID.ValueString() == "" || got.Status.ValueString() != "Running" || got.MasterInstanceID.ValueString() != primary {
		t.Errorf("state after create = %+v", got)
	}
	if !got.AtomicWrite16K.ValueBool() {
		t.Error("created after the primary turned on, the read-only instance inherits true")
	}
	if got.VSwitchID.ValueString() != "vsw-simulator" || got.ZoneID.ValueString() != "cn-hangzhou-i" {
		t.Errorf("network not inherited from the primary: zone %s vswitch %s", got.ZoneID, got.VSwitchID)
	}
}

func TestReadonlyReadRemovesMissingAndDeleteTreatsNotFoundAsDone(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	r, s := roResource(t, env)
	ctx := context.Background()
	state := tfsdk.State{Schema: s.Schema, Raw: roRaw(t, s, roState("rr-gone", "rm-gone", false))}
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || !resp.State.Raw.IsNull() {
		t.Fatalf("a missing instance must be removed with a warning: %v, state null %t", resp.Diagnostics, resp.State.Raw.IsNull())
	}
	roWantContains(t, "warning", resp.Diagnostics.Warnings()[0].Detail(), "rr-gone")

	var del resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: state}, &del)
	if del.Diagnostics.HasError() {
		t.Fatalf("deleting a missing instance must succeed: %v", del.Diagnostics)
	}

	// Importing a primary as a read-only instance is refused.
	primary := roSeedPrimary(t, env, false)
	st := tfsdk.State{Schema: s.Schema, Raw: roRaw(t, s, roVals{"id": primary})}
	resp = resource.ReadResponse{State: st}
	r.Read(ctx, resource.ReadRequest{State: st}, &resp)
	if !resp.Diagnostics.HasError() {
		t.Fatal("a primary is not a read-only instance")
	}
	roWantContains(t, "error", resp.Diagnostics.Errors()[0].Detail(), primary, "rds_instance")
}

// ---- acceptance tests (TF_ACC=1; Terraform runs the provider in-process against a simulator) ----
// Steps that need no terraform process run at the plugin protocol instead, in
// readonly_protocol_test.go and readonly_more_protocol_test.go (TestReadonlyInstanceOffRejectedAtPlan).

const roAccPrimaryOff = `
resource "rds_instance" "primary" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 100
  instance_name    = "orders"
  atomic_write_16k = %t
}
`

func roAccPrimary(on bool) string { return fmt.Sprintf(roAccPrimaryOff, on) }

// roAccReplicas declares count read-only instances of the primary, atomic_write_16k left unset
// unless flag is "true" or "false".
func roAccReplicas(count int, flag string) string {
	line := ""
	if flag != "" {
		line = "  atomic_write_16k   = " + flag + "\n"
	}
	return roAccReplicasWith(count, line)
}

// roAccReplicasWith declares count read-only instances of the primary with extra attribute lines.
func roAccReplicasWith(count int, extra string) string {
	return fmt.Sprintf(`
resource "rds_readonly_instance" "ro" {
  count              = %d
  master_instance_id = rds_instance.primary.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
  instance_name      = "reporting-${count.index}"
%s}
`, count, extra)
}

// roAccCheckDestroy proves that destroy removed every instance the test created.
func roAccCheckDestroy(env *testEnv) func(*terraform.State) error {
	return func(*terraform.State) error {
		items, err := rdsservice.ListAllDBInstances(context.Background(), env.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
		if err != nil {
			return err
		}
		if len(items) != 0 {
			return fmt.Errorf("%d instances left after destroy, first %s", len(items), items[0].DBInstanceID)
		}
		return nil
	}
}

// roAccSettled checks, without waiting, that every instance is Running with the wanted flag: the
// primary's apply waits for the read-only instances the cloud turns on with it.
func roAccSettled(env *testEnv, want bool) acc.TestCheckFunc {
	return func(*terraform.State) error {
		items, err := rdsservice.ListAllDBInstances(context.Background(), env.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
		if err != nil {
			return err
		}
		for _, it := range items {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), it.DBInstanceID)
			if err != nil {
				return err
			}
			if a.DBInstanceStatus != rdsapi.StatusRunning || a.OptimizedWrites == nil || a.OptimizedWrites.Enabled != want {
				return fmt.Errorf("%s is %s with %s right after the apply, want Running with atomic_write_16k = %t",
					a.DBInstanceID, a.DBInstanceStatus, a.OptimizedWritesInfo, want)
			}
		}
		return nil
	}
}

func roAccCheck(fn func() error) acc.TestCheckFunc {
	return func(*terraform.State) error { return fn() }
}

func roAccWantRestarts(env *testEnv, want int, addrs ...string) acc.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range addrs {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s not in state", addr)
			}
			if got := env.restarts(rs.Primary.ID); got != want {
				return fmt.Errorf("%s (%s) restarted %d times, want %d", addr, rs.Primary.ID, got, want)
			}
		}
		return nil
	}
}

var roAccOffError = regexp.MustCompile(`16K atomic write cannot be off on a read-only instance whose\s+primary has it on`)

// Primary + 2 read-only instances inherit; turning the primary on restarts each read-only instance
// exactly once (the cloud's cascade) and leaves no diff; the data sources return what was created.
func TestAccReadonlyInstanceInheritAndCascade(t *testing.T) {
	t.Parallel()
	// Restarts long enough that the followers' restart outlasts Terraform's own bookkeeping after
	// the apply: roAccSettled then proves the primary's apply waited for them.
	opts := testSimOptions()
	opts.RestartDuration = 1500 * time.Millisecond
	env := newTestEnv(t, opts)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []acc.TestStep{
			{
				Config: env.providerBlock() + roAccPrimary(false) + roAccReplicas(2, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[1]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("engine_version"), knownvalue.StringExact("8.0")),
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("status"), knownvalue.StringExact("Running")),
					statecheck.CompareValuePairs("rds_readonly_instance.ro[0]", tfjsonpath.New("master_instance_id"),
						"rds_instance.primary", tfjsonpath.New("id"), compare.ValuesSame()),
				},
			},
			{
				Config: env.providerBlock() + roAccPrimary(true) + roAccReplicas(2, ""),
				// Each read-only instance shows the change its primary brings (issue 11, 2.4); the apply
				// sends nothing for them and waits for the cloud's cascade.
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rds_readonly_instance.ro[0]", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("rds_readonly_instance.ro[1]", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue("rds_readonly_instance.ro[1]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
				}},
				Check: acc.ComposeTestCheckFunc(
					roAccSettled(env, true),
					roAccWantRestarts(env, 1, "rds_instance.primary", "rds_readonly_instance.ro.0", "rds_readonly_instance.ro.1"),
				),
			},
			{
				Config: env.providerBlock() + roAccPrimary(true) + roAccReplicas(2, "") + `
data "rds_instance" "ro0" {
  id = rds_readonly_instance.ro[0].id
}

data "rds_instance" "primary" {
  id = rds_instance.primary.id
}

data "rds_instances" "reporting" {
  name_regex = "^reporting-"
  engine     = "MySQL"
  depends_on = [rds_readonly_instance.ro]
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[0]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[1]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.rds_instance.ro0", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.rds_instance.ro0", tfjsonpath.New("db_instance_type"), knownvalue.StringExact("Readonly")),
					statecheck.ExpectKnownValue("data.rds_instance.ro0", tfjsonpath.New("instance_name"), knownvalue.StringExact("reporting-0")),
					statecheck.CompareValuePairs("data.rds_instance.ro0", tfjsonpath.New("master_instance_id"),
						"rds_instance.primary", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.rds_instance.primary", tfjsonpath.New("read_only_instance_ids"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue("data.rds_instance.primary", tfjsonpath.New("atomic_write_16k_supported"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.rds_instance.primary", tfjsonpath.New("instance_type"), knownvalue.StringExact("mysql.n2.medium.2c")),
					statecheck.ExpectKnownValue("data.rds_instances.reporting", tfjsonpath.New("ids"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue("data.rds_instances.reporting", tfjsonpath.New("instances").AtSliceIndex(0).AtMapKey("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.rds_instances.reporting", tfjsonpath.New("instances").AtSliceIndex(1).AtMapKey("atomic_write_16k_supported"), knownvalue.Bool(true)),
					statecheck.CompareValuePairs("data.rds_instances.reporting", tfjsonpath.New("instances").AtSliceIndex(0).AtMapKey("master_instance_id"),
						"rds_instance.primary", tfjsonpath.New("id"), compare.ValuesSame()),
				},
				// Nothing restarts again.
				Check: roAccWantRestarts(env, 1, "rds_instance.primary", "rds_readonly_instance.ro.0", "rds_readonly_instance.ro.1"),
			},
		},
	})
}

// count = 3 read-only instances of one primary in one apply, then import of one of them.
func TestAccReadonlyInstanceCountAndImport(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []acc.TestStep{
			{
				Config: env.providerBlock() + roAccPrimary(true) + roAccReplicas(3, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rds_readonly_instance.ro[2]", tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
					statecheck.CompareValueCollection("rds_instance.primary", []tfjsonpath.Path{tfjsonpath.New("read_only_instance_ids")},
						"rds_readonly_instance.ro[1]", tfjsonpath.New("id"), compare.ValuesSame()),
				},
				// Three creates at once meet the primary's lock (LockTimeout): more than three
				// requests show the provider retried through it, and the simulator holds exactly 3.
				Check: roAccCheck(func() error {
					if n := env.requests("CreateReadOnlyDBInstance"); n <= 3 {
						return fmt.Errorf("CreateReadOnlyDBInstance sent %d times; three concurrent creates should have been retried through LockTimeout", n)
					}
					return nil
				}),
			},
			{
				ResourceName: "rds_readonly_instance.ro[0]",
				// The flatmap state names indexed resources ro.0.
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					rs, ok := s.RootModule().Resources["rds_readonly_instance.ro.0"]
					if !ok {
						return "", fmt.Errorf("rds_readonly_instance.ro.0 not in state")
					}
					return rs.Primary.ID, nil
				},
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

// The read-only resource checks its class against the catalogue, as rds_instance does (one check
// for both, in the planner).
func TestReadonlyModifyPlanCreateClassCheck(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	r, s := roResource(t, env)
	cfg := roMerge(roConfig(primary), roVals{"instance_type": "mysqlro.n2.medium.3c"})
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "instance_type")
	roWantContains(t, "error", e.Summary()+e.Detail(), "Instance type not offered", "mysqlro.n2.medium.3c", "mysqlro.n2.medium.1c")
	cfg = roConfig(primary)
	if res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil); res.diags.HasError() {
		t.Fatalf("an offered read-only class is refused: %v", res.diags)
	}
}

// Terraform releases a read-only instance before it updates the primary it depends on: removed in
// the run that turns its primary's 16K atomic write on, it is gone before the toggle and never
// restarts with it (the order TestReadonlyReleasedBeforePrimaryToggle's plans rely on).
func TestAccReadonlyReleasedBeforePrimaryToggle(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var roID string
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []acc.TestStep{
			{
				Config: env.providerBlock() + roAccPrimary(false) + roAccReplicas(1, ""),
				Check: func(s *terraform.State) error {
					roID = s.RootModule().Resources["rds_readonly_instance.ro.0"].Primary.ID
					return nil
				},
			},
			{
				Config: env.providerBlock() + roAccPrimary(true),
				Check: acc.ComposeTestCheckFunc(roAccWantRestarts(env, 1, "rds_instance.primary"),
					func(*terraform.State) error {
						if n := env.restarts(roID); n != 0 {
							return fmt.Errorf("the released read-only instance %s restarted %d times, want 0", roID, n)
						}
						return nil
					}),
			},
		},
	})
}
