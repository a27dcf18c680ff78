package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// More of the parameters family at the plugin protocol: the steps and checks of the terraform
// tests they replace. The family keeps TestAccInstanceParameters_importStable (parameters_test.go)
// with terraform.

// stateStringsAre checks string attributes of addr's state (a parameter as "parameters.<name>").
func stateStringsAre(w *oracleWorld, t *testing.T, addr string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for name, v := range want {
			var got string
			if param, ok := strings.CutPrefix(name, "parameters."); ok {
				got = w.stringMapAttr(t, addr, "parameters")[param]
			} else {
				got = w.stateAttr(t, addr, name)
			}
			if got != v {
				return fmt.Errorf("%s.%s is %q, want %q", addr, name, got, v)
			}
		}
		return nil
	}
}

// nothingPending checks that addr's state has no parameter waiting for a restart.
func nothingPending(w *oracleWorld, t *testing.T, addr string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := w.stringMapAttr(t, addr, "parameters_pending"); len(got) != 0 {
			return fmt.Errorf("%s.parameters_pending is %v, want empty", addr, got)
		}
		return nil
	}
}

// stateFlagIs checks atomic_write_16k in addr's state.
func stateFlagIs(w *oracleWorld, t *testing.T, addr string, want bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var on bool
		if err := attrOf(w.state[addr], "atomic_write_16k").As(&on); err != nil || on != want {
			return fmt.Errorf("%s.atomic_write_16k is %v (%v), want %v", addr, on, err, want)
		}
		return nil
	}
}

// Bad parameters are refused at plan, for a new instance and for an existing one, with no API
// write; an innodb_doublewrite that agrees with the flag is accepted and not sent.
// At the plugin protocol; the family keeps TestAccInstanceParameters_importStable with terraform.
func TestInstanceParameters_refusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	flagOn := map[string]any{"atomic_write_16k": true}
	refusals := []struct {
		params map[string]string
		extra  map[string]any
		err    string
	}{
		{map[string]string{"innodb_io_capacty": "4000"}, nil, `Unknown RDS parameter[\s\S]*innodb_io_capacty[\s\S]*Did\s+you\s+mean\s+innodb_io_capacity`},
		{map[string]string{"innodb_io_capacity": "50"}, nil, `not allowed[\s\S]*"50"[\s\S]*allowed\s+range\s+is\s+the\s+whole\s+numbers\s+\[100-18446744073709551615\]`},
		{map[string]string{"innodb_flush_neighbors": "3"}, nil, `allowed\s+values\s+are\s+0,\s+1,\s+2`},
		{map[string]string{"innodb_page_size": "4096"}, nil, `RDS parameter cannot be changed[\s\S]*innodb_page_size`},
		{map[string]string{"innodb_doublewrite": "ON"}, flagOn, `innodb_doublewrite contradicts atomic_write_16k`},
	}
	refuse := func(when string) {
		t.Helper()
		for _, r := range refusals {
			expectErrorText(t, when+" "+fmt.Sprint(r.params), w.planErrorOf(t, paramsResources(r.params, r.extra)), regexp.MustCompile(r.err))
		}
	}
	agreeing := paramsResources(map[string]string{"innodb_doublewrite": "OFF"}, flagOn)
	// Refused for a new instance: nothing is created.
	refuse("new")
	// The refused plans made no API writes; the agreeing innodb_doublewrite is not sent either.
	w.applyChecked(t, "agreeing", agreeing, env.wantRequests("CreateDBInstance", 1), env.wantRequests("ModifyParameter", 0),
		stateStringsAre(w, t, testRes, map[string]string{"parameters.innodb_doublewrite": "OFF"}))
	// Refused for an existing instance: no write.
	refuse("existing")
	plan := w.applyChecked(t, "agreeing again", agreeing, func(*terraform.State) error {
		if n := env.mutations(); n != 1 {
			return fmt.Errorf("%d mutating requests (%v), want only the create", n, env.sim.Stats().Requests)
		}
		return nil
	})
	expectEmptyPlan(t, "agreeing again", plan)
	destroyThenCheck(t, w, env.checkDestroyed())
}

// Class + flag + restart-needing parameters in one apply: prevent_restart names them all; the plan
// names one restart and the apply restarts once (one ModifyDBInstanceSpec, one ModifyParameter).
// At the plugin protocol; the family keeps TestAccInstanceParameters_importStable with terraform.
func TestInstanceParameters_classFlagAndParametersOneRestart(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	params := map[string]string{"innodb_io_capacity": "4000", "innodb_read_io_threads": "8", "back_log": "4000"}
	changed := func(extra map[string]any) []oracleResource {
		attrs := map[string]any{"atomic_write_16k": true, "instance_type": "mysql.n2.large.2c"}
		for k, v := range extra {
			attrs[k] = v
		}
		return paramsResources(params, attrs)
	}
	w.applyChecked(t, "create", lifecycleInstance("8.0", map[string]any{"atomic_write_16k": false}))
	id = w.stateAttr(t, testRes, "id")
	if err := env.paramCounts(&id, 0, 0, 0)(nil); err != nil {
		t.Errorf("create: %v", err)
	}
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, changed(map[string]any{"prevent_restart": true})),
		regexp.MustCompile(`(?s)atomic_write_16k changes from false to true; instance_type changes.*back_log 3000 -> 4000, innodb_read_io_threads 4 -> 8`))
	plan := w.applyChecked(t, "change", changed(nil), stateFlagIs(w, t, testRes, true), nothingPending(w, t, testRes),
		stateStringsAre(w, t, testRes, map[string]string{"parameters.innodb_read_io_threads": "8", "parameters.back_log": "4000",
			"instance_type": "mysql.n2.large.2c"}), env.paramCounts(&id, 1, 1, 1))
	if now, _, later := plannedRestarts(plan, changed(nil)); now[id] != 1 || len(later) != 0 {
		t.Errorf("change: the program restarts %s %d times now (%v in the window), want once now", id, now[id], later)
	}
	if warn := warningText(plan.res[testRes].diags); strings.Count(warn, "This apply restarts") != 1 || !strings.Contains(warn, "innodb_read_io_threads 4 -> 8") {
		t.Errorf("change: warnings %q, want one restart warning naming the parameters", warn)
	}
	expectEmptyPlan(t, "again", w.applyChecked(t, "again", changed(nil), env.paramCounts(&id, 1, 1, 1)))
	destroyThenCheck(t, w, env.checkDestroyed())
}

// A new instance whose parameters need a restart: the plan names one restart right after
// creation, the apply restarts it exactly once, and prevent_restart refuses it before anything
// is created.
// At the plugin protocol; the family keeps TestAccInstanceParameters_importStable with terraform.
func TestInstanceParameters_createWithRestart(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	params := map[string]string{"innodb_read_io_threads": "8", "innodb_io_capacity": "4000"}
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, paramsResources(params, map[string]any{"prevent_restart": true})),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*innodb_read_io_threads\s+4\s+->\s+8.*right\s+after\s+creation`))
	plan := w.applyChecked(t, "create", paramsResources(params, nil), nothingPending(w, t, testRes),
		stateStringsAre(w, t, testRes, map[string]string{"parameters.innodb_read_io_threads": "8", "parameters.innodb_io_capacity": "4000"}),
		env.checkOneCreate(), func(s *terraform.State) error {
			id = w.stateAttr(t, testRes, "id")
			return env.paramCounts(&id, 1, 1, 0)(s)
		})
	p := plan.res[testRes]
	if p.action != actCreate {
		t.Errorf("create: planned %s, want create", p.action)
	}
	if got := plannedStrings(t, attrOf(p.planned, "parameters_pending")); len(got) != 0 {
		t.Errorf("create: planned parameters_pending %v, want {}", got)
	}
	if now, _, _ := plannedRestarts(plan, paramsResources(params, nil)); now["new:"+testRes] != 1 {
		t.Errorf("create: the program restarts the new instance %d times, want 1", now["new:"+testRes])
	}
	if warn := warningText(p.diags); !strings.Contains(warn, "innodb_read_io_threads") || !strings.Contains(warn, "after creation") {
		t.Errorf("create: warnings %q, want the restart right after creation for innodb_read_io_threads", warn)
	}
	expectEmptyPlan(t, "again", w.applyChecked(t, "again", paramsResources(params, nil)))
	destroyThenCheck(t, w, env.checkDestroyed())
}

// roParamsResources is a primary (16K on) and one read-only instance that manages parameters,
// with extra attributes (the terraform tests' roParamsConfig).
func roParamsResources(params map[string]string, extra map[string]any) []oracleResource {
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": "mysqlro.n2.medium.1c",
		"storage": 100, "instance_name": "reporting", "parameters": params}
	for k, v := range extra {
		ro[k] = v
	}
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "orders", "atomic_write_16k": true}
	return []oracleResource{{addr: "rds_instance.primary", attrs: primary}, {addr: testRO, attrs: ro}}
}

// A read-only instance manages its own parameters: online changes without a restart, a
// restart-needing one with exactly one restart of the read-only instance (never the primary).
// At the plugin protocol; the family keeps TestAccInstanceParameters_importStable with terraform.
func TestReadonlyParameters(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const primary = "rds_instance.primary"
	online := map[string]string{"innodb_io_capacity": "4000", "long_query_time": "0.5"}
	withRestart := map[string]string{"innodb_io_capacity": "4000", "long_query_time": "0.5", "innodb_read_io_threads": "8"}
	counts := func(roRestarts, modifyParameter int) []resource.TestCheckFunc {
		return []resource.TestCheckFunc{restartsAre(env, w, t, testRO, roRestarts), restartsAre(env, w, t, primary, 0),
			env.wantRequests("ModifyParameter", modifyParameter)}
	}
	w.applyChecked(t, "create", roParamsResources(online, nil), append(counts(0, 1),
		stateStringsAre(w, t, testRO, map[string]string{"parameters.innodb_io_capacity": "4000", "parameters.long_query_time": "0.5"}))...)
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, roParamsResources(withRestart, map[string]any{"prevent_restart": true})),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*innodb_read_io_threads\s+4\s+->\s+8`))
	plan := w.applyChecked(t, "restart", roParamsResources(withRestart, nil), append(counts(1, 2), nothingPending(w, t, testRO),
		stateStringsAre(w, t, testRO, map[string]string{"parameters.innodb_read_io_threads": "8"}))...)
	if ro, p := plan.res[testRO].action, plan.res[primary].action; ro != actUpdate || p != actNoop {
		t.Errorf("restart: planned %s for the read-only instance and %s for the primary, want update and no-op", ro, p)
	}
	expectEmptyPlan(t, "again", w.applyChecked(t, "again", roParamsResources(withRestart, nil)))
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}

// A new read-only instance turned on right after creation (its primary is off) with a parameter
// that needs a restart: the toggle's one restart applies it, and the plan names that one restart
// as possible (the primary's flag is known only at apply).
// At the plugin protocol; the family keeps TestAccInstanceParameters_importStable with terraform.
func TestReadonlyParameters_toggleAfterCreateSharesRestart(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	order := roParamsResources(map[string]string{"innodb_read_io_threads": "8"}, map[string]any{"atomic_write_16k": true})
	order[0].attrs["atomic_write_16k"] = false
	plan := w.applyChecked(t, "create", order, stateFlagIs(w, t, testRO, true), nothingPending(w, t, testRO),
		stateStringsAre(w, t, testRO, map[string]string{"parameters.innodb_read_io_threads": "8"}),
		restartsAre(env, w, t, testRO, 1), restartsAre(env, w, t, "rds_instance.primary", 0))
	// The primary is created in the same apply: its flag is known only then, so the plan names the
	// read-only instance's restart as possible, once.
	if now, possible, _ := plannedRestarts(plan, order); possible["new:"+testRO] != 1 || now["new:"+testRO] != 0 {
		t.Errorf("create: the program restarts the new read-only instance %d times and possibly %d, want possibly once",
			now["new:"+testRO], possible["new:"+testRO])
	}
	if warn := warningText(plan.res[testRO].diags); strings.Count(warn, "may restart RDS instance") != 1 {
		t.Errorf("create: warnings %q, want one possible restart of the read-only instance", warn)
	}
	expectEmptyPlan(t, "again", w.applyChecked(t, "again", order))
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}
