package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Concurrent changes at the plugin protocol: the cases of concurrency_test.go whose second run acts
// through the same hooked server, played by the oracle's harness (the provider in-process, its
// waiter on the simulator's fake clock) instead of terraform. The steps and checks are the CLI
// tests' own: import, apply with the other run hooked in, the state and the cloud afterwards, and
// the next plan (drift, an error, or nothing). concurrency_test.go keeps the family's terraform
// tests.

const concAddr = "rds_instance.test"

// concurrentWorld is an otherRun whose simulator runs on an oracle clock, and a world whose
// provider talks to the hooked server.
func concurrentWorld(t *testing.T, opts simulator.Options) (*otherRun, *oracleWorld) {
	clock := &oracleClock{now: time.Now().UTC()}
	opts.Now = clock.Now
	o := newOtherRun(t, opts)
	h := newOracleHarness(t)
	h.url, h.maxRetries = o.srv.URL, defaultMaxRetries
	return o, &oracleWorld{h: h, sim: o.env.sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}}
}

// concurrentInstance is an rds_instance of class: MySQL 8.0, 100 GB, update timeout 20s.
func concurrentInstance(class string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": 100,
		"timeouts": map[string]any{"update": concurrentUpdateTimeout}}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: concAddr, attrs: attrs}}
}

// importAndApply is the tests' first step: import id, apply the configuration, then an empty plan.
func (w *oracleWorld) importAndApply(t *testing.T, id string, order []oracleResource) {
	t.Helper()
	if err := w.importInstance(concAddr, id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.applyStep(order); err != nil {
		t.Fatalf("first step: %v", err)
	}
}

// applyOnly is a plan and an apply of the one resource of order; it returns the apply's
// diagnostics in full (summary and detail of each error).
func (w *oracleWorld) applyOnly(order []oracleResource) (errText string, err error) {
	plan, err := w.planWalk(order)
	if err != nil {
		return "", err
	}
	if plan.errAt != "" {
		return "", fmt.Errorf("plan: %s: %s", plan.errAt, plan.errMsg)
	}
	server, err := w.server()
	if err != nil {
		return "", err
	}
	r := order[0]
	typ := w.h.objType(r.typeName())
	config := w.config(r, nil)
	final := w.planOne(server, r, config)
	if diagsHaveError(final.diags) {
		return "", fmt.Errorf("final plan: %s", firstError(final.diags))
	}
	resp, err := server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: r.typeName(), PriorState: dynamic(typ, final.prior), PlannedState: dynamic(typ, final.planned),
		Config: dynamic(typ, config), PlannedPrivate: final.private,
	})
	if err != nil {
		return "", err
	}
	if resp.NewState != nil {
		if v, err := resp.NewState.Unmarshal(typ); err == nil && !v.IsNull() {
			w.state[r.addr], w.priv[r.addr] = v, resp.Private
		}
	}
	return errorsText(resp.Diagnostics), nil
}

// errorsText is every error diagnostic's summary and detail.
func errorsText(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			parts = append(parts, d.Summary+": "+d.Detail)
		}
	}
	return strings.Join(parts, "\n")
}

// planOnly is the next `terraform plan` of the one resource of order: its plan and its errors in full.
func (w *oracleWorld) planOnly(t *testing.T, order []oracleResource) (*oraclePlanned, string) {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	p := plan.res[order[0].addr]
	return p, errorsText(p.diags)
}

func expectErrorText(t *testing.T, what, text string, want *regexp.Regexp) {
	t.Helper()
	if text == "" || !want.MatchString(text) {
		t.Errorf("%s: error %q, want one matching %s", what, text, want)
	}
}

func stateString(t *testing.T, w *oracleWorld, attr string) string {
	t.Helper()
	v := attrOf(w.state[concAddr], attr)
	if v.Type().Is(tftypes.Bool) {
		var b bool
		if err := v.As(&b); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(b)
	}
	var s string
	if err := v.As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// expectPlannedDrift is expectDrift at the protocol: an update from the cloud's value back to the
// configured one.
func expectPlannedDrift(t *testing.T, p *oraclePlanned, attr, before, after string) {
	t.Helper()
	got := func(v tftypes.Value) string {
		var s string
		_ = attrOf(v, attr).As(&s)
		return s
	}
	if p.action != actUpdate || got(p.prior) != before || got(p.planned) != after {
		t.Errorf("%s.%s: plan %s %q -> %q, want the drift %q -> %q (update)", concAddr, attr, p.action, got(p.prior), got(p.planned), before, after)
	}
}

// §5: another run's class change lands right before terraform's flag request, which the cloud then
// refuses as busy. The resend carries the class as it is then: the other run's class stays, where
// before the resend moved the instance back to the class read earlier.
func TestConcurrentClassChangeBeforeToggleIsKept(t *testing.T) {
	t.Parallel()
	o, w := concurrentWorld(t, testSimOptions())
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": false}))
	o.onFirst("ModifyDBInstanceSpec", id, func() {
		o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: yitianLarge})
	})
	order := concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": true})
	if text, err := w.applyOnly(order); err != nil || text != "" {
		t.Fatalf("apply: %v %s", err, text)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "true" {
		t.Errorf("state atomic_write_16k = %s, want true", got)
	}
	// The other run's restart and terraform's; terraform's first request was refused.
	o.expect(o.cloudHas(id, yitianLarge, true), o.counts(id, 2, 2))()
	p, text := w.planOnly(t, order)
	if text != "" {
		t.Fatalf("next plan: %s", text)
	}
	expectPlannedDrift(t, p, "instance_type", yitianLarge, yitianMedium)
}

// §5: the same x86 move as TestConcurrentClassChangeRulesOutTheFlagWhileItWaits lands right before
// terraform's request (refused as busy). Before resending, terraform decides again with the plan
// model for the instance as it is now, refuses, and sends nothing more; before, the resend went out
// with the old class and the cloud refused it.
func TestConcurrentClassChangeRulesOutTheFlagBeforeItIsSent(t *testing.T) {
	t.Parallel()
	o, w := concurrentWorld(t, testSimOptions())
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium, PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": false}))
	o.onFirst("ModifyDBInstanceSpec", id, func() {
		o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: x86Medium})
	})
	order := concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": true})
	text, err := w.applyOnly(order)
	if err != nil {
		t.Fatal(err)
	}
	expectErrorText(t, "apply", text, errorWith("RDS instance changed outside this apply", id, "after the plan was made",
		fmt.Sprintf("instance_type is %q (the plan saw %q)", x86Medium, yitianMedium), "Nothing was sent", "Run terraform plan again"))
	// Only the other run's restart; terraform's one request was refused as busy.
	o.expect(o.cloudHas(id, x86Medium, false), o.counts(id, 1, 1))()
	_, text = w.planOnly(t, order)
	expectErrorText(t, "next plan", text, errorWith("makes 16K atomic write unavailable", id))
}

// §5, the other way round: terraform changes the class while another run turns the flag on. The
// class change waits for the class only and does not turn the flag back off; the state holds the
// planned flag and the refresh reads the other run's, which the configuration leaves unset: the
// next plan is empty. Before, the update waited for the old flag until the timeout.
func TestConcurrentToggleWhileClassChanges(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.FlagLag = time.Millisecond // the other run's flag shows as soon as the instance is back
	o, w := concurrentWorld(t, opts)
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, nil))
	o.onFirst("ModifyDBInstanceSpec", id, func() {
		o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: yitianMedium, OptimizedWrites: rdsapi.OptimizedWritesOn})
	})
	order := concurrentInstance(yitianLarge, nil)
	if text, err := w.applyOnly(order); err != nil || text != "" {
		t.Fatalf("apply: %v %s", err, text)
	}
	if got := stateString(t, w, "instance_type"); got != yitianLarge {
		t.Errorf("state instance_type = %s, want %s", got, yitianLarge)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "false" { // planned; the refresh reads true
		t.Errorf("state atomic_write_16k = %s, want false", got)
	}
	o.expect(o.cloudHas(id, yitianLarge, true), o.counts(id, 2, 2))()
	p, text := w.planOnly(t, order)
	if text != "" || p.action != actNoop {
		t.Fatalf("next plan: %s %s, want an empty plan", p.action, text)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "true" {
		t.Errorf("refreshed atomic_write_16k = %s, want true", got)
	}
}

// §5: an instance bought before 2025-05-14 on YiTian; terraform turns the flag on and, right when
// its restart is over, another run moves the instance to an x86 class, which takes 16K away for
// good. Terraform stops at once with an error naming the instance, the other change and what to
// do, instead of waiting for the flag (and the old class) until the update timeout.
func TestConcurrentClassChangeRulesOutTheFlagWhileItWaits(t *testing.T) {
	t.Parallel()
	o, w := concurrentWorld(t, testSimOptions())
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium, PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": false}))
	o.afterOwnSpecRunning(id, func() bool {
		return o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: x86Medium})
	})
	order := concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": true})
	text, err := w.applyOnly(order)
	if err != nil {
		t.Fatal(err)
	}
	expectErrorText(t, "apply", text, errorWith("RDS instance changed outside this apply", id,
		fmt.Sprintf("instance_type is %q (was %q)", x86Medium, yitianMedium),
		"atomic_write_16k_supported = false", "Run terraform plan"))
	// Terraform sent one request; the cloud has the other run's class and no 16K. The next plan
	// starts from there and refuses the configuration with the plan-time rule.
	o.expect(o.cloudHas(id, x86Medium, false), o.counts(id, 2, 1))()
	_, text = w.planOnly(t, order)
	expectErrorText(t, "next plan", text, errorWith("makes 16K atomic write unavailable", id))
}

// §6, the other way round: terraform renames the instance while another run turns the flag on
// (terraform's rename waits while the instance restarts). The apply records the planned flag; the
// refresh reads the other run's, which the configuration leaves unset: no diff. Before, the apply
// failed with "Provider produced inconsistent result".
func TestConcurrentToggleWhileRenaming(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.FlagLag = time.Millisecond
	o, w := concurrentWorld(t, opts)
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, map[string]any{"instance_name": "orig"}))
	o.onFirst("ModifyDBInstanceDescription", id, func() {
		o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: yitianMedium, OptimizedWrites: rdsapi.OptimizedWritesOn})
	})
	order := concurrentInstance(yitianMedium, map[string]any{"instance_name": "renamed"})
	if text, err := w.applyOnly(order); err != nil || text != "" {
		t.Fatalf("apply: %v %s", err, text)
	}
	if got := stateString(t, w, "instance_name"); got != "renamed" {
		t.Errorf("state instance_name = %s, want renamed", got)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "false" {
		t.Errorf("state atomic_write_16k = %s, want false", got)
	}
	o.expect(o.cloudHas(id, yitianMedium, true), o.counts(id, 1, 0))()
	p, text := w.planOnly(t, order)
	if text != "" || p.action != actNoop {
		t.Fatalf("next plan: %s %s, want an empty plan", p.action, text)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "true" {
		t.Errorf("refreshed atomic_write_16k = %s, want true", got)
	}
}

// stringSet is a set-of-strings attribute of the test instance's state.
func stringSet(t *testing.T, v tftypes.Value) []string {
	t.Helper()
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if err := e.As(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// §5: terraform turns the flag on; right when its restart is over, another run moves the instance
// to another YiTian class, which keeps 16K. Terraform waits for its flag only (not for the class it
// never asked for), finishes, records the planned class, and the next plan shows the other run's
// class as drift. Before, it waited for the old class until the update timeout.
func TestConcurrentClassChangeWhileToggleWaits(t *testing.T) {
	t.Parallel()
	o, w := concurrentWorld(t, testSimOptions())
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	w.importAndApply(t, id, concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": false}))
	o.afterOwnSpecRunning(id, func() bool {
		return o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: yitianLarge})
	})
	order := concurrentInstance(yitianMedium, map[string]any{"atomic_write_16k": true})
	if text, err := w.applyOnly(order); err != nil || text != "" {
		t.Fatalf("apply: %v %s", err, text)
	}
	if got := stateString(t, w, "atomic_write_16k"); got != "true" {
		t.Errorf("state atomic_write_16k = %s, want true", got)
	}
	if got := stateString(t, w, "instance_type"); got != yitianMedium {
		t.Errorf("state instance_type = %s, want %s", got, yitianMedium)
	}
	o.expect(o.cloudHas(id, yitianLarge, true), o.counts(id, 2, 1))()
	p, text := w.planOnly(t, order)
	if text != "" {
		t.Fatalf("next plan: %s", text)
	}
	expectPlannedDrift(t, p, "instance_type", yitianLarge, yitianMedium)
}

// §6: terraform turns the flag on; while it waits, another run renames the instance and changes
// its allow-list. The apply succeeds with the planned name and IPs in state, and the next plan
// shows both as drift. Before, it failed with "Provider produced inconsistent result".
func TestConcurrentRenameWhileToggleWaits(t *testing.T) {
	t.Parallel()
	o, w := concurrentWorld(t, testSimOptions())
	id := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	settings := func(flag bool) map[string]any {
		return map[string]any{"instance_name": "orig", "security_ips": []string{"10.0.0.1"}, "atomic_write_16k": flag}
	}
	w.importAndApply(t, id, concurrentInstance(yitianMedium, settings(false)))
	o.afterOwnSpecRunning(id, func() bool {
		ctx := context.Background()
		if err := o.env.api.ModifyDBInstanceDescription(ctx, id, "renamed-elsewhere"); err != nil {
			o.t.Errorf("other run: rename: %v", err)
		}
		if err := o.env.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "10.0.0.2",
			DBInstanceIPArrayName: rdsapi.DefaultSecurityIPArray}); err != nil {
			o.t.Errorf("other run: IPs: %v", err)
		}
		return true
	})
	order := concurrentInstance(yitianMedium, settings(true))
	if text, err := w.applyOnly(order); err != nil || text != "" {
		t.Fatalf("apply: %v %s", err, text)
	}
	for attr, want := range map[string]string{"atomic_write_16k": "true", "instance_name": "orig"} {
		if got := stateString(t, w, attr); got != want {
			t.Errorf("state %s = %s, want %s", attr, got, want)
		}
	}
	if got := stringSet(t, attrOf(w.state[concAddr], "security_ips")); len(got) != 1 || got[0] != "10.0.0.1" {
		t.Errorf("state security_ips = %v, want [10.0.0.1]", got)
	}
	o.expect(o.counts(id, 1, 1))()
	p, text := w.planOnly(t, order)
	if text != "" {
		t.Fatalf("next plan: %s", text)
	}
	expectPlannedDrift(t, p, "instance_name", "renamed-elsewhere", "orig")
	if before, after := stringSet(t, attrOf(p.prior, "security_ips")), stringSet(t, attrOf(p.planned, "security_ips")); len(before) != 1 || before[0] != "10.0.0.2" || len(after) != 1 || after[0] != "10.0.0.1" {
		t.Errorf("security_ips: plan %v -> %v, want the drift [10.0.0.2] -> [10.0.0.1]", before, after)
	}
}
