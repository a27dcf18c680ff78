package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// proxyWindowResources is proxyResources with the primary's maintenance window realClockWindow.
func proxyWindowResources(attrs map[string]any) []oracleResource {
	order := proxyResources(attrs)
	primary := maps.Clone(order[0].attrs)
	primary["maintenance_window"] = realClockWindow
	order[0].attrs = primary
	return order
}

// apply_changes = "in_maintenance_window": the resize and the new weights are sent with
// EffectiveTime=MaintainTime and wait; the state records them as scheduled, not done; the next
// plan is empty and says that they wait and when; past the window the cloud has them and the plan
// is still empty.
func TestDBProxy_changesInWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", proxyWindowResources(nil)[:2])
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	w.applyChecked(t, "create", proxyWindowResources(map[string]any{"read_only_weights": map[string]int{ro: 100}}))
	deferred := proxyWindowResources(map[string]any{"read_only_weights": map[string]int{ro: 300, "primary": 100}, "instance_num": 3,
		"apply_changes": "in_maintenance_window"})
	num := func(want int64) func(*terraform.State) error {
		return func(*terraform.State) error {
			px, err := env.api.DescribeDBProxy(context.Background(), primary)
			if err != nil || px.InstanceNum != want {
				return fmt.Errorf("the cloud's proxy has %+v (%v), want %d proxy instances", px, err, want)
			}
			return nil
		}
	}
	plan := w.applyChecked(t, "deferred", deferred, num(2), env.proxyEndpointIs(w, t, map[string]int64{ro: 100}, 10))
	if text := proxyDiagDetails(plan.res[proxyRes].diags); !strings.Contains(text, "instance_num, read_only_weights of the database proxy of "+primary+" change in the maintenance window "+realClockWindow) {
		t.Fatalf("the plan does not say when the change runs:\n%s", text)
	}
	if got := attrOf(w.state[proxyRes], "scheduled_change").String(); !strings.Contains(got, "instance_num") || !strings.Contains(got, "read_only_weights") {
		t.Fatalf("scheduled_change = %s", got)
	}
	again := mustPlan(t, w, deferred)
	expectEmptyPlan(t, "before the window", again)
	if text := proxyDiagDetails(again.res[proxyRes].diags); !strings.Contains(text, "waits for the maintenance window") {
		t.Fatalf("the empty plan does not say the change waits:\n%s", text)
	}
	env.sim.AdvanceClock(25 * time.Hour)
	after := mustPlan(t, w, deferred)
	expectEmptyPlan(t, "after the window", after)
	if err := num(3)(nil); err != nil {
		t.Fatal(err)
	}
	if err := env.proxyEndpointIs(w, t, map[string]int64{ro: 300, primary: 100}, 10)(nil); err != nil {
		t.Fatal(err)
	}
	if text := proxyDiagDetails(after.res[proxyRes].diags); strings.Contains(text, "waits for the maintenance window") {
		t.Fatalf("past the window the plan still says the change waits:\n%s", text)
	}
}

// proxyDiagDetails is every diagnostic's summary and detail.
func proxyDiagDetails(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, d.Summary+": "+d.Detail)
	}
	return strings.Join(parts, "\n")
}

// A read-only instance released in the same run while the proxy still weights it (by its literal
// id) is a plan error naming both; nothing is sent.
func TestDBProxy_weightedReadOnlyReleased(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	weighted := proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}})
	w.applyChecked(t, "create", weighted)
	released := []oracleResource{weighted[0], weighted[2]}
	before := env.requests("DeleteDBInstance")
	text := w.planErrorOf(t, released)
	if !strings.Contains(text, "releases the read-only instance "+ro) || !strings.Contains(text, "database proxy of "+primary) {
		t.Fatalf("the release of a weighted read-only instance:\n%s", text)
	}
	if n := env.requests("DeleteDBInstance"); n != before {
		t.Fatalf("DeleteDBInstance sent %d times for a refused plan", n-before)
	}
}

// proxyFinalPlan plans the proxy of deferred (its instance_num raised, apply_changes in the window)
// in a fresh provider process, as its first call: no refresh before it, as in an apply's final plan
// or `plan -refresh=false`. advance moves the cloud's clock before the deferred apply, after the
// apply before the plan.
func proxyFinalPlan(t *testing.T, before, after time.Duration, applyFirst bool) (*oraclePlanned, time.Time) {
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", proxyWindowResources(nil)[:2])
	ro := w.stateAttr(t, testRO, "id")
	w.applyChecked(t, "create", proxyWindowResources(map[string]any{"read_only_weights": map[string]int{ro: 100}}))
	env.sim.AdvanceClock(before)
	deferred := proxyWindowResources(map[string]any{"read_only_weights": map[string]int{ro: 100}, "instance_num": 3,
		"apply_changes": "in_maintenance_window"})
	if applyFirst {
		w.applyChecked(t, "deferred", deferred)
	}
	env.sim.AdvanceClock(after)
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(ref oracleRef) tftypes.Value { return attrOf(w.state[ref.addr], ref.attr) }
	return w.planOne(server, deferred[2], w.config(deferred[2], resolve)), w.clock.Now().Add(before + after)
}

// The window a deferred proxy change waits for is the cloud's: with the cloud's clock days ahead of
// the provider's, a plan that is its process's first call names the next window the cloud will
// open, not one the cloud has passed.
func TestDBProxy_firstCallNamesTheCloudsWindow(t *testing.T) {
	t.Parallel()
	final, cloudNow := proxyFinalPlan(t, 8*24*time.Hour, 0, false)
	window, err := rdsservice.ParseMaintenanceWindow(realClockWindow)
	if err != nil {
		t.Fatal(err)
	}
	if want, text := window.When(cloudNow), proxyDiagDetails(final.diags); !strings.Contains(text, want) {
		t.Fatalf("the plan does not name the cloud's next window %q:\n%s", want, text)
	}
}

// A change the state records as waiting, whose window the cloud has passed, is not announced as
// waiting by a plan that is its process's first call.
func TestDBProxy_firstCallSeesTheWindowPassed(t *testing.T) {
	t.Parallel()
	final, _ := proxyFinalPlan(t, 0, 25*time.Hour, true)
	if text := proxyDiagDetails(final.diags); strings.Contains(text, "waits for the maintenance window") {
		t.Fatalf("past the cloud's window the plan still says the change waits:\n%s", text)
	}
}
