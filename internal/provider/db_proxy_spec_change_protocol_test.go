package provider

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Issue 44 §2, a proxy started by the run that changes its primary's class. Made during this apply,
// the switchover comes before the proxy starts (Terraform applies the proxy after the primary, whose
// change the apply waits out), so no plan names dropped connections and the simulator counts none;
// left for the window, the switchover comes after the proxy has started without persistent
// connections, so the proxy's plan names it, when, and the simulator counts the drop there.
func TestDBProxy_startedBesideASpecChange(t *testing.T) {
	t.Parallel()
	summary := rdsservice.Rules[rdsservice.RuleProxySpecDropsConnections].Summary
	for _, deferred := range []bool{false, true} {
		env, w := envWorld(t, testSimOptions())
		order := readonlyOnResources(false, "", 0, false)
		order[0].attrs["maintenance_window"] = realClockWindow
		w.applyChecked(t, "instance", order)
		primary := w.stateAttr(t, "rds_instance.primary", "id")
		order[0].attrs["instance_type"] = "mysql.n2.large.2c"
		if deferred {
			order[0].attrs["apply_restarts"] = "in_maintenance_window"
		}
		order = append(order, oracleResource{addr: proxyRes, attrs: map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"}}})
		env.sim.ResetStats()
		plan := w.applyChecked(t, "class change beside a new proxy", order)
		var named []string
		for addr, p := range plan.res {
			for _, d := range p.diags {
				if d.Summary == summary {
					named = append(named, addr+": "+d.Detail)
				}
			}
		}
		if ok := len(named) == 1 && strings.HasPrefix(named[0], proxyRes+": The spec change of "+primary+" switches it over in the maintenance window"); ok != deferred {
			t.Errorf("deferred %t: the plan names %q", deferred, named)
		}
		if drops := env.sim.Stats().ProxyDrops; len(drops) != 0 {
			t.Errorf("deferred %t: the apply dropped connections through the proxy: %v", deferred, drops)
		}
		env.sim.ResetStats()
		env.sim.AdvanceClock(26 * time.Hour)
		if _, err := env.api.DescribeDBInstanceAttribute(context.Background(), primary); err != nil {
			t.Fatal(err)
		}
		if drops := env.sim.Stats().ProxyDrops; !slices.Equal([]int{drops[primary]}, []int{map[bool]int{true: 1}[deferred]}) {
			t.Errorf("deferred %t: at the window the simulator counted proxy drops %v", deferred, drops)
		}
	}
}
