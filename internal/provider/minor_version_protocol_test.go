package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// minorDeferredResources is minorConfig at the protocol without the read-only instance: a MySQL
// 8.0 primary on target, deferred to the test window, with auto_upgrade_minor_version auto.
func minorDeferredResources(target, auto string) []oracleResource {
	order := upgradeResources("8.0", noReadOnly, false)
	for k, v := range map[string]any{"target_minor_version": target, "maintenance_window": realClockWindow,
		"apply_restarts": "in_maintenance_window", "auto_upgrade_minor_version": auto} {
		order[0].attrs[k] = v
	}
	return order
}

// apply_restarts = "in_maintenance_window" defers the upgrade (scheduled_change); plans stay empty
// while it waits and another target is refused; the window upgrades the instance once. Set back to
// Auto, the cloud upgrades it to the latest in a later window, and the older target plans nothing.
// The steps and checks of a terraform test, played at the plugin protocol (the minor-version
// family keeps TestAccMinorVersionBeforeTDEOn56 with terraform).
func TestMinorVersionInMaintenanceWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const kernel = "UpgradeDBInstanceKernelVersion"
	minorIs := func(name, want string) {
		t.Helper()
		if got := w.stateAttr(t, testRes, "minor_version"); got != want {
			t.Errorf("%s: minor_version %q, want %q", name, got, want)
		}
	}
	empty := func(name string, plan *oraclePlan) {
		t.Helper()
		if a := plan.res[testRes].action; a != actNoop {
			t.Errorf("%s: planned %s, want an empty plan", name, a)
		}
	}
	w.deferredStep(t, "create", minorDeferredResources("rds_20200229", "Manual"), "", &id)
	plan := w.deferredStep(t, "deferred", minorDeferredResources("rds_20201031", "Manual"), realClockWindow, &id,
		env.checkOrders(kernel, &id, 1, 0))
	if v := attrOf(plan.res[testRes].planned, "scheduled_change"); v.IsKnown() {
		t.Errorf("deferred: planned scheduled_change %v, want unknown", v)
	}
	minorIs("deferred", "rds_20200229")
	empty("pending", w.deferredStep(t, "pending", minorDeferredResources("rds_20201031", "Manual"), realClockWindow, &id))
	text := w.planErrorOf(t, minorDeferredResources("rds_20230630", "Manual"))
	if want := regexp.MustCompile(`A minor version upgrade of rm-.* already waits for the maintenance window`); !want.MatchString(text) {
		t.Errorf("another target: error %q, want one matching %s", text, want)
	}
	env.advance()()
	empty("window", w.deferredStep(t, "window", minorDeferredResources("rds_20201031", "Manual"), "", &id,
		env.checkOrders(kernel, &id, 1, 1)))
	minorIs("window", "rds_20201031")
	w.deferredStep(t, "auto", minorDeferredResources("rds_20201031", "Auto"), "", &id, env.checkOrders(kernel, &id, 1, 1),
		func(*terraform.State) error {
			if n := env.requests("ModifyDBInstanceAutoUpgradeMinorVersion"); n != 2 {
				return fmt.Errorf("%d ModifyDBInstanceAutoUpgradeMinorVersion requests, want 2 (Manual after create, Auto now)", n)
			}
			return nil
		})
	env.advance()()
	empty("auto window", w.deferredStep(t, "auto window", minorDeferredResources("rds_20201031", "Auto"), "", &id,
		env.checkOrders(kernel, &id, 1, 2)))
	minorIs("auto window", "rds_20250630")
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// minorResources is minorConfig at the protocol with the read-only instance: a MySQL 8.0 primary
// on target, with extra attributes.
func minorResources(target string, extra map[string]any) []oracleResource {
	order := upgradeResources("8.0", "", false)
	order[0].attrs["target_minor_version"] = target
	for k, v := range extra {
		order[0].attrs[k] = v
	}
	return order
}

// Issue 25 §2: a later target_minor_version is an upgrade in place with its switchover, named at
// plan with the read-only instance's restart; prevent_restart refuses it; an older target (the
// cloud's version is later) plans nothing. The steps and checks of a terraform test, played at
// the plugin protocol (the family keeps TestAccMinorVersionBeforeTDEOn56 with terraform).
func TestMinorVersionUpgradeInPlace(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const kernel = "UpgradeDBInstanceKernelVersion"
	minorIs := func(name, addr, want string) {
		t.Helper()
		if got := w.stateAttr(t, addr, "minor_version"); got != want {
			t.Errorf("%s: %s minor_version %q, want %q", name, addr, got, want)
		}
	}
	w.checkedStep(t, "create", minorResources("rds_20201031", nil), &id)
	minorIs("create", testRes, "rds_20201031")
	minorIs("create", testRO, "rds_20201031")
	if a := w.stateAttr(t, testRes, "auto_upgrade_minor_version"); a != "Auto" {
		t.Errorf("create: auto_upgrade_minor_version %q, want Auto", a)
	}
	roID := w.stateAttr(t, testRO, "id")
	expectErrorText(t, "malformed", w.planErrorOf(t, minorResources("20201031", nil)), regexp.MustCompile(`Invalid target_minor_version`))
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, minorResources("rds_20230630", map[string]any{"prevent_restart": true})),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*target_minor_version changes from rds_20201031 to rds_20230630.*switchover.*rr-`))
	before := id
	plan := w.checkedStep(t, "upgrade", minorResources("rds_20230630", nil), &id, env.checkOrders(kernel, &id, 1, 1),
		func(*terraform.State) error {
			if n := env.restarts(roID); n != 1 {
				return fmt.Errorf("the read-only instance restarted %d times, want 1", n)
			}
			return nil
		})
	expectAction(t, "upgrade", plan, testRes, actUpdate)
	expectPlanned(t, "upgrade", plan, testRes, "minor_version", "rds_20230630")
	expectWarning(t, "upgrade", plan, testRes, regexp.MustCompile(`(?s)restart.*`+roID))
	minorIs("upgrade", testRes, "rds_20230630")
	if id != before {
		t.Errorf("upgrade: the instance was replaced: %s, was %s", id, before)
	}
	// The read-only instance follows (read back by the step's empty plan).
	minorIs("upgraded", testRO, "rds_20230630")
	// Never a downgrade: the older value is recorded, nothing is sent.
	plan = w.checkedStep(t, "older", minorResources("rds_20201031", nil), &id, env.checkOrders(kernel, &id, 1, 1))
	expectPlanned(t, "older", plan, testRes, "minor_version", "rds_20230630")
	minorIs("older", testRes, "rds_20230630")
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}
