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
	for k, v := range map[string]any{"target_minor_version": target, "maintenance_window": testWindow,
		"apply_restarts": "in_maintenance_window", "auto_upgrade_minor_version": auto} {
		order[0].attrs[k] = v
	}
	return order
}

// apply_restarts = "in_maintenance_window" defers the upgrade (scheduled_change); plans stay empty
// while it waits and another target is refused; the window upgrades the instance once. Set back to
// Auto, the cloud upgrades it to the latest in a later window, and the older target plans nothing.
// The steps and checks of a terraform test, played at the plugin protocol (the minor-version
// family keeps TestAccMinorVersionUpgradeInPlace and TestAccMinorVersionBeforeTDEOn56 with
// terraform).
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
	plan := w.deferredStep(t, "deferred", minorDeferredResources("rds_20201031", "Manual"), testWindow, &id,
		env.checkOrders(kernel, &id, 1, 0))
	if v := attrOf(plan.res[testRes].planned, "scheduled_change"); v.IsKnown() {
		t.Errorf("deferred: planned scheduled_change %v, want unknown", v)
	}
	minorIs("deferred", "rds_20200229")
	empty("pending", w.deferredStep(t, "pending", minorDeferredResources("rds_20201031", "Manual"), testWindow, &id))
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
