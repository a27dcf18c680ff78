package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// deferredResources is an instance with a class, a flag, apply_restarts and the test window.
func deferredResources(class string, flag bool, applyRestarts string) []oracleResource {
	return []oracleResource{{addr: testRes, attrs: map[string]any{
		"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": 20, "instance_name": "acctest",
		"maintenance_window": realClockWindow, "apply_restarts": applyRestarts, "atomic_write_16k": flag,
	}}}
}

// scheduledWindow is the window of the state's scheduled_change, "" when it is null.
func (w *oracleWorld) scheduledWindow(t *testing.T) string {
	t.Helper()
	v := attrOf(w.state[testRes], "scheduled_change")
	if v.IsNull() {
		return ""
	}
	var window string
	if err := attrOf(v, "window").As(&window); err != nil {
		t.Fatalf("scheduled_change.window: %v", err)
	}
	return window
}

// checkedStep applies order as a terraform step does: checks must pass on the state the apply
// wrote, before the plan that must be empty (a terraform step's Check runs there too). It sets id.
func (w *oracleWorld) checkedStep(t *testing.T, name string, order []oracleResource, id *string, checks ...resource.TestCheckFunc) *oraclePlan {
	t.Helper()
	setID := func(*terraform.State) error {
		*id = w.stateAttr(t, testRes, "id")
		return nil
	}
	return w.applyChecked(t, name, order, append([]resource.TestCheckFunc{setID}, checks...)...)
}

// deferredStep is a checkedStep whose state must also have scheduled as scheduled_change's window
// ("" for none).
func (w *oracleWorld) deferredStep(t *testing.T, name string, order []oracleResource, scheduled string, id *string,
	checks ...resource.TestCheckFunc,
) *oraclePlan {
	t.Helper()
	window := func(*terraform.State) error {
		if got := w.scheduledWindow(t); got != scheduled {
			return fmt.Errorf("scheduled_change.window %q, want %q", got, scheduled)
		}
		return nil
	}
	return w.checkedStep(t, name, order, id, append([]resource.TestCheckFunc{window}, checks...)...)
}

// A deferred change: the apply returns without a restart, plans stay empty while it is pending, the
// window makes exactly one restart for class + flag (two orders before the window), and the state then
// matches the cloud. The steps and checks of a terraform test, played at the plugin protocol with the
// simulator on the oracle's clock (the maintenance family keeps its terraform tests).
func TestMaintenance_instanceRestarts(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const small, large, xlarge = "mysql.n2.medium.2c", "mysql.n2.large.2c", "mysql.x4.large.2c"
	step := func(name string, order []oracleResource, scheduled string, checks ...resource.TestCheckFunc) *oraclePlan {
		t.Helper()
		return w.deferredStep(t, name, order, scheduled, &id, checks...)
	}
	flagOn := func(name string) {
		t.Helper()
		var on bool
		if err := attrOf(w.state[testRes], "atomic_write_16k").As(&on); err != nil || !on {
			t.Errorf("%s: state atomic_write_16k %v (%v), want true", name, on, err)
		}
	}
	empty := func(name string, plan *oraclePlan) {
		t.Helper()
		if a := plan.res[testRes].action; a != actNoop {
			t.Errorf("%s: planned %s, want an empty plan", name, a)
		}
	}
	step("create", deferredResources(small, false, "in_maintenance_window"), "", env.checkCounts(&id, 0, 0))
	if got := w.stateAttr(t, testRes, "maintenance_window"); got != realClockWindow {
		t.Errorf("create: maintenance_window %q, want %q", got, realClockWindow)
	}
	// The flag: deferred. The apply sends one order and restarts nothing.
	plan := step("flag", deferredResources(small, true, "in_maintenance_window"), realClockWindow,
		env.checkCounts(&id, 0, 1), env.checkClassInCloud(&id, small))
	if p := plan.res[testRes]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("flag: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	flagOn("flag")
	// Still pending: the same configuration plans nothing.
	empty("pending", step("pending", deferredResources(small, true, "in_maintenance_window"), realClockWindow, env.checkCounts(&id, 0, 1)))
	// The class too, before the window: the order replaces the pending one.
	step("class", deferredResources(large, true, "in_maintenance_window"), realClockWindow,
		env.checkCounts(&id, 0, 2), env.checkClassInCloud(&id, small))
	flagOn("class")
	// The window passes: one restart for both changes; the state matches the cloud.
	env.advance()()
	empty("window", step("window", deferredResources(large, true, "in_maintenance_window"), "",
		env.checkCounts(&id, 1, 2), env.checkClassInCloud(&id, large)))
	flagOn("window")
	// Deferred, then apply_restarts = "immediately" before the window: applied now, once.
	step("xlarge deferred", deferredResources(xlarge, true, "in_maintenance_window"), realClockWindow,
		env.checkCounts(&id, 1, 3), env.checkClassInCloud(&id, large))
	step("immediately", deferredResources(xlarge, true, "immediately"), "",
		env.checkCounts(&id, 2, 4), env.checkClassInCloud(&id, xlarge))
	env.advance()()
	empty("after", step("after", deferredResources(xlarge, true, "immediately"), "", env.checkCounts(&id, 2, 4)))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// A pending change can be withdrawn by reverting the configuration (no restart ever), and a window
// that passes without the change shows as drift. At the plugin protocol, as
// TestMaintenance_instanceRestarts.
func TestMaintenance_instanceRevertAndMissed(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const small, large = "mysql.n2.medium.2c", "mysql.n2.large.2c"
	w.deferredStep(t, "create", deferredResources(small, true, "in_maintenance_window"), "", &id)
	w.deferredStep(t, "large", deferredResources(large, true, "in_maintenance_window"), realClockWindow, &id)
	// Reverted before the window: the pending change is cancelled.
	w.deferredStep(t, "revert", deferredResources(small, true, "in_maintenance_window"), "", &id)
	env.advance()()
	plan := w.deferredStep(t, "window", deferredResources(small, true, "in_maintenance_window"), "", &id,
		env.checkCounts(&id, 0, 2), env.checkClassInCloud(&id, small))
	if a := plan.res[testRes].action; a != actNoop {
		t.Errorf("window: planned %s, want an empty plan", a)
	}
	w.deferredStep(t, "large again", deferredResources(large, true, "in_maintenance_window"), realClockWindow, &id)
	// The window passed without the change: the plan shows it again.
	env.missWindow(t, &id)()
	missed, err := w.planWalk(deferredResources(large, true, "in_maintenance_window"))
	if err != nil || missed.errAt != "" {
		t.Fatalf("missed: %v %s", err, missed.errMsg)
	}
	if a := missed.res[testRes].action; a == actNoop {
		t.Errorf("missed: the plan is empty, want the missed change again")
	}
	w.deferredStep(t, "immediately", deferredResources(large, true, "immediately"), "", &id,
		env.checkCounts(&id, 1, 4), env.checkClassInCloud(&id, large))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// deferredParamsResources is deferredParamsConfig at the protocol: the instance with back_log and
// innodb_io_capacity and a 30 s update timeout.
func deferredParamsResources(class string, flag bool, applyRestarts, backLog string) []oracleResource {
	order := deferredResources(class, flag, applyRestarts)
	order[0].attrs["parameters"] = map[string]string{"back_log": backLog, "innodb_io_capacity": "4000"}
	order[0].attrs["timeouts"] = map[string]any{"update": "30s"}
	return order
}

// stringMapAttr is a map attribute of addr's state ({} when null).
func (w *oracleWorld) stringMapAttr(t *testing.T, addr, attr string) map[string]string {
	t.Helper()
	return stringMapOf(t, addr+"."+attr, attrOf(w.state[addr], attr))
}

// stringMapOf is v, a map of strings named what ({} when null).
func stringMapOf(t *testing.T, what string, v tftypes.Value) map[string]string {
	t.Helper()
	m := map[string]string{}
	if !v.IsNull() {
		var elems map[string]tftypes.Value
		if err := v.As(&elems); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for k, e := range elems {
			var s string
			if err := e.As(&s); err != nil {
				t.Fatalf("%s[%s]: %v", what, k, err)
			}
			m[k] = s
		}
	}
	return m
}

// scheduledChanges is the state's scheduled_change.changes joined with "; " ("" when null).
func (w *oracleWorld) scheduledChanges(t *testing.T) string {
	t.Helper()
	v := attrOf(w.state[testRes], "scheduled_change")
	if v.IsNull() {
		return ""
	}
	var elems []tftypes.Value
	if err := attrOf(v, "changes").As(&elems); err != nil {
		t.Fatalf("scheduled_change.changes: %v", err)
	}
	all := make([]string, len(elems))
	for i, e := range elems {
		if err := e.As(&all[i]); err != nil {
			t.Fatalf("scheduled_change.changes[%d]: %v", i, err)
		}
	}
	return strings.Join(all, "; ")
}

// Restart-needing parameters deferred on their own and then with a class and flag change across
// two applies: with a one-hour restart and a 30 s update timeout each deferred apply succeeds
// (it never waits for a restart: none happens, the instance stays Running and is read only a few
// times), plans stay empty while pending, the window restarts the instance exactly once for all
// of it, a value set back before the window is withdrawn (no restart), and a missed window shows
// the parameter as drift. The steps and checks of a terraform test, played at the plugin protocol
// (the maintenance family keeps TestAccMaintenance_readonlyWindow with terraform).
func TestMaintenance_instanceParameters(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.RestartDuration = time.Hour
	env, w := envWorld(t, opts)
	reads := &attributeReads{env: env}
	var id string
	const small, large = "mysql.n2.medium.2c", "mysql.n2.large.2c"
	cfg := func(class string, flag bool, backLog string) []oracleResource {
		return deferredParamsResources(class, flag, "in_maintenance_window", backLog)
	}
	step := func(name string, order []oracleResource, scheduled string, checks ...resource.TestCheckFunc) *oraclePlan {
		t.Helper()
		return w.deferredStep(t, name, order, scheduled, &id, checks...)
	}
	pending := func(name string, want map[string]string) {
		t.Helper()
		if got := w.stringMapAttr(t, testRes, "parameters_pending"); !maps.Equal(got, want) {
			t.Errorf("%s: parameters_pending %v, want %v", name, got, want)
		}
	}
	changes := func(name string, substrings ...string) {
		t.Helper()
		all := w.scheduledChanges(t)
		for _, want := range substrings {
			if !strings.Contains(all, want) {
				t.Errorf("%s: scheduled_change.changes %q do not name %q", name, all, want)
			}
		}
	}
	empty := func(name string, plan *oraclePlan) {
		t.Helper()
		if a := plan.res[testRes].action; a != actNoop {
			t.Errorf("%s: planned %s, want an empty plan", name, a)
		}
	}
	flagIs := func(name string, want bool) {
		t.Helper()
		var on bool
		if err := attrOf(w.state[testRes], "atomic_write_16k").As(&on); err != nil || on != want {
			t.Errorf("%s: state atomic_write_16k %v (%v), want %v", name, on, err, want)
		}
	}
	step("create", cfg(small, true, "3000"), "", env.checkCounts(&id, 0, 0))
	pending("create", map[string]string{})
	// Parameters alone: the plan says when; the apply restarts nothing and waits for nothing.
	reads.mark()
	plan := step("parameters", cfg(small, true, "4000"), realClockWindow, env.checkCounts(&id, 0, 0),
		env.checkParamsInCloud(&id, "3000", "4000"), env.checkClassInCloud(&id, small), reads.atMost(5))
	p := plan.res[testRes]
	if p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("parameters: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	if v := attrOf(p.planned, "parameters_pending"); !v.Equal(tftypes.NewValue(v.Type(), map[string]tftypes.Value{"back_log": tftypes.NewValue(tftypes.String, "4000")})) {
		t.Errorf("parameters: planned parameters_pending %v, want {back_log = 4000}", v)
	}
	pending("parameters", map[string]string{"back_log": "4000"})
	changes("parameters", "back_log 3000 -> 4000")
	// Pending: the same configuration plans nothing.
	empty("pending", step("pending", cfg(small, true, "4000"), realClockWindow))
	// Class and flag too, in a second apply before the window: still no restart.
	reads.mark()
	step("class and flag", cfg(large, false, "4000"), realClockWindow, env.checkCounts(&id, 0, 1),
		env.checkClassInCloud(&id, small), reads.atMost(5))
	pending("class and flag", map[string]string{"back_log": "4000"})
	flagIs("class and flag", false)
	changes("class and flag", "instance_type", "atomic_write_16k changes from true to false", "back_log 3000 -> 4000")
	empty("pending again", step("pending again", cfg(large, false, "4000"), realClockWindow))
	// The window: exactly one restart for flag, class and parameters; the state matches the cloud.
	env.sim.AdvanceClock(26 * time.Hour)
	empty("window", step("window", cfg(large, false, "4000"), "", env.checkCounts(&id, 1, 1),
		env.checkClassInCloud(&id, large), env.checkParamsInCloud(&id, "4000", "")))
	pending("window", map[string]string{})
	flagIs("window", false)
	step("5000", cfg(large, false, "5000"), realClockWindow, env.checkCounts(&id, 1, 1), env.checkParamsInCloud(&id, "4000", "5000"))
	pending("5000", map[string]string{"back_log": "5000"})
	// Set back before the window: the waiting value is withdrawn, nothing is pending any more.
	plan = step("set back", cfg(large, false, "4000"), "", env.checkCounts(&id, 1, 1), env.checkParamsInCloud(&id, "4000", ""))
	if v := attrOf(plan.res[testRes].planned, "scheduled_change"); v.IsKnown() {
		t.Errorf("set back: planned scheduled_change %v, want unknown", v)
	}
	pending("set back", map[string]string{})
	// Nothing happens at the next window.
	env.sim.AdvanceClock(26 * time.Hour)
	empty("next window", step("next window", cfg(large, false, "4000"), "", env.checkCounts(&id, 1, 1)))
	step("5000 again", cfg(large, false, "5000"), realClockWindow)
	pending("5000 again", map[string]string{"back_log": "5000"})
	// The window passed without it: the cloud withdrew the value, the plan shows it again.
	env.missWindow(t, &id)()
	missed, err := w.planWalk(cfg(large, false, "5000"))
	if err != nil || missed.errAt != "" {
		t.Fatalf("missed: %v %s", err, missed.errMsg)
	}
	if a := missed.res[testRes].action; a == actNoop {
		t.Errorf("missed: the plan is empty, want the missed parameter again")
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// readonlyDeferredResources is a primary (16K off) and one read-only instance of class with
// back_log, window and apply_restarts = "in_maintenance_window" (TestMaintenance_readonlyRestarts).
func readonlyDeferredResources(class, backLog, window string) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "orders", "atomic_write_16k": false}
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": class,
		"storage": 100, "instance_name": "reporting-0", "maintenance_window": window,
		"apply_restarts": "in_maintenance_window", "parameters": map[string]string{"back_log": backLog},
		"timeouts": map[string]any{"update": "30s"}}
	return []oracleResource{{addr: "rds_instance.primary", attrs: primary}, {addr: testRO, attrs: ro}}
}

// apply_restarts on a read-only instance, with the same deferral as rds_instance: a class change
// and a restart-needing parameter wait for the window (no restart, no wait with a one-hour
// restart and a 30 s timeout), plans stay empty while pending, and the window restarts the
// read-only instance exactly once for both. The steps and checks of a terraform test, played at
// the plugin protocol.
func TestMaintenance_readonlyRestarts(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.RestartDuration = time.Hour
	env, w := envWorld(t, opts)
	// The deferring apply also moves the window one hour later: the change goes to the new one.
	var start int
	_, _ = fmt.Sscanf(realClockWindow, "%02d", &start)
	later := fmt.Sprintf("%02d:00Z-%02d:00Z", (start+1)%24, (start+2)%24)
	const medium, large = "mysqlro.n2.medium.1c", "mysqlro.n2.large.1c"
	var id string
	step := func(name string, order []oracleResource, scheduled bool, checks ...func()) *oraclePlan {
		t.Helper()
		plan, err := w.applyStep(order, func() {
			id = w.stateAttr(t, testRO, "id")
			window := ""
			if v := attrOf(w.state[testRO], "scheduled_change"); !v.IsNull() {
				if err := attrOf(v, "window").As(&window); err != nil {
					t.Errorf("%s: scheduled_change.window: %v", name, err)
				}
			}
			if want := map[bool]string{true: later, false: ""}[scheduled]; window != want {
				t.Errorf("%s: scheduled_change.window %q, want %q", name, window, want)
			}
			for _, c := range checks {
				c()
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return plan
	}
	restartsAndClass := func(name string, restarts int, class string) func() {
		return func() {
			if got := env.restarts(id); got != restarts {
				t.Errorf("%s: the read-only instance restarted %d times, want %d", name, got, restarts)
			}
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
			if err != nil || a.DBInstanceClass != class || a.DBInstanceStatus != "Running" {
				t.Errorf("%s: read-only instance is %v (%v), want %s Running", name, a, err, class)
			}
		}
	}
	empty := func(name string, plan *oraclePlan) {
		t.Helper()
		for addr, p := range plan.res {
			if p.action != actNoop {
				t.Errorf("%s: planned %s for %s, want an empty plan", name, p.action, addr)
			}
		}
	}
	step("create", readonlyDeferredResources(medium, "3000", realClockWindow), false)
	plan := step("deferred", readonlyDeferredResources(large, "4000", later), true, restartsAndClass("deferred", 0, medium), func() {
		startsAt := ""
		_ = attrOf(attrOf(w.state[testRO], "scheduled_change"), "starts_at").As(&startsAt)
		if !strings.HasSuffix(startsAt, fmt.Sprintf("T%02d:00:00Z", (start+1)%24)) {
			t.Errorf("deferred: scheduled_change.starts_at %q, want in the later window", startsAt)
		}
		if got := w.stateAttr(t, testRO, "instance_type"); got != large {
			t.Errorf("deferred: instance_type %q, want %q", got, large)
		}
		if got := w.stringMapAttr(t, testRO, "parameters_pending"); !maps.Equal(got, map[string]string{"back_log": "4000"}) {
			t.Errorf("deferred: parameters_pending %v, want back_log 4000", got)
		}
	})
	if p := plan.res[testRO]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("deferred: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	empty("pending", step("pending", readonlyDeferredResources(large, "4000", later), true))
	env.sim.AdvanceClock(26 * time.Hour)
	empty("window", step("window", readonlyDeferredResources(large, "4000", later), false, restartsAndClass("window", 1, large)))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := roAccCheckDestroy(env)(nil); err != nil {
		t.Error(err)
	}
}
