package provider

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// paramsResources is instanceConfig with a parameters map (and extra attributes) at the protocol.
func paramsResources(params map[string]string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 20, "instance_name": "acctest", "parameters": params}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// emptyOrNull: a flatmapped state holds neither a null nor an empty collection.
func emptyOrNull(v tftypes.Value) bool {
	if v.IsNull() {
		return true
	}
	var elems []tftypes.Value
	var m map[string]tftypes.Value
	return (v.As(&elems) == nil && len(elems) == 0) || (v.As(&m) == nil && len(m) == 0)
}

// importVerify is a terraform import step with ImportStateVerify: addr imported by its id must have
// the state's attributes (ignore, timeouts, and empty against null aside); the state is kept.
func (w *oracleWorld) importVerify(t *testing.T, addr string, ignore ...string) {
	t.Helper()
	before, priv := w.state[addr], w.priv[addr]
	if err := w.importInstance(addr, w.stateAttr(t, addr, "id")); err != nil {
		t.Fatal(err)
	}
	imported := w.state[addr]
	w.state[addr], w.priv[addr] = before, priv
	for name, want := range attrsOf(before) {
		if name == "timeouts" || slicesHasPrefix(ignore, name) {
			continue
		}
		got := attrOf(imported, name)
		if !sameValue(want, got) && (!emptyOrNull(want) || !emptyOrNull(got)) {
			t.Errorf("import of %s: %s is %s, the state has %s", addr, name, shortValue(got), shortValue(want))
		}
	}
}

func slicesHasPrefix(prefixes []string, name string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// The parameters' life at the plugin protocol: online parameters at create and changed without a
// restart; a restart-needing one refused with prevent_restart, then applied with exactly one
// restart; drift of a managed parameter put back online; an unmanaged one waiting for a restart
// shown as pending without a diff; a managed one waiting withdrawn without a restart; import; a
// removed key no longer managed (nothing sent). The steps and checks of a terraform test (the
// parameters family keeps its other terraform tests).
func TestInstanceParameters_onlineRestartDriftImport(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	online := map[string]string{"innodb_io_capacity": "4000", "innodb_flush_neighbors": "0"}
	online2 := map[string]string{"innodb_io_capacity": "6000", "innodb_flush_neighbors": "0", "sync_binlog": "1000"}
	withRestart := map[string]string{"innodb_io_capacity": "6000", "innodb_flush_neighbors": "0", "sync_binlog": "1000", "innodb_read_io_threads": "8"}
	step := func(name string, order []oracleResource, checks ...resource.TestCheckFunc) *oraclePlan {
		t.Helper()
		return w.checkedStep(t, name, order, &id, checks...)
	}
	stateParams := func(attr string, want map[string]string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got := w.stringMapAttr(t, testRes, attr)
			for k, v := range want {
				if got[k] != v {
					return fmt.Errorf("state %s %v, want %s = %s", attr, got, k, v)
				}
			}
			if attr == "parameters_pending" && len(got) != len(want) {
				return fmt.Errorf("state parameters_pending %v, want %v", got, want)
			}
			return nil
		}
	}
	// planned checks the plan's action for the instance and, when want is not nil, its planned
	// parameters_pending (all of it) or one planned parameter (want's one entry).
	planned := func(name string, plan *oraclePlan, action oracleAction, attr string, want map[string]string) {
		t.Helper()
		p := plan.res[testRes]
		if p.action != action {
			t.Errorf("%s: planned %s, want %s", name, p.action, action)
		}
		if want == nil {
			return
		}
		got := plannedStrings(t, attrOf(p.planned, attr))
		if attr == "parameters_pending" && !maps.Equal(got, want) {
			t.Errorf("%s: planned parameters_pending %v, want %v", name, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: planned %s %v, want %s = %s", name, attr, got, k, v)
			}
		}
	}
	// Create with online parameters: set right after creation, no restart; innodb_flush_neighbors
	// already runs 0, so only innodb_io_capacity is sent.
	plan := step("create", paramsResources(online, nil), stateParams("parameters", map[string]string{"innodb_io_capacity": "4000"}),
		stateParams("parameters_pending", map[string]string{}), env.paramCounts(&id, 0, 1, 0))
	planned("create", plan, actCreate, "parameters_pending", map[string]string{})
	// Online change: 0 restarts.
	plan = step("online", paramsResources(online2, nil), stateParams("parameters", map[string]string{"innodb_io_capacity": "6000", "sync_binlog": "1000"}),
		env.paramCounts(&id, 0, 2, 0))
	planned("online", plan, actUpdate, "", nil)
	// A restart-needing change with prevent_restart: refused at plan, naming the parameter.
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, paramsResources(withRestart, map[string]any{"prevent_restart": true})),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*innodb_read_io_threads\s+4\s+->\s+8`))
	// The same change allowed: exactly one restart.
	plan = step("restart", paramsResources(withRestart, nil), stateParams("parameters", map[string]string{"innodb_read_io_threads": "8"}),
		env.paramCounts(&id, 1, 3, 0))
	planned("restart", plan, actUpdate, "parameters_pending", map[string]string{})
	planned("again", step("again", paramsResources(withRestart, nil), env.paramCounts(&id, 1, 3, 0)), actNoop, "", nil)
	// Drift: a managed parameter changed outside Terraform shows in the plan and is put back, online.
	env.outside(t, &id, "innodb_io_capacity", "7000")()
	plan = step("drift", paramsResources(withRestart, nil), stateParams("parameters", map[string]string{"innodb_io_capacity": "6000"}),
		env.paramCounts(&id, 1, 5, 0)) // the outside change and the fix
	planned("drift", plan, actUpdate, "parameters", map[string]string{"innodb_io_capacity": "6000"})
	// An unmanaged parameter set outside without a restart shows as pending, without a diff.
	env.outside(t, &id, "back_log", "5000")()
	plan = step("unmanaged pending", paramsResources(withRestart, nil), stateParams("parameters_pending", map[string]string{"back_log": "5000"}))
	planned("unmanaged pending", plan, actNoop, "", nil)
	// A managed parameter given another value outside, waiting for a restart: the plan withdraws
	// it by sending the configured value again, without a restart.
	env.outside(t, &id, "innodb_read_io_threads", "16")()
	plan = step("managed waiting", paramsResources(withRestart, nil), env.paramCounts(&id, 1, 8, 0)) // the outside change and the withdrawal
	planned("managed waiting", plan, actUpdate, "parameters_pending", map[string]string{"back_log": "5000"})
	// An import cannot know which parameters the configuration manages: parameters is null until
	// the next apply records them (with no API write, see the next step).
	w.importVerify(t, testRes, "parameters", "parameters_pending")
	// Removing a key stops managing it: nothing is sent, the cloud keeps the value.
	step("key removed", paramsResources(online2, nil), env.paramCounts(&id, 1, 8, 0), func(*terraform.State) error {
		if v := env.running(t, id, "innodb_read_io_threads"); v != "8" {
			return fmt.Errorf("innodb_read_io_threads runs %q after its key was removed, want 8 kept", v)
		}
		return nil
	})
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// plannedStrings is a known map of strings.
func plannedStrings(t *testing.T, v tftypes.Value) map[string]string {
	t.Helper()
	var elems map[string]tftypes.Value
	if err := v.As(&elems); err != nil {
		t.Fatalf("%v: %v", v, err)
	}
	out := map[string]string{}
	for k, e := range elems {
		var s string
		if err := e.As(&s); err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		out[k] = s
	}
	return out
}
