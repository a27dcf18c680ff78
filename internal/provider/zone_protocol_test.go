package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// zoneResources is zoneConfig at the protocol: a High-availability primary in a VPC with placement
// and extra attributes, and one read-only instance.
func zoneResources(placement, extra map[string]any) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "zones", "vpc_id": "vpc-zones"}
	for _, m := range []map[string]any{placement, extra} {
		for k, v := range m {
			primary[k] = v
		}
	}
	ro := map[string]any{"master_instance_id": oracleRef{testRes, "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 100}
	return []oracleResource{{addr: testRes, attrs: primary}, {addr: testRO, attrs: ro}}
}

// apply_restarts = "in_maintenance_window" defers the move: the apply returns at once with
// scheduled_change, plans stay empty while it waits, and the window moves the instance with one
// switchover. The steps and checks of a terraform test, played at the plugin protocol (as
// TestZoneMoveInPlace).
func TestZoneMoveInMaintenanceWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	deferred := map[string]any{"maintenance_window": realClockWindow, "apply_restarts": "in_maintenance_window"}
	toI := map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
	toJ := map[string]any{"zone_id": "cn-hangzhou-j", "vswitch_id": "vsw-zones-j"}
	cloudZone := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
			if err != nil {
				return err
			}
			if a.ZoneID != want {
				return fmt.Errorf("the instance is in %s, want %s", a.ZoneID, want)
			}
			return nil
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
	w.deferredStep(t, "create", zoneResources(toI, deferred), "", &id)
	plan := w.deferredStep(t, "move", zoneResources(toJ, deferred), realClockWindow, &id,
		env.checkOrders("MigrateToOtherZone", &id, 1, 0), cloudZone("cn-hangzhou-i"))
	if p := plan.res[testRes]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("move: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	if got := w.stateAttr(t, testRes, "zone_id"); got != "cn-hangzhou-j" {
		t.Errorf("move: state zone_id %q, want cn-hangzhou-j", got)
	}
	empty("pending", w.deferredStep(t, "pending", zoneResources(toJ, deferred), realClockWindow, &id))
	env.advance()()
	empty("window", w.deferredStep(t, "window", zoneResources(toJ, deferred), "", &id,
		env.checkOrders("MigrateToOtherZone", &id, 1, 1), cloudZone("cn-hangzhou-j")))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// Issue 25 §3: zone_id, zone_id_slave_a and vswitch_id change in place with one switchover. A
// vSwitch left in the old zone, prevent_restart and a class change in the same apply are refused
// at plan (nothing is sent); the move keeps the id and the read-only instance; the secondary zone
// is read back. The steps and checks of a terraform test, played at the plugin protocol (the zone
// and minor-version moves keep TestAccMinorVersionBeforeTDEOn56 with terraform).
func TestZoneMoveInPlace(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	inI := map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
	toJ := map[string]any{"zone_id": "cn-hangzhou-j", "zone_id_slave_a": "cn-hangzhou-k", "vswitch_id": "vsw-zones-j"}
	zones := func(name, zone, slave string) {
		t.Helper()
		if z, s := w.stateAttr(t, testRes, "zone_id"), w.stateAttr(t, testRes, "zone_id_slave_a"); z != zone || s != slave {
			t.Errorf("%s: zone_id %q, zone_id_slave_a %q, want %q and %q", name, z, s, zone, slave)
		}
	}
	refused := func(name string, order []oracleResource, want string) {
		t.Helper()
		expectErrorText(t, name, w.planErrorOf(t, order), regexp.MustCompile(want))
	}
	w.checkedStep(t, "create", zoneResources(inI, nil), &id)
	zones("create", "cn-hangzhou-i", "cn-hangzhou-i")
	refused("vSwitch left behind", zoneResources(map[string]any{"zone_id": "cn-hangzhou-j", "vswitch_id": "vsw-zones-i"}, nil),
		`(?s)Moving rm-\S+ \(zones\) to cn-hangzhou-j needs a vSwitch in cn-hangzhou-j.*Set vswitch_id to a vSwitch of\s+vpc-zones`)
	refused("prevent_restart", zoneResources(toJ, map[string]any{"prevent_restart": true}),
		`(?s)prevent_restart refuses this plan: it restarts RDS instance rm-.*zone_id\s+changes\s+from\s+"cn-hangzhou-i"\s+to\s+"cn-hangzhou-j".*switchover`)
	refused("class too", zoneResources(toJ, map[string]any{"instance_type": "mysql.n2.large.2c"}),
		`(?s)Move rm-\S+ \(zones\) to another zone in an apply of its own.*instance_type`)
	// Nothing was sent.
	w.checkedStep(t, "nothing sent", zoneResources(inI, nil), &id, env.checkOrders("MigrateToOtherZone", &id, 0, 0))
	before := id
	plan := w.checkedStep(t, "move", zoneResources(toJ, nil), &id, env.checkOrders("MigrateToOtherZone", &id, 1, 1))
	expectAction(t, "move", plan, testRes, actUpdate)
	expectAction(t, "move", plan, testRO, actNoop)
	expectPlanned(t, "move", plan, testRes, "zone_id_slave_a", "cn-hangzhou-k")
	zones("move", "cn-hangzhou-j", "cn-hangzhou-k")
	if id != before {
		t.Errorf("move: the instance was replaced: %s, was %s", id, before)
	}
	again, err := w.planWalk(zoneResources(toJ, nil))
	if err != nil || again.errAt != "" {
		t.Fatalf("again: %v %s", err, again.errMsg)
	}
	expectAction(t, "again", again, testRes, actNoop)
	expectAction(t, "again", again, testRO, actNoop)
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}
