package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// deferredResources is an instance with a class, a flag, apply_restarts and the test window.
func deferredResources(class string, flag bool, applyRestarts string) []oracleResource {
	return []oracleResource{{addr: testRes, attrs: map[string]any{
		"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": 20, "instance_name": "acctest",
		"maintenance_window": testWindow, "apply_restarts": applyRestarts, "atomic_write_16k": flag,
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

// deferredStep applies order as a terraform step does; the state the apply wrote must have
// scheduled as scheduled_change's window ("" for none), and checks must pass afterwards. It sets id.
func (w *oracleWorld) deferredStep(t *testing.T, name string, order []oracleResource, scheduled string, id *string,
	checks ...resource.TestCheckFunc,
) *oraclePlan {
	t.Helper()
	plan, err := w.applyStep(order, func() {
		*id = w.stateAttr(t, testRes, "id")
		if got := w.scheduledWindow(t); got != scheduled {
			t.Errorf("%s: scheduled_change.window %q, want %q", name, got, scheduled)
		}
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, c := range checks {
		if err := c(nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	return plan
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
	if got := w.stateAttr(t, testRes, "maintenance_window"); got != testWindow {
		t.Errorf("create: maintenance_window %q, want %q", got, testWindow)
	}
	// The flag: deferred. The apply sends one order and restarts nothing.
	plan := step("flag", deferredResources(small, true, "in_maintenance_window"), testWindow,
		env.checkCounts(&id, 0, 1), env.checkClassInCloud(&id, small))
	if p := plan.res[testRes]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("flag: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	flagOn("flag")
	// Still pending: the same configuration plans nothing.
	empty("pending", step("pending", deferredResources(small, true, "in_maintenance_window"), testWindow, env.checkCounts(&id, 0, 1)))
	// The class too, before the window: the order replaces the pending one.
	step("class", deferredResources(large, true, "in_maintenance_window"), testWindow,
		env.checkCounts(&id, 0, 2), env.checkClassInCloud(&id, small))
	flagOn("class")
	// The window passes: one restart for both changes; the state matches the cloud.
	env.advance()()
	empty("window", step("window", deferredResources(large, true, "in_maintenance_window"), "",
		env.checkCounts(&id, 1, 2), env.checkClassInCloud(&id, large)))
	flagOn("window")
	// Deferred, then apply_restarts = "immediately" before the window: applied now, once.
	step("xlarge deferred", deferredResources(xlarge, true, "in_maintenance_window"), testWindow,
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
	w.deferredStep(t, "large", deferredResources(large, true, "in_maintenance_window"), testWindow, &id)
	// Reverted before the window: the pending change is cancelled.
	w.deferredStep(t, "revert", deferredResources(small, true, "in_maintenance_window"), "", &id)
	env.advance()()
	plan := w.deferredStep(t, "window", deferredResources(small, true, "in_maintenance_window"), "", &id,
		env.checkCounts(&id, 0, 2), env.checkClassInCloud(&id, small))
	if a := plan.res[testRes].action; a != actNoop {
		t.Errorf("window: planned %s, want an empty plan", a)
	}
	w.deferredStep(t, "large again", deferredResources(large, true, "in_maintenance_window"), testWindow, &id)
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
