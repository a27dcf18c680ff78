package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// proxyStmtResources is proxyResources with max_prepared_stmt_count set on the primary and the
// read-only instance ("": not set).
func proxyStmtResources(ro, primaryValue, roValue string) []oracleResource {
	order := proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}})
	set := func(i int, v string) {
		if v != "" {
			attrs := maps.Clone(order[i].attrs)
			attrs["parameters"] = map[string]string{rdsservice.PreparedStmtParameter: v}
			order[i].attrs = attrs
		}
	}
	set(0, primaryValue)
	set(1, roValue)
	return order
}

// Issue 44 X8 at the instances' plans: behind a started proxy, a max_prepared_stmt_count change of
// the primary alone or of the read-only instance alone is refused at plan, naming both instances
// and the values, with nothing sent; the same change on both applies and plans empty after.
func TestDBProxy_preparedStmtRefusedOnInstances(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	w.applyChecked(t, "proxy", proxyStmtResources(ro, "", ""))
	for _, c := range []struct{ name, primary, ro, want string }{
		{"primary alone", "8000", "", fmt.Sprintf("%s would run max_prepared_stmt_count = 16382 and its primary %s (as this run plans it) has 8000", ro, primary)},
		{"read-only alone", "", "8000", fmt.Sprintf("%s would run max_prepared_stmt_count = 8000 and its primary %s has 16382", ro, primary)},
	} {
		if text := w.planErrorOf(t, proxyStmtResources(ro, c.primary, c.ro)); !strings.Contains(text, c.want) {
			t.Errorf("%s: the refusal lacks %q:\n%s", c.name, c.want, text)
		}
	}
	if n := env.requests("ModifyParameter"); n != 0 {
		t.Fatalf("ModifyParameter sent %d times for refused plans", n)
	}
	both := proxyStmtResources(ro, "8000", "8000")
	w.applyChecked(t, "both", both)
	for _, id := range []string{primary, ro} {
		params, err := env.api.DescribeParameters(context.Background(), id)
		if err != nil || params.RunningParameters.Values()[rdsservice.PreparedStmtParameter] != "8000" {
			t.Fatalf("%s after the apply: %v", id, err)
		}
	}
	expectEmptyPlan(t, "both again", mustPlan(t, w, both))
}

// Issue 44 §2 at the instances' plans: behind a started proxy without persistent connections, a
// class change of the read-only instance names the connections it drops through the proxy; with
// persistent connections on it names none (its restart is named either way).
func TestDBProxy_specChangeNamesDroppedConnections(t *testing.T) {
	t.Parallel()
	_, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	ro := w.stateAttr(t, testRO, "id")
	for _, persistent := range []bool{false, true} {
		order := proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}, "persistent_connections": persistent})
		w.applyChecked(t, fmt.Sprintf("proxy, persistent connections %t", persistent), order)
		bigger := slices.Clone(order)
		attrs := maps.Clone(bigger[1].attrs)
		attrs["instance_type"] = "mysqlro.n2.large.1c"
		bigger[1].attrs = attrs
		plan := mustPlan(t, w, bigger)
		var summaries []string
		for _, d := range plan.res[testRO].diags {
			summaries = append(summaries, d.Summary)
		}
		named := slices.Contains(summaries, "This spec change drops the connections open through the database proxy")
		if named == persistent {
			t.Errorf("persistent connections %t: the read-only instance's plan says %q", persistent, summaries)
		}
	}
}
