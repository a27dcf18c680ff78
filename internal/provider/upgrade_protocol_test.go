package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// envWorld is a test env whose simulator runs on an oracle clock, and an oracle world whose
// provider (in-process, over the plugin protocol) talks to it: an acceptance test without terraform.
func envWorld(t *testing.T, opts simulator.Options) (*testEnv, *oracleWorld) {
	clock := &oracleClock{now: time.Now().UTC()}
	opts.Now = clock.Now
	env := newTestEnv(t, opts)
	h := newOracleHarness(t)
	h.url, h.maxRetries = env.srv.URL, defaultMaxRetries
	return env, &oracleWorld{h: h, sim: env.sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}}
}

// upgradeResources is upgradeConfig at the protocol: a primary on version with one read-only
// instance (on roVersion, or the primary's when empty; none with noReadOnly); preventRestart sets
// prevent_restart on the primary.
func upgradeResources(version, roVersion string, preventRestart bool) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": version, "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "upgrade"}
	if preventRestart {
		primary["prevent_restart"] = true
	}
	order := []oracleResource{{addr: testRes, attrs: primary}}
	if roVersion == noReadOnly {
		return order
	}
	ro := map[string]any{"master_instance_id": oracleRef{testRes, "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 100}
	if roVersion != "" {
		ro["engine_version"] = roVersion
	}
	return append(order, oracleResource{addr: testRO, attrs: ro})
}

// planErrorOf is the first failing resource's errors in full, "" when the plan succeeds.
func (w *oracleWorld) planErrorOf(t *testing.T, order []oracleResource) string {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	if plan.errAt == "" {
		return ""
	}
	return errorsText(plan.res[plan.errAt].diags)
}

func (w *oracleWorld) stateAttr(t *testing.T, addr, attr string) string {
	t.Helper()
	var s string
	if err := attrOf(w.state[addr], attr).As(&s); err != nil {
		t.Fatalf("%s.%s: %v", addr, attr, err)
	}
	return s
}

// Issue 25 §1: a major version upgrade in place. Read-only instances on the old version are named at
// plan with the order (nothing is sent); upgraded first, they let the primary upgrade in place with
// one switchover; a downgrade is a replacement, named as one. The same steps and checks as a
// terraform test, played at the plugin protocol (TestAccUpgradeEngineVersionParameters keeps the
// family's terraform test).
func TestUpgradeEngineVersionInPlace(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	mustApply := func(step string, order []oracleResource) *oraclePlan {
		t.Helper()
		plan, err := w.applyStep(order)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return plan
	}
	refused := func(step string, order []oracleResource, want string) {
		t.Helper()
		expectErrorText(t, step, w.planErrorOf(t, order), regexp.MustCompile(want))
	}
	check := func(step string, c resource.TestCheckFunc) {
		t.Helper()
		if err := c(nil); err != nil {
			t.Errorf("%s: %v", step, err)
		}
	}
	mustApply("create", upgradeResources("5.7", "", false))
	id := w.stateAttr(t, testRes, "id")
	// One step at a time, and the read-only instance first: both refused at plan.
	refused("8.4", upgradeResources("8.4", "", false), `(?s)cannot upgrade .* from MySQL 5.7 to 8.4 in one step.*Upgrade the read-only instances`)
	refused("8.0", upgradeResources("8.0", "", false), `(?s)Upgrade the read-only instances of rm-.*\(MySQL 5.7\).*-target=rds_readonly_instance`)
	// Nothing was sent.
	mustApply("back to 5.7", upgradeResources("5.7", "", false))
	check("nothing sent", env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 0, 0))
	// The read-only instance first, in place.
	plan := mustApply("read-only 8.0", upgradeResources("5.7", "8.0", false))
	if a, b := plan.res[testRO].action, plan.res[testRes].action; a != actUpdate || b != actNoop {
		t.Errorf("read-only 8.0: planned %s for %s and %s for %s, want update and no-op", a, testRO, b, testRes)
	}
	if ro, p := w.stateAttr(t, testRO, "engine_version"), w.stateAttr(t, testRes, "engine_version"); ro != "8.0" || p != "5.7" {
		t.Errorf("read-only 8.0: state has %s on 8.0? %s, primary %s", testRO, ro, p)
	}
	check("read-only 8.0", env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 1, 0))
	// prevent_restart refuses the switchover at plan; nothing is sent.
	refused("prevent_restart", upgradeResources("8.0", "8.0", true),
		`(?s)prevent_restart refuses this plan: it restarts RDS instance rm-.*engine_version changes from 5.7 to 8.0 \(major version upgrade in place: a switchover`)
	// Then the primary: in place, one switchover (the step's empty plan after it is applyStep's).
	plan = mustApply("primary 8.0", upgradeResources("8.0", "8.0", false))
	if a := plan.res[testRes].action; a != actUpdate {
		t.Errorf("primary 8.0: planned %s, want update", a)
	}
	if v := w.stateAttr(t, testRes, "engine_version"); v != "8.0" {
		t.Errorf("primary 8.0: state engine_version %s", v)
	}
	if got := w.stateAttr(t, testRes, "id"); got != id {
		t.Errorf("the instance was replaced: %s, was %s", got, id)
	}
	check("primary 8.0", env.checkOrders("UpgradeDBInstanceEngineVersion", &id, 2, 1))
	check("primary 8.0", env.checkCounts(&id, 1, 0))
	// A downgrade is a replacement, named as one (prevent_restart refuses it).
	refused("downgrade", upgradeResources("5.7", "8.0", true), `(?s)prevent_restart refuses this plan: it replaces rm-.*engine_version forces`)
	mustApply("destroy", nil)
	check("destroy", env.checkDestroyed())
}

// apply_restarts = "in_maintenance_window" defers the upgrade: the apply returns at once, plans
// stay empty while it waits (another version is refused), and the window upgrades the instance
// with one switchover. The steps and checks of a terraform test, played at the plugin protocol.
func TestUpgradeEngineVersionInMaintenanceWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const upgrade = "UpgradeDBInstanceEngineVersion"
	deferred := func(version string) []oracleResource {
		order := upgradeResources(version, noReadOnly, false)
		order[0].attrs["maintenance_window"], order[0].attrs["apply_restarts"] = realClockWindow, "in_maintenance_window"
		return order
	}
	cloudVersion := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
			if err != nil {
				return err
			}
			if string(a.EngineVersion) != want {
				return fmt.Errorf("the cloud runs %s, want %s", a.EngineVersion, want)
			}
			return nil
		}
	}
	empty := func(name string, plan *oraclePlan) {
		t.Helper()
		if a := plan.res[testRes].action; a != actNoop {
			t.Errorf("%s: planned %s, want an empty plan", name, a)
		}
	}
	w.deferredStep(t, "create", deferred("5.7"), "", &id)
	plan := w.deferredStep(t, "8.0", deferred("8.0"), realClockWindow, &id, env.checkOrders(upgrade, &id, 1, 0), cloudVersion("5.7"))
	if p := plan.res[testRes]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("8.0: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	if v := w.stateAttr(t, testRes, "engine_version"); v != "8.0" {
		t.Errorf("8.0: state engine_version %s", v)
	}
	empty("pending", w.deferredStep(t, "pending", deferred("8.0"), realClockWindow, &id))
	expectErrorText(t, "5.7 while pending", w.planErrorOf(t, deferred("5.7")),
		regexp.MustCompile(`(?s)The upgrade of rm-.* to MySQL 8.0 waits for the maintenance window`))
	env.advance()()
	empty("window", w.deferredStep(t, "window", deferred("8.0"), "", &id, env.checkOrders(upgrade, &id, 1, 1), cloudVersion("8.0")))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}
