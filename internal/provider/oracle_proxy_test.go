package provider

// The database proxy (issue 44 §4): the "proxy" factor puts an rds_db_proxy on the primary (created by the run,
// its weights changed, a read-only instance added and weighted or released with its weight, its read_write_mode
// changed, resized in the maintenance window, max_prepared_stmt_count changed on every instance behind it) in
// combination with every other factor: read-only instances, class changes, parameters, deferral (apply_restarts
// in the window sets the proxy's apply_changes too) and prevent_restart (the primary's guard guards the proxy
// too). After each apply the oracle reads the proxy back from the cloud (DescribeDBProxy, DescribeDBProxyEndpoint,
// GetDbProxyInstanceSsl) and compares it with the state, attribute by attribute, but for what the state says waits
// for the window, which must not have changed yet; compares the connection interruption the plan named (rule
// proxy-interrupts-connections) with the cloud's read/write mode and proxy type before and after; compares the
// connections the plan named dropped through the proxy by a spec change (rule proxy-spec-change-drops-connections),
// during the apply and at the window, with the switchovers behind a proxy without persistent connections the
// simulator counted (Stats.ProxyDrops); and checks that every weighted read-only instance is one of the primary's. The empty plan after the apply and the restarts are
// the run's own comparisons.

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// proxyLevels are the "proxy" factor's levels.
var proxyLevels = []string{"none", "created", "weights changed", "read-only added and weighted", "read-only released, weight removed",
	"read_write_mode changed", "resized in the window", "max_prepared_stmt_count on every instance"}

// comboNormalizeProxy: a destroy leaves no proxy to compare; a replaced primary takes its proxy with it (the
// replacement factors have their own pairs); a read-only instance released in a later run while the proxy weights
// it is a refusal of issue 44 X10, whose own pairs the proxy's levels make; the levels with a read-only instance
// need one, and the one released takes no change of its own nor its primary's restarts (comboNormalizeReadOnlyGone); a
// parameter change meets no minor version upgrade, as comboNormalizeMinor has it.
func comboNormalizeProxy(c []int) {
	set := func(f, l string) { c[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	level := func(f string) string { return comboLevel(c, f) }
	switch {
	case level("proxy") == "none":
		return
	case level("destroy") != "no":
		set("proxy", "none")
		return
	}
	set("replace", "no")
	if level("later run") == "read-only released" {
		set("later run", "none")
	}
	if l := level("proxy"); strings.HasPrefix(l, "read-only") {
		set("topology", "primary + read-only")
	}
	if level("proxy") == "read-only released, weight removed" {
		comboNormalizeReadOnlyGone(c) // as the destroy factor's: a primary planned before the release names its restarts
	}
	if level("proxy") == "max_prepared_stmt_count on every instance" && level("minor version") == "upgrade" {
		set("minor version", "unchanged") // a minor upgrade goes alone beside parameters in the window (comboNormalizeMinor)
	}
}

// comboProxyName is the level as the scenario records it: "" for none.
func comboProxyName(level string) string {
	if level == "none" {
		return ""
	}
	return level
}

// proxyWeights is read_only_weights with keys that may name a resource ("@" + its address): its id, known at
// apply when the resource is created in the run (then the whole map is unknown at plan, as in Terraform).
type proxyWeights map[string]int

func (p proxyWeights) value(t tftypes.Type, resolve func(oracleRef) tftypes.Value) tftypes.Value {
	elems := map[string]tftypes.Value{}
	for k, n := range p {
		if addr, ok := strings.CutPrefix(k, "@"); ok {
			id := resolve(oracleRef{addr, "id"})
			if !id.IsKnown() || id.IsNull() {
				return tftypes.NewValue(t, tftypes.UnknownValue)
			}
			if err := id.As(&k); err != nil {
				panic(err)
			}
		}
		elems[k] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(n)))
	}
	return tftypes.NewValue(t, elems)
}

// comboProxy adds the level's rds_db_proxy to the configurations before and after the run (proxyRes). guard and
// deferral are the run's prevent_restart on the primary and apply_restarts in the window; ro tells whether the
// configuration after the run has the read-only instance.
func comboProxy(level string, guarded, deferred bool, before, after []oracleResource) ([]oracleResource, []oracleResource) {
	if level == "none" {
		return before, after
	}
	ro := slices.ContainsFunc(after, func(r oracleResource) bool { return r.addr == "rds_readonly_instance.ro" })
	base := map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"}, "max_delay_seconds": 10, "prevent_restart": guarded}
	if deferred {
		base["apply_changes"] = rdsservice.ApplyRestartsInWindow
	}
	pb, pa := cloneAttrs(base), cloneAttrs(base)
	weights := func(roWeight int) proxyWeights {
		if !ro || roWeight == 0 {
			return proxyWeights{"primary": 100}
		}
		return proxyWeights{"primary": 100, "@rds_readonly_instance.ro": roWeight}
	}
	pb["read_only_weights"], pa["read_only_weights"] = weights(300), weights(300)
	switch level {
	case "weights changed":
		pa["read_only_weights"] = weights(500)
	case "read-only added and weighted":
		before = slices.DeleteFunc(slices.Clone(before), func(r oracleResource) bool { return r.addr == "rds_readonly_instance.ro" })
		pb["read_only_weights"] = weights(0)
	case "read-only released, weight removed":
		after = slices.DeleteFunc(slices.Clone(after), func(r oracleResource) bool { return r.addr == "rds_readonly_instance.ro" })
		pa["read_only_weights"] = proxyWeights{"primary": 100}
	case "read_write_mode changed":
		pa["read_write_mode"] = "ReadOnly"
	case "resized in the window":
		pa["instance_num"], pa["apply_changes"] = 3, rdsservice.ApplyRestartsInWindow
	case "max_prepared_stmt_count on every instance":
		for _, r := range after {
			if isInstanceResource(r.addr) {
				params, _ := r.attrs["parameters"].(map[string]string)
				params = maps.Clone(params)
				if params == nil {
					params = map[string]string{}
				}
				params[rdsservice.PreparedStmtParameter] = "8000"
				r.attrs["parameters"] = params
			}
		}
	}
	after = append(slices.Clone(after), oracleResource{proxyRes, pa})
	if level != "created" {
		before = append(slices.Clone(before), oracleResource{proxyRes, pb})
	}
	return before, after
}

// proxyCloud is the proxy of the world's primary as the cloud has it, with the primary's read-only instances; nil
// when it is off or there is no primary.
func (w *oracleWorld) proxyCloud() (*rdsservice.ProxySpec, []string) {
	var primary string
	if v, ok := w.state["rds_instance.primary"]; !ok || attrOf(v, "id").As(&primary) != nil || primary == "" {
		return nil, nil
	}
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	ctx := context.Background()
	px, err := api.DescribeDBProxy(ctx, primary)
	if err != nil || !px.Started {
		return nil, nil
	}
	ep, err := api.DescribeDBProxyEndpoint(ctx, primary, "")
	if err != nil {
		return nil, nil
	}
	ssl, err := api.GetDbProxyInstanceSsl(ctx, primary)
	if err != nil {
		return nil, nil
	}
	attr, err := api.DescribeDBInstanceAttribute(ctx, primary)
	if err != nil {
		return nil, nil
	}
	spec := rdsservice.ProxyFromAPI(primary, px, ep, ssl)
	return &spec, attr.ReadOnlyDBInstanceIDs
}

// proxyValues are a proxy's compared attributes as text, by attribute name.
func proxyValues(s rdsservice.ProxySpec) map[string]string {
	var weights []string
	for _, k := range slices.Sorted(maps.Keys(s.Weights)) {
		weights = append(weights, k+"="+strconv.FormatInt(s.Weights[k], 10))
	}
	f := s.Features
	return map[string]string{"instance_type": s.InstanceType, "instance_num": strconv.FormatInt(s.InstanceNum, 10),
		"persistent_connections": strconv.FormatBool(s.Persistent), "ssl_enabled": strconv.FormatBool(s.SSL), "read_write_mode": s.ReadWriteMode,
		"max_delay_seconds": strconv.FormatInt(s.MaxDelay, 10), "read_only_weights": strings.Join(weights, ","),
		"features": fmt.Sprint(f.ReadWriteSplitting, f.ConnectionPersist, f.TransactionSplit, f.CausalConsistentRead)}
}

// stateProxy is the proxy as a state value holds it, and the attributes it says wait for the window.
func stateProxy(v tftypes.Value) (rdsservice.ProxySpec, []string) {
	str := func(name string) string {
		var s string
		_ = attrOf(v, name).As(&s)
		return s
	}
	num := func(x tftypes.Value) int64 {
		var f big.Float
		_ = x.As(&f)
		n, _ := f.Int64()
		return n
	}
	flag := func(x tftypes.Value) bool {
		var b bool
		_ = x.As(&b)
		return b
	}
	s := rdsservice.ProxySpec{InstanceType: str("instance_type"), InstanceNum: num(attrOf(v, "instance_num")), Persistent: flag(attrOf(v, "persistent_connections")),
		SSL: flag(attrOf(v, "ssl_enabled")), ReadWriteMode: str("read_write_mode"), MaxDelay: num(attrOf(v, "max_delay_seconds"))}
	if f := attrOf(v, "features"); !f.IsNull() {
		s.Features = rdsservice.ProxyFeatures{ReadWriteSplitting: flag(attrOf(f, "read_write_splitting")), ConnectionPersist: flag(attrOf(f, "connection_persist")),
			TransactionSplit: flag(attrOf(f, "transaction_split")), CausalConsistentRead: flag(attrOf(f, "causal_consistent_read"))}
	}
	s.Standard = str("read_only_distribution") == "Standard"
	if !s.Standard {
		s.Weights = map[string]int64{}
		for k, x := range attrsOf(attrOf(v, "read_only_weights")) {
			s.Weights[k] = num(x)
		}
	}
	var waiting []string
	var list []tftypes.Value
	_ = attrOf(v, "scheduled_change").As(&list)
	for _, e := range list {
		var a string
		_ = e.As(&a)
		waiting = append(waiting, a)
	}
	return s, waiting
}

// namesInterruption reports whether the proxy's plan showed rule proxy-interrupts-connections.
func namesInterruption(p *oraclePlanned) bool {
	summary := rdsservice.Rules[rdsservice.RuleProxyInterrupts].Summary
	for _, d := range p.diags {
		if d.Summary == summary {
			return true
		}
	}
	return false
}

// checkProxy compares the proxy in state after the apply with the cloud (before: the cloud's proxy before the
// apply) and the interruption the plan named with what changed; reports whether it compared a proxy.
func (w *oracleWorld) checkProxy(plan *oraclePlan, order []oracleResource, before *rdsservice.ProxySpec, disagree func(class, format string, args ...any)) bool {
	v, ok := w.state[proxyRes]
	if !ok || !slices.ContainsFunc(order, func(r oracleResource) bool { return r.addr == proxyRes }) {
		return false
	}
	cloud, readOnly := w.proxyCloud()
	if cloud == nil {
		disagree("proxy: the state holds a proxy the cloud has off", "%s is in state; the cloud's proxy of its primary is off", proxyRes)
		return true
	}
	state, waiting := stateProxy(v)
	now, was, want := proxyValues(*cloud), map[string]string{}, proxyValues(state)
	if before != nil {
		was = proxyValues(*before)
	}
	for _, attr := range slices.Sorted(maps.Keys(want)) {
		switch {
		case slices.Contains(waiting, attr) && before != nil && now[attr] != was[attr]:
			disagree("proxy: a change the plan deferred to the window was made now: "+attr, "%s: %s was %q, the state says %q waits for the window, the cloud has %q",
				proxyRes, attr, was[attr], want[attr], now[attr])
		case !slices.Contains(waiting, attr) && now[attr] != want[attr]:
			disagree("proxy: the state differs from the cloud: "+attr, "%s: the state has %s = %q, the cloud %q", proxyRes, attr, want[attr], now[attr])
		}
	}
	checkProxyInterruption(plan.res[proxyRes], before, *cloud, waiting, disagree)
	for key := range cloud.Weights {
		if key != rdsservice.ProxyPrimaryKey && !slices.Contains(readOnly, key) {
			disagree("proxy: a weight names no read-only instance of the primary", "%s: the cloud weights %s, not among %v", proxyRes, key, readOnly)
		}
	}
	return true
}

// checkProxyInterruption compares the plan's named interruption (rule proxy-interrupts-connections) with the
// cloud's read/write mode and proxy type before and after the apply, but for a change left waiting.
func checkProxyInterruption(p *oraclePlanned, before *rdsservice.ProxySpec, cloud rdsservice.ProxySpec, waiting []string, disagree func(class, format string, args ...any)) {
	if p == nil {
		return
	}
	var changed []string
	if before != nil {
		changed = rdsservice.ProxyInterruptions(*before, cloud)
	}
	deferred := slices.ContainsFunc(waiting, func(a string) bool { return a == rdsservice.AttrProxyMode || a == rdsservice.AttrProxyType })
	switch named := namesInterruption(p); {
	case len(changed) > 0 && !named:
		disagree("proxy: connections interrupted, the plan did not name it", "%s: the cloud changed %v; the plan (%s) named no interruption", proxyRes, changed, p.action)
	case named && len(changed) == 0 && !deferred:
		disagree("proxy: the plan named an interruption the cloud did not make", "%s: the plan named an interruption; the cloud's mode and type did not change", proxyRes)
	}
}

// namedDrop is how a plan names the connections dropped through the proxy to one instance: deferred, the switchover
// waits for the maintenance window; possible, it happens only if an attribute known at apply changes the spec.
type namedDrop struct{ deferred, possible bool }

// namedProxyDrops are the instances whose connections through the proxy the plan names dropped by a spec change
// (rule proxy-spec-change-drops-connections, on any resource's plan), by id.
func namedProxyDrops(plan *oraclePlan) map[string]namedDrop {
	summary := rdsservice.Rules[rdsservice.RuleProxySpecDropsConnections].Summary
	named := map[string]namedDrop{}
	for _, p := range plan.res {
		for _, d := range p.diags {
			rest, ok := strings.CutPrefix(d.Detail, "The spec change of ")
			id, when, found := strings.Cut(rest, " switches it over ")
			if d.Summary == summary && ok && found {
				when, _, _ = strings.Cut(when, ", and the database proxy")
				named[id] = namedDrop{deferred: !strings.HasPrefix(when, "during this apply"), possible: strings.Contains(when, "known only at apply")}
			}
		}
	}
	return named
}

// checkProxyDrops compares the connections through the proxy the plan named dropped during the apply with the
// switchovers behind a proxy without persistent connections the simulator counted (Stats.ProxyDrops), and keeps
// those it named for the window for atTheWindow, when this run reaches the window itself (no later run, no task
// scheduled behind Terraform's back).
func (w *oracleWorld) checkProxyDrops(plan *oraclePlan, order []oracleResource, drops map[string]int, disagree func(class, format string, args ...any)) {
	named := namedProxyDrops(plan)
	w.proxyWindowDrops = nil
	if !w.holdWindow && w.carried == nil && !w.taskScheduled {
		w.proxyWindowDrops = map[string]bool{}
	}
	for id, n := range named {
		switch {
		case n.deferred && w.proxyWindowDrops != nil:
			w.proxyWindowDrops[id] = n.possible
		case !n.deferred && !n.possible && drops[id] == 0:
			disagree("proxy: the plan named connections dropped through the proxy, the cloud dropped none",
				"%s (%s): the plan names a spec change dropping the connections through the proxy during this apply; the simulator counted no such switchover", id, w.addrOf(id, order))
		}
	}
	for id, n := range drops {
		if how, ok := named[id]; n > 0 && (!ok || how.deferred) {
			disagree("proxy: a spec change dropped connections through the proxy, the plan did not name it",
				"%s (%s): the simulator counted %d switchover(s) of a spec change behind a proxy without persistent connections during the apply; the plan named none then", id, w.addrOf(id, order), n)
		}
	}
}

// checkProxyDropsAtWindow compares, at the window, the drops the run's plan named for it with those counted there.
func (w *oracleWorld) checkProxyDropsAtWindow(order []oracleResource, drops map[string]int, disagree func(class, format string, args ...any)) {
	named := w.proxyWindowDrops
	if w.proxyWindowDrops = nil; named == nil {
		return
	}
	for id, possible := range named {
		if drops[id] == 0 && !possible {
			disagree("proxy: the plan named connections dropped through the proxy at the window, the cloud dropped none",
				"%s (%s): the plan names a spec change in the window dropping the connections through the proxy; the simulator counted none there", id, w.addrOf(id, order))
		}
	}
	for id, n := range drops {
		if _, ok := named[id]; n > 0 && !ok {
			disagree("proxy: a spec change dropped connections through the proxy at the window, the plan did not name it",
				"%s (%s): at the window the simulator counted %d switchover(s) behind a proxy without persistent connections; the plan did not name them", id, w.addrOf(id, order), n)
		}
	}
}

// proxyGuardOf is the provider's own policy behind a refused plan of the proxy or of an instance behind it, which
// the cloud has no request to compare with: prevent_restart refusing an interruption, issue 44 X8 (equal
// max_prepared_stmt_count, an assumption) and X10 (a weighted read-only instance released).
func proxyGuardOf(p *oraclePlanned) rdsservice.RuleID {
	policy := []rdsservice.RuleID{rdsservice.RuleProxyInterruptsStop, rdsservice.RuleProxyWeightReleased, rdsservice.RuleProxyPreparedStmt,
		rdsservice.RulePreparedStmtReadOnly, rdsservice.RulePreparedStmtPrimary}
	for _, d := range p.diags {
		for _, id := range policy {
			if d.Summary == rdsservice.Rules[id].Summary {
				return id
			}
		}
	}
	return ""
}

// proxyBefore is the cloud's proxy before the apply of a configuration with one (nil: none).
func (w *oracleWorld) proxyBefore(order []oracleResource) *rdsservice.ProxySpec {
	if !slices.ContainsFunc(order, func(r oracleResource) bool { return r.addr == proxyRes }) {
		return nil
	}
	spec, _ := w.proxyCloud()
	return spec
}

// The proxy check notices what it is there to notice: the proxy changed behind Terraform's back right after the
// apply (its read/write mode: the state no longer matches the cloud, and connections were interrupted that the
// plan did not name), and a change the plan deferred to the window made at once (the resize sent again with
// EffectiveTime Immediate before the apply's check).
func TestOracleNoticesProxyDisagreements(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	direct := func(do func(w *oracleWorld, api rdsapi.API, primary string) error) func(w *oracleWorld) {
		return func(w *oracleWorld) {
			api, err := w.h.directClient()
			if err != nil {
				t.Fatal(err)
			}
			var primary string
			_ = attrOf(w.state["rds_instance.primary"], "id").As(&primary)
			if err := do(w, api, primary); err != nil {
				t.Fatal(err)
			}
		}
	}
	setMode := direct(func(w *oracleWorld, api rdsapi.API, primary string) error {
		return api.ModifyDBProxyEndpoint(context.Background(), &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: primary,
			EndpointID: proxyEndpointID(t, api, primary), ReadWriteMode: rdsapi.ProxyReadOnly, EffectiveTime: "Immediate"})
	})
	resizeNow := direct(func(_ *oracleWorld, api rdsapi.API, primary string) error {
		return api.ModifyDBProxyInstance(context.Background(), &rdsapi.ModifyDBProxyInstanceRequest{DBInstanceID: primary, InstanceType: rdsapi.ProxyTypeCommon,
			InstanceNum: 3, EffectiveTime: "Immediate"})
	})
	for _, tc := range []struct {
		name, level string
		afterApply  func(w *oracleWorld)
		want        []string
	}{
		{"mode changed after the apply", "weights changed", setMode, []string{"proxy: the state differs from the cloud: read_write_mode",
			"proxy: connections interrupted, the plan did not name it"}},
		{"deferred resize made now", "resized in the window", resizeNow, []string{"proxy: a change the plan deferred to the window was made now: instance_num"}},
	} {
		w := h.newWorld()
		before, after := comboProxy(tc.level, false, false, readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false), readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
		if out := w.run(tc.name+" [setup]", before); len(out.disagreements) > 0 || out.kind != outcomeApplied {
			t.Fatalf("%s: setup: %+v", tc.name, out)
		}
		w.afterApply = tc.afterApply
		out := w.run(tc.name, after)
		var classes []string
		for _, d := range out.disagreements {
			classes = append(classes, d.class)
		}
		for _, want := range tc.want {
			if !slices.Contains(classes, want) || !out.proxy {
				t.Errorf("%s: the oracle reported %q (compared: %v), want %q among them", tc.name, classes, out.proxy, want)
			}
		}
		_ = w.sim.Close()
	}
}

func proxyEndpointID(t *testing.T, api rdsapi.API, primary string) string {
	t.Helper()
	px, err := api.DescribeDBProxy(context.Background(), primary)
	if err != nil || len(px.Endpoints) == 0 {
		t.Fatalf("the proxy of %s: %+v, %v", primary, px, err)
	}
	return px.Endpoints[0].EndpointID
}

// The oracle compares the connections dropped through the proxy: a proxy created by a run that leaves a class change
// of its primary for the window agrees with the cloud there (the proxy's plan names the drop, the simulator counts
// it at the window); and the comparison notices a drop the plan did not name, and one it named that the cloud did
// not make, during the apply and at the window.
func TestOracleComparesProxyDrops(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	defer func() { _ = w.sim.Close() }()
	before := readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false)
	after := readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false)
	after[0].attrs["instance_type"], after[0].attrs["apply_restarts"] = "mysql.n2.large.2c", "in_maintenance_window"
	before, after = comboProxy("created", false, true, before, after)
	if out := w.run("proxy created beside a class change for the window [setup]", before); len(out.disagreements) > 0 || out.kind != outcomeApplied {
		t.Fatalf("setup: %+v", out)
	}
	if out := w.run("proxy created beside a class change for the window", after); len(out.disagreements) > 0 || !out.atWindow || !out.proxy {
		t.Fatalf("the oracle disagreed or did not reach the window (at the window %t, proxy compared %t): %+v", out.atWindow, out.proxy, out.disagreements)
	}
	summary := rdsservice.Rules[rdsservice.RuleProxySpecDropsConnections].Summary
	named := func(when string) *oraclePlan {
		return &oraclePlan{res: map[string]*oraclePlanned{proxyRes: {diags: []*tfprotov6.Diagnostic{{Summary: summary,
			Detail: "The spec change of rm-1 switches it over " + when + ", and the database proxy of rm-1 keeps no persistent connections."}}}}}
	}
	var classes []string
	disagree := func(class, _ string, _ ...any) { classes = append(classes, class) }
	w.checkProxyDrops(named("during this apply"), nil, map[string]int{"rr-2": 1}, disagree)
	w.checkProxyDrops(named("in the maintenance window 02:00Z-03:00Z"), nil, nil, disagree)
	w.checkProxyDropsAtWindow(nil, map[string]int{"rr-2": 1}, disagree)
	want := []string{"proxy: the plan named connections dropped through the proxy, the cloud dropped none",
		"proxy: a spec change dropped connections through the proxy, the plan did not name it",
		"proxy: the plan named connections dropped through the proxy at the window, the cloud dropped none",
		"proxy: a spec change dropped connections through the proxy at the window, the plan did not name it"}
	slices.Sort(classes)
	slices.Sort(want)
	if !slices.Equal(classes, want) {
		t.Fatalf("the comparison reported %q, want %q", classes, want)
	}
}

// Seed 3 of the proxy factor: a class change known only at apply behind a proxy without persistent connections
// drops the connections through it; the plan names the drop as possible (it named the restart so), and the oracle
// agrees with the cloud.
func TestOracleProxyDropKnownAtApply(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	sc := comboScenario(comboOf(t, map[string]string{"topology": "primary + read-only", "class": "primary",
		"mechanism": "instance_type known at apply", "proxy": "read_write_mode changed"}))
	outcomes := h.runScenario(sc)
	for _, o := range outcomes {
		for _, d := range o.disagreements {
			t.Errorf("DISAGREEMENT [%s]\n    repro: %s", d.class, d.repro)
		}
	}
	if last := outcomes[len(outcomes)-1]; last.kind != outcomeApplied || !last.proxy {
		t.Fatalf("ended %q (proxy compared %t), want applied and compared", last.category, last.proxy)
	}
}
