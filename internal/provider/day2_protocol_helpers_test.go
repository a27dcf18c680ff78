package provider

import (
	"context"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Helpers of the day-2, backup and unusual-states tests played at the plugin protocol.

// applyFailsWith is a terraform step with ExpectError whose plan succeeds and whose apply fails:
// the plan must succeed, the apply must fail with an error matching want. It returns the plan (its
// warnings are the step's promises) and the apply's error; the state keeps what the apply wrote.
func (w *oracleWorld) applyFailsWith(t *testing.T, name string, order []oracleResource, want *regexp.Regexp) (*oraclePlan, string) {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if plan.errAt != "" {
		t.Fatalf("%s: the plan failed at %s: %s, want it to succeed and the apply to fail", name, plan.errAt, plan.errMsg)
	}
	res, err := w.applyWalk(order, plan)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.errAt == "" {
		t.Fatalf("%s: the apply succeeded, want an error matching %s", name, want)
	}
	expectErrorText(t, name, res.errMsg, want)
	return plan, res.errMsg
}

// expectWarning checks that addr's plan warns with text matching want.
func expectWarning(t *testing.T, name string, plan *oraclePlan, addr string, want *regexp.Regexp) {
	t.Helper()
	p := plan.res[addr]
	if p == nil {
		t.Errorf("%s: no plan for %s", name, addr)
		return
	}
	if text := warningText(p.diags); !want.MatchString(text) {
		t.Errorf("%s: %s warns %q, want a warning matching %s", name, addr, text, want)
	}
}

// refusingWorld is envWorld whose cloud refuses actions with Forbidden.RAM (newRefusingEnv) until
// the refuser allows them.
func refusingWorld(t *testing.T, opts simulator.Options, actions ...string) (*testEnv, *refuser, *oracleWorld) {
	clock := &oracleClock{now: time.Now().UTC()}
	opts.Now = clock.Now
	env, cloud := newRefusingEnv(t, opts, actions...)
	h := newOracleHarness(t)
	h.url, h.maxRetries = env.srv.URL, defaultMaxRetries
	return env, cloud, &oracleWorld{h: h, sim: env.sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}}
}

// planNoRefresh is `terraform plan -refresh=false` (the plan terraform-plugin-testing makes after
// each apply): every resource of order planned from the state as it is.
func (w *oracleWorld) planNoRefresh(t *testing.T, order []oracleResource) *oraclePlan {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	plan := &oraclePlan{res: map[string]*oraclePlanned{}}
	resolve := func(ref oracleRef) tftypes.Value { return attrOf(plan.res[ref.addr].planned, ref.attr) }
	for _, r := range order {
		p := w.planOne(server, r, w.config(r, resolve))
		plan.res[r.addr] = p
		if diagsHaveError(p.diags) {
			t.Fatalf("plan -refresh=false: %s: %s", r.addr, firstError(p.diags))
		}
	}
	return plan
}

// applyRecorded is a plan and applyWalk for a configuration that only creates or updates, keeping
// what applyWalk drops: each ApplyResourceChange's diagnostics (the apply's warnings). A created
// resource is tainted in Terraform exactly when its apply returned an error, so an apply that
// returns a state and warnings only leaves it untainted. Core's consistency checks apply.
func (w *oracleWorld) applyRecorded(t *testing.T, name string, order []oracleResource) map[string][]*tfprotov6.Diagnostic {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("%s: plan: %v %s %s", name, err, plan.errAt, plan.errMsg)
	}
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*tfprotov6.Diagnostic{}
	resolve := func(ref oracleRef) tftypes.Value { return attrOf(w.state[ref.addr], ref.attr) }
	for _, r := range order {
		p := plan.res[r.addr]
		if p.action == actNoop {
			continue
		}
		if p.action != actCreate && p.action != actUpdate {
			t.Fatalf("%s: %s planned %s; applyRecorded only creates and updates", name, r.addr, p.action)
		}
		typ, config := w.h.objType(r.typeName()), w.config(r, resolve)
		final := w.planOne(server, r, config)
		if diagsHaveError(final.diags) {
			t.Fatalf("%s: final plan of %s: %s", name, r.addr, firstError(final.diags))
		}
		if d := valueDiff(p.planned, final.planned, true); len(d) > 0 {
			t.Errorf("%s: %s: the final plan differs from the plan: %v", name, r.addr, d)
		}
		resp, err := server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{TypeName: r.typeName(),
			PriorState: dynamic(typ, final.prior), PlannedState: dynamic(typ, final.planned), Config: dynamic(typ, config), PlannedPrivate: final.private})
		if err != nil {
			t.Fatalf("%s: apply %s: %v", name, r.addr, err)
		}
		out[r.addr] = resp.Diagnostics
		v, err := resp.NewState.Unmarshal(typ)
		if err != nil || v.IsNull() {
			t.Fatalf("%s: %s has no state after its apply (%v): %s", name, r.addr, err, diagText(resp.Diagnostics))
		}
		w.state[r.addr], w.priv[r.addr] = v, resp.Private
		w.remember(r.addr)
		if diagsHaveError(resp.Diagnostics) {
			t.Fatalf("%s: the apply of %s failed (Terraform would taint it): %s", name, r.addr, firstError(resp.Diagnostics))
		}
		if d := valueDiff(final.planned, v, true); len(d) > 0 {
			t.Errorf("%s: %s: the state after apply differs from the planned values: %v", name, r.addr, d)
		}
	}
	return out
}

// expectWarningWithAll checks that one warning among ds matches every pattern.
func expectWarningWithAll(t *testing.T, name string, ds []*tfprotov6.Diagnostic, patterns ...string) {
	t.Helper()
	for _, d := range ds {
		text := d.Summary + ": " + d.Detail
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && !slices.ContainsFunc(patterns, func(p string) bool {
			return !regexp.MustCompile(p).MatchString(text)
		}) {
			return
		}
	}
	t.Errorf("%s: no warning matches all of %q; got %q", name, patterns, warningText(ds))
}

// expectChangeOf is the terraform test's expectChange: addr is updated in place, attr from before
// to after (nil: null).
func expectChangeOf(t *testing.T, name string, plan *oraclePlan, addr, attr string, before, after any) {
	t.Helper()
	expectAction(t, name, plan, addr, actUpdate)
	p := plan.res[addr]
	if p == nil {
		return
	}
	was, now := attrOf(p.prior, attr), attrOf(p.planned, attr)
	if !sameValue(toValue(was.Type(), before, nil), was) || !sameValue(toValue(now.Type(), after, nil), now) {
		t.Errorf("%s: %s.%s: %s -> %s, want %v -> %v", name, addr, attr, shortValue(was), shortValue(now), before, after)
	}
}

// readData is a data block's read as Terraform makes it at plan: ValidateDataResourceConfig, then
// ReadDataSource of typeName with attrs (values as oracleResource attrs hold them; references
// resolve from the state). It returns the data source's state.
func (w *oracleWorld) readData(t *testing.T, typeName string, attrs map[string]any) tftypes.Value {
	t.Helper()
	ctx := context.Background()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || schemas.DataSourceSchemas[typeName] == nil {
		t.Fatalf("data source %s: no schema (%v)", typeName, err)
	}
	typ := schemas.DataSourceSchemas[typeName].ValueType().(tftypes.Object)
	config := dynamic(typ, toValue(typ, attrs, func(ref oracleRef) tftypes.Value { return attrOf(w.state[ref.addr], ref.attr) }))
	val, err := server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: config})
	if err != nil || diagsHaveError(val.Diagnostics) {
		t.Fatalf("data source %s: validate: %v %s", typeName, err, firstError(val.Diagnostics))
	}
	resp, err := server.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: config})
	if err != nil || diagsHaveError(resp.Diagnostics) {
		t.Fatalf("data source %s: read: %v %s", typeName, err, firstError(resp.Diagnostics))
	}
	v, err := resp.State.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// listOf is v's elements (a list, set or tuple; none when null).
func listOf(t *testing.T, v tftypes.Value) []tftypes.Value {
	t.Helper()
	var elems []tftypes.Value
	if v.IsNull() {
		return nil
	}
	if err := v.As(&elems); err != nil {
		t.Fatalf("%v: %v", v, err)
	}
	return elems
}
