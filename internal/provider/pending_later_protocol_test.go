package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Issue 39 §2: later runs meet what waits for the maintenance window. One test per reported
// defect, at the plugin protocol with the simulator on the oracle's clock; each decision is a row
// of rdsservice.PendingBehaviours (the guide "Changes waiting for the maintenance window").

// Item 9: rds_apply_pending on a primary whose toggle waits for the window, with a read-only
// instance announced to follow it there: the action's plan names both restarts, and the invoke
// makes exactly those (the read-only instance follows now).
func TestPendingLater_applyPendingNamesTheFollower(t *testing.T) {
	t.Parallel()
	w := auditPendingToggle(t)
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	text := diagSummaries(planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": primary}))
	if !strings.Contains(text, primary) || !strings.Contains(text, ro+" (read-only instance)") {
		t.Fatalf("plan of rds_apply_pending names %q, want both %s and its read-only instance %s", text, primary, ro)
	}
	before := w.sim.Stats().Restarts[ro]
	if _, diags := invokeAction(t, w, "rds_apply_pending", map[string]any{"instance_id": primary}); diagsHaveError(diags) {
		t.Fatalf("invoke: %s", diagSummaries(diags))
	}
	if got := w.sim.Stats().Restarts[ro] - before; got != 1 {
		t.Errorf("the read-only instance restarted %d times during the invoke, want the 1 the plan named", got)
	}
}

// openNowWindow is a two-hour maintenance window that is open at the simulator's time.
func openNowWindow(w *oracleWorld) string {
	h := w.clock.Now().UTC().Hour()
	return fmt.Sprintf("%02d:00Z-%02d:00Z", h, (h+2)%24)
}

// expectPendingMoves checks that addr's plan names the pending task's restart during this apply
// (the new window is open now: the cloud runs the task right away) and leaves scheduled_change to
// the apply (unknown).
func expectPendingMoves(t *testing.T, name string, plan *oraclePlan, addr, window string) {
	t.Helper()
	expectWarning(t, name, plan, addr, regexp.MustCompile(`(?s)This apply restarts.*maintenance_window `+
		regexp.QuoteMeta(window)+` is open now: the cloud runs this right away, during the apply`))
	for _, d := range plan.res[addr].decisions {
		for _, r := range d.Program.Restarts() {
			if r.When != "" {
				t.Errorf("%s: the plan names a restart %q, want it during this apply", name, r.When)
			}
		}
	}
	if v := attrOf(plan.res[addr].planned, "scheduled_change"); v.IsKnown() {
		t.Errorf("%s: planned scheduled_change %v, want unknown (the task moves to the new window)", name, v)
	}
}

// Item 4: a 5.7 -> 8.0 upgrade waits; maintenance_window moves to one open now. The task moves
// with the window and the cloud runs it; the apply sends the window only (never the upgrade
// again, which failed with InvalidEngineVersion.Downgrade), and the plan names the restart during
// this apply, when the cloud runs the task in the window that is open now (issue 39 §4).
func TestPendingLater_upgradeMovesWithTheWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const upgrade = "UpgradeDBInstanceEngineVersion"
	deferred := func(version, window string) []oracleResource {
		order := upgradeResources(version, noReadOnly, false)
		order[0].attrs["maintenance_window"], order[0].attrs["apply_restarts"] = window, "in_maintenance_window"
		return order
	}
	w.deferredStep(t, "create", deferred("5.7", realClockWindow), "", &id)
	w.deferredStep(t, "8.0", deferred("8.0", realClockWindow), realClockWindow, &id, env.checkOrders(upgrade, &id, 1, 0))
	open := openNowWindow(w)
	plan := w.deferredStep(t, "window now", deferred("8.0", open), "", &id, env.checkOrders(upgrade, &id, 1, 1))
	expectPendingMoves(t, "window now", plan, testRes, open)
	if v := w.stateAttr(t, testRes, "engine_version"); v != "8.0" {
		t.Errorf("window now: state engine_version %s, want 8.0", v)
	}
}

// Item 5: a pending minor version upgrade, then a pending zone move, and maintenance_window moves
// to one open now: the plan names the task's restart during this apply (it said "not during this
// apply" at the old window's time; issue 39 §4), and the cloud makes exactly that one switchover.
func TestPendingLater_minorAndZoneMoveWithTheWindow(t *testing.T) {
	t.Parallel()
	t.Run("minor", func(t *testing.T) {
		t.Parallel()
		env, w := envWorld(t, testSimOptions())
		var id string
		const kernel = "UpgradeDBInstanceKernelVersion"
		minor := func(target, window string) []oracleResource {
			o := minorDeferredResources(target, "Manual")
			o[0].attrs["maintenance_window"] = window
			return o
		}
		w.deferredStep(t, "create", minor("rds_20200229", realClockWindow), "", &id)
		w.deferredStep(t, "deferred", minor("rds_20201031", realClockWindow), realClockWindow, &id, env.checkOrders(kernel, &id, 1, 0))
		open := openNowWindow(w)
		plan := w.deferredStep(t, "window now", minor("rds_20201031", open), "", &id, env.checkOrders(kernel, &id, 1, 1))
		expectPendingMoves(t, "window now", plan, testRes, open)
	})
	t.Run("zone", func(t *testing.T) {
		t.Parallel()
		env, w := envWorld(t, testSimOptions())
		var id string
		toI := map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
		toJ := map[string]any{"zone_id": "cn-hangzhou-j", "vswitch_id": "vsw-zones-j"}
		in := func(window string) map[string]any {
			return map[string]any{"maintenance_window": window, "apply_restarts": "in_maintenance_window"}
		}
		w.deferredStep(t, "create", zoneResources(toI, in(realClockWindow)), "", &id)
		w.deferredStep(t, "move", zoneResources(toJ, in(realClockWindow)), realClockWindow, &id, env.checkOrders("MigrateToOtherZone", &id, 1, 0))
		open := openNowWindow(w)
		plan := w.deferredStep(t, "window now", zoneResources(toJ, in(open)), "", &id, env.checkOrders("MigrateToOtherZone", &id, 1, 1))
		expectPendingMoves(t, "window now", plan, testRes, open)
	})
}

// Item 8: a pending zone move set back before its window is cancelled: the plan names no restart
// and no new move, scheduled_change becomes null, and the window moves nothing. A pending major or
// minor version upgrade set back is refused at plan (no API call withdraws it), and the advice of
// the pending restart's warning says which kinds setting back cancels.
func TestPendingLater_revertCancelsOrIsRefused(t *testing.T) {
	t.Parallel()
	t.Run("zone", func(t *testing.T) {
		t.Parallel()
		env, w := envWorld(t, testSimOptions())
		var id string
		in := map[string]any{"maintenance_window": realClockWindow, "apply_restarts": "in_maintenance_window"}
		toI := map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
		toJ := map[string]any{"zone_id": "cn-hangzhou-j", "vswitch_id": "vsw-zones-j"}
		w.deferredStep(t, "create", zoneResources(toI, in), "", &id)
		w.deferredStep(t, "move", zoneResources(toJ, in), realClockWindow, &id)
		plan := w.deferredStep(t, "revert", zoneResources(toI, in), "", &id, env.checkOrders("MigrateToOtherZone", &id, 2, 0))
		if p := plan.res[testRes]; warningText(p.diags) != "" || len(p.decisions) == 0 || len(p.decisions[0].Program.Restarts()) != 0 {
			t.Errorf("revert: the plan warns %q, want no restart and no move named", warningText(p.diags))
		}
		if got := w.stateAttr(t, testRes, "zone_id"); got != "cn-hangzhou-i" {
			t.Errorf("revert: state zone_id %q, want cn-hangzhou-i", got)
		}
		env.advance()()
		expectEmptyPlan(t, "window", w.deferredStep(t, "window", zoneResources(toI, in), "", &id, env.checkOrders("MigrateToOtherZone", &id, 2, 0)))
	})
	t.Run("upgrades", func(t *testing.T) {
		t.Parallel()
		_, w := envWorld(t, testSimOptions())
		var id string
		order := func(version, target string) []oracleResource {
			o := minorDeferredResources(target, "Manual")
			o[0].attrs["engine_version"] = version
			return o
		}
		w.deferredStep(t, "create", order("8.0", "rds_20200229"), "", &id)
		w.deferredStep(t, "minor", order("8.0", "rds_20201031"), realClockWindow, &id)
		expectErrorText(t, "minor set back", w.planErrorOf(t, order("8.0", "rds_20200229")),
			regexp.MustCompile(`A minor version upgrade of rm-.* already waits for the maintenance window`))
		plan, err := w.planWalk(order("8.0", "rds_20201031"))
		if err != nil || plan.errAt != "" {
			t.Fatalf("pending: %v %s", err, plan.errMsg)
		}
		expectWarning(t, "pending", plan, testRes, regexp.MustCompile(`(?s)a waiting major or minor version upgrade cannot be withdrawn`))
		if strings.Contains(warningText(plan.res[testRes].diags), "set the attributes it changes back to the instance's current values (the apply then orders those") {
			t.Error("pending: the warning still advises setting a minor version upgrade back to cancel it")
		}
	})
}

// Item 6: a zone move waits; a later apply defers atomic_write_16k = false to the same window. The
// toggle is a spec order, which does not replace the move: the plan names both switchovers,
// scheduled_change keeps the move with the toggle, later plans name both, and the window makes
// exactly those two.
func TestPendingLater_moreWorkBesideAWaitingMove(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	placed := func(zone string, flag bool) []oracleResource {
		return zoneResources(map[string]any{"zone_id": "cn-hangzhou-" + zone, "vswitch_id": "vsw-zones-" + zone},
			map[string]any{"maintenance_window": realClockWindow, "apply_restarts": "in_maintenance_window", "atomic_write_16k": flag})
	}
	twoRestarts := func(name string, plan *oraclePlan) {
		t.Helper()
		p := plan.res[testRes]
		if p == nil || len(p.decisions) == 0 {
			t.Fatalf("%s: no decision for %s", name, testRes)
		}
		rs := p.decisions[0].Program.Restarts()
		text := fmt.Sprint(rs)
		if len(rs) != 2 || !strings.Contains(text, "MigrateToOtherZone") || !strings.Contains(text, "atomic_write_16k") {
			t.Errorf("%s: the plan names %d restarts %v, want the move's and the toggle's", name, len(rs), rs)
		}
	}
	w.deferredStep(t, "create", placed("i", true), "", &id)
	w.deferredStep(t, "move", placed("j", true), realClockWindow, &id)
	twoRestarts("toggle", w.deferredStep(t, "toggle", placed("j", false), realClockWindow, &id, env.checkCounts(&id, 0, 1)))
	changes := fmt.Sprint(attrOf(w.state[testRes], "scheduled_change"))
	if !strings.Contains(changes, "MigrateToOtherZone") || !strings.Contains(changes, "atomic_write_16k") {
		t.Errorf("toggle: scheduled_change %s, want the move and the toggle", changes)
	}
	plan, err := w.planWalk(placed("j", false))
	if err != nil || plan.errAt != "" {
		t.Fatalf("later plan: %v %s", err, plan.errMsg)
	}
	twoRestarts("later plan", plan)
	env.advance()()
	w.deferredStep(t, "window", placed("j", false), "", &id, env.checkOrders("MigrateToOtherZone", &id, 1, 2))
}

// Item 7: a read-only instance added while its primary's 5.7 -> 8.0 upgrade waits for the window
// is refused at plan (it would be created on 5.7, and RDS upgrades read-only instances first, so
// the upgrade would fail in the window); nothing is created.
func TestPendingLater_readOnlyBehindAWaitingUpgrade(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	deferred := func(roVersion string) []oracleResource {
		order := upgradeResources("8.0", roVersion, false)
		order[0].attrs["maintenance_window"], order[0].attrs["apply_restarts"] = realClockWindow, "in_maintenance_window"
		return order
	}
	create := deferred(noReadOnly)
	create[0].attrs["engine_version"] = "5.7"
	w.deferredStep(t, "create", create, "", &id)
	w.deferredStep(t, "8.0", deferred(noReadOnly), realClockWindow, &id)
	for _, version := range []string{"", "5.7"} {
		expectErrorText(t, "read-only "+version, w.planErrorOf(t, deferred(version)),
			regexp.MustCompile(`(?s)rm-.* upgrades to MySQL 8.0 in its maintenance window: add its read-only instance after that`))
	}
	if n := env.requests("CreateReadOnlyDBInstance"); n != 0 {
		t.Errorf("%d CreateReadOnlyDBInstance requests, want none", n)
	}
}

// rds_apply_pending on an instance whose waiting task is a zone move: a restart would not run
// it, so the plan refuses the action (it restarted the instance and left the move waiting); the
// fix names the window that runs it.
func TestPendingLater_applyPendingRefusesAMove(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	in := map[string]any{"maintenance_window": realClockWindow, "apply_restarts": "in_maintenance_window"}
	w.deferredStep(t, "create", zoneResources(map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}, in), "", &id)
	w.deferredStep(t, "move", zoneResources(map[string]any{"zone_id": "cn-hangzhou-j", "vswitch_id": "vsw-zones-j"}, in), realClockWindow, &id)
	diags := planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": id})
	if text := diagSummaries(diags); !diagsHaveError(diags) || !strings.Contains(text, "rds_apply_pending cannot run what waits") {
		t.Errorf("plan of rds_apply_pending: %s, want the refusal", text)
	}
	if _, diags := invokeAction(t, w, "rds_apply_pending", map[string]any{"instance_id": id}); !diagsHaveError(diags) || env.restarts(id) != 0 {
		t.Errorf("invoke: %s, %d restarts; want the refusal and none", diagSummaries(diags), env.restarts(id))
	}
}
