package provider

import (
	"context"
	"fmt"
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
// switchover. The steps and checks of a terraform test, played at the plugin protocol (the zone
// family keeps TestAccZoneMoveInPlace with terraform).
func TestZoneMoveInMaintenanceWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	deferred := map[string]any{"maintenance_window": testWindow, "apply_restarts": "in_maintenance_window"}
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
	plan := w.deferredStep(t, "move", zoneResources(toJ, deferred), testWindow, &id,
		env.checkOrders("MigrateToOtherZone", &id, 1, 0), cloudZone("cn-hangzhou-i"))
	if p := plan.res[testRes]; p.action != actUpdate || attrOf(p.planned, "scheduled_change").IsKnown() {
		t.Errorf("move: planned %s with scheduled_change %v, want an update with it unknown", p.action, attrOf(p.planned, "scheduled_change"))
	}
	if got := w.stateAttr(t, testRes, "zone_id"); got != "cn-hangzhou-j" {
		t.Errorf("move: state zone_id %q, want cn-hangzhou-j", got)
	}
	empty("pending", w.deferredStep(t, "pending", zoneResources(toJ, deferred), testWindow, &id))
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
