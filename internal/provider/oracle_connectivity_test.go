package provider

// Connectivity (issue 42 §4): the "connectivity" factor gives the instances endpoint attributes (a prefix and port
// changed, a public endpoint allocated, changed or released, the read-only instance's endpoints changed,
// prevent_endpoint_change) in combination with every other factor: SSL (data protection), deferral, read-only
// instances, replacement. The worlds of these scenarios give the simulator endpoints (nameOnlyEndpoints), so that
// its name service (Simulator.ResolveEndpoint) answers on exactly the strings the API hands out. After each apply the
// oracle compares the addresses the plan warned stop answering (rule endpoint-stops-resolving: old string, new
// string) with the addresses that really stopped answering, or now answer for another instance, checks that each
// new address the plan named answers, and that the state's connection strings answer for their instance.

import (
	"context"
	"math/big"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// connectivityLevels are the "connectivity" factor's levels.
var connectivityLevels = []string{"none", "prefix and port changed", "public allocated", "public changed", "public released",
	"read-only endpoints changed", "prevent_endpoint_change, endpoint changed", "prevent_endpoint_change, unchanged", levelAccessLists}

// comboNormalizeConnectivity: a destroy leaves no endpoint to compare; the read-only level needs a read-only instance.
func comboNormalizeConnectivity(c []int) {
	set := func(f, l string) { c[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	switch {
	case comboLevel(c, "destroy") != "no":
		set("connectivity", "none")
	case comboLevel(c, "connectivity") == "read-only endpoints changed":
		set("topology", "primary + read-only")
	}
}

// comboConnectivity sets the level's endpoint attributes on the primary (pb, pa) and the read-only instance (rb,
// ra). With SSL on after the run (data protection "ssl on" or "ssl and tde on"), a changed internal endpoint has
// SSL on before too, so that the program turns SSL off and on again around the change; with "tde on" SSL is off
// after, so it is turned off first.
func comboConnectivity(level string, pb, pa, rb, ra map[string]any) {
	public := func(prefix string, port int) map[string]any {
		return map[string]any{"connection_string_prefix": prefix, "port": port}
	}
	switch level {
	case "prefix and port changed":
		pb["connection_string_prefix"], pb["port"] = "orders-db-01", 3306
		pa["connection_string_prefix"], pa["port"] = "orders-db-02", 3307
		if pa["ssl_enabled"] == true {
			pb["ssl_enabled"] = true
		}
	case "public allocated":
		pa["public_endpoint"] = public("orders-pub", 3306)
	case "public changed":
		pb["public_endpoint"], pa["public_endpoint"] = public("orders-pub", 3306), public("orders-pub-02", 3308)
	case "public released":
		pb["public_endpoint"], pa["port"] = public("orders-pub", 3306), 3306
	case "read-only endpoints changed":
		rb["connection_string_prefix"], rb["public_endpoint"] = "orders-ro-01", public("orders-ro-pub", 3306)
		ra["connection_string_prefix"], ra["public_endpoint"] = "orders-ro-02", public("orders-ro-pub", 3309)
	case "prevent_endpoint_change, endpoint changed":
		pb["port"], pa["port"] = 3306, 3307
		pb["prevent_endpoint_change"], pa["prevent_endpoint_change"] = true, true
	case levelAccessLists:
		comboAccessLists(pb, pa, rb, ra)
	case "prevent_endpoint_change, unchanged":
		pb["connection_string_prefix"], pa["connection_string_prefix"] = "orders-db-01", "orders-db-01"
		pb["prevent_endpoint_change"], pa["prevent_endpoint_change"] = true, true
	}
}

// nameOnlyEndpoints is simulator.Options.Endpoints for the connectivity worlds: each instance's endpoint is an
// address of its own that the simulator's name service maps its connection strings to, with no MySQL server behind
// it (the oracle asks which strings answer for which instance, not what they serve; a server per instance would
// cost the short form its time budget).
// Each endpoint records the addresses its instance admits in allowed (oracle_access_lists_test.go).
func nameOnlyEndpoints(allowed *allowedClients) simulator.StartEndpoint {
	var next atomic.Int32
	return func(st simulator.EndpointState, _ func()) (simulator.Endpoint, error) {
		allowed.set(st)
		return nameOnlyEndpoint{port: 20000 + int(next.Add(1)), allowed: allowed}, nil
	}
}

type nameOnlyEndpoint struct {
	port    int
	allowed *allowedClients
}

func (nameOnlyEndpoint) Host() string { return "127.0.0.1" }
func (e nameOnlyEndpoint) Port() int  { return e.port }
func (e nameOnlyEndpoint) Apply(st simulator.EndpointState) error {
	e.allowed.set(st)
	return nil
}
func (nameOnlyEndpoint) Close() error { return nil }

// comboConnectivityName is the level as the scenario records it: "" for none.
func comboConnectivityName(level string) string {
	if level == "none" {
		return ""
	}
	return level
}

// endpointOwners maps every address ("string:port") the cloud lists for the instances in state whose endpoints
// Terraform manages (connection_string_prefix known in state: an endpoint attribute is configured) to the instance
// that has it, where the simulator's name service answers on it. An instance without endpoint attributes is left
// out: the provider neither reads nor changes its endpoints (endpoints.go), and its replacement is named as one.
func (w *oracleWorld) endpointOwners() map[string]string {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	out := map[string]string{}
	for addr, v := range w.state {
		var id string
		if prefix := attrOf(v, "connection_string_prefix"); !isInstanceResource(addr) || prefix.IsNull() || attrOf(v, "id").As(&id) != nil || id == "" {
			continue
		}
		info, err := api.DescribeDBInstanceNetInfo(context.Background(), id)
		if err != nil {
			continue // released behind the state (a read-only instance gone with its replaced primary)
		}
		for _, public := range []bool{false, true} {
			if n, ok := info.Endpoint(public); ok {
				address := net.JoinHostPort(n.ConnectionString, string(n.Port))
				if _, answers := w.sim.ResolveEndpoint(address); answers {
					out[address] = id
				}
			}
		}
	}
	return out
}

// namedLostEndpoints are the addresses the plan warned stop answering (the planner's endpoint-stops-resolving
// problems), each with the new address it named; unshown lists those no diagnostic the user sees carries.
func namedLostEndpoints(plan *oraclePlan) (named map[string]string, unshown []string) {
	named = map[string]string{}
	for _, p := range plan.res {
		shown := p.diags
		if p.action == actReplace {
			shown = p.shown
		}
		for _, d := range p.decisions {
			for _, pr := range d.Problems {
				if pr.Rule != rdsservice.RuleEndpointStops {
					continue
				}
				named[pr.Value] = newAddressIn(pr.Detail, pr.Value)
				if !slices.ContainsFunc(shown, func(diag *tfprotov6.Diagnostic) bool {
					return strings.Contains(diag.Summary+"\n"+diag.Detail, pr.Value)
				}) {
					unshown = append(unshown, pr.Value)
				}
			}
		}
	}
	return named, unshown
}

// newAddressIn is the first "host:port" of the warning's detail other than the lost one: the address that replaces
// it, or "" when the warning names none (a release, a replacement's endpoint known after apply).
func newAddressIn(detail, lost string) string {
	for _, field := range strings.Fields(detail) {
		field = strings.TrimRight(field, ".,;)")
		host, port, err := net.SplitHostPort(field)
		if _, perr := strconv.Atoi(port); err == nil && perr == nil && strings.Contains(host, ".") && field != lost {
			return field
		}
	}
	return ""
}

// checkConnectivity compares the endpoints before the apply (owners) with the cloud's name service after it and
// with what the plan named; reports whether it compared anything.
func (w *oracleWorld) checkConnectivity(plan *oraclePlan, order []oracleResource, owners map[string]string, disagree func(class, format string, args ...any)) bool {
	named, unshown := namedLostEndpoints(plan)
	for _, a := range unshown {
		disagree("connectivity: endpoint warning not shown", "the planner names %s as stopping, but no diagnostic the user sees does", a)
	}
	now, destroyed := w.endpointOwners(), destroyedIDs(plan)
	for address, id := range owners {
		if _, warned := named[address]; !warned && now[address] != id && !destroyed[id] {
			disagree("connectivity: an endpoint stopped answering, the plan did not name it", "%s of %s (%s) no longer answers for it (now: %q); the plan (%s) named %v",
				address, id, w.addrOf(id, order), now[address], planSummary(plan, order), keysOf(named))
		}
	}
	for address, next := range named {
		if owner, was := owners[address]; was && now[address] == owner {
			disagree("connectivity: an endpoint the plan named as stopping still answers", "the plan named %s as stopping; it still answers for %s", address, owner)
		}
		if _, answers := w.sim.ResolveEndpoint(next); next != "" && !answers {
			disagree("connectivity: the new endpoint the plan named does not answer", "the plan said %s replaces %s; it does not answer", next, address)
		}
	}
	w.stateEndpointsAnswer(order, now, disagree)
	return len(owners) > 0 || len(named) > 0
}

// stateEndpointsAnswer checks that each connection string the state holds answers for its instance.
func (w *oracleWorld) stateEndpointsAnswer(order []oracleResource, now map[string]string, disagree func(class, format string, args ...any)) {
	for _, r := range order {
		v, ok := w.state[r.addr]
		if !ok || !isInstanceResource(r.addr) {
			continue
		}
		var id string
		_ = attrOf(v, "id").As(&id)
		check := func(what string, host, port tftypes.Value) {
			var h string
			var p big.Float
			if host.IsNull() || !host.IsKnown() || host.As(&h) != nil || port.IsNull() || !port.IsKnown() || port.As(&p) != nil {
				return
			}
			n, _ := p.Int64()
			address := net.JoinHostPort(h, strconv.FormatInt(n, 10))
			if loopback, _ := w.sim.EndpointAddress(id); now[address] != id && address != loopback {
				disagree("connectivity: the state's "+what+" does not answer for its instance", "%s: %s %s answers for %q, not %s", r.addr, what, address, now[address], id)
			}
		}
		check("connection_string", attrOf(v, "connection_string"), attrOf(v, "port"))
		if pub := attrOf(v, "public_endpoint"); !pub.IsNull() && pub.IsKnown() {
			check("public_connection_string", attrOf(v, "public_connection_string"), attrOf(pub, "port"))
		}
	}
}

// destroyedIDs are the instances the plan destroys: a destroy is named as one, its endpoints with it.
func destroyedIDs(plan *oraclePlan) map[string]bool {
	out := map[string]bool{}
	for _, p := range plan.res {
		var id string
		if p.action == actDelete && attrOf(p.prior, "id").As(&id) == nil {
			out[id] = true
		}
	}
	return out
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The connectivity check notices what it is there to notice: an address that stops answering without the plan
// naming it (the prefix changed behind Terraform's back between the plan and the apply), and an address the plan
// named that still answers (the prefix set back right after the apply).
func TestOracleNoticesEndpointsThatStopAnswering(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	setPrefix := func(prefix string) func(w *oracleWorld) {
		return func(w *oracleWorld) {
			api, err := w.h.directClient()
			if err != nil {
				t.Fatal(err)
			}
			var id string
			_ = attrOf(w.state["rds_instance.db"], "id").As(&id)
			info, err := api.DescribeDBInstanceNetInfo(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := info.Endpoint(false)
			if err := api.ModifyDBInstanceConnectionString(context.Background(), &rdsapi.ModifyDBInstanceConnectionStringRequest{DBInstanceID: id,
				CurrentConnectionString: n.ConnectionString, ConnectionStringPrefix: prefix, Port: string(n.Port)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name, after, want       string
		beforeApply, afterApply func(w *oracleWorld)
	}{
		{"changed behind the plan", "orders-db-01", "connectivity: an endpoint stopped answering, the plan did not name it", setPrefix("orders-db-77"), nil},
		{"set back after the apply", "orders-db-02", "connectivity: an endpoint the plan named as stopping still answers", nil, setPrefix("orders-db-01")},
	} {
		w := h.newWorld(true)
		before := endpointAttrs("orders-db-01", 0, nil, false)
		if out := w.run(tc.name+" [setup]", []oracleResource{{"rds_instance.db", before}}); len(out.disagreements) > 0 || out.kind != outcomeApplied {
			t.Fatalf("%s: setup: %+v", tc.name, out)
		}
		w.beforeApply, w.afterApply = tc.beforeApply, tc.afterApply
		out := w.run(tc.name, []oracleResource{{"rds_instance.db", endpointAttrs(tc.after, 0, nil, false)}})
		var classes []string
		for _, d := range out.disagreements {
			classes = append(classes, d.class)
		}
		if !slices.Contains(classes, tc.want) || !out.connectivity {
			t.Errorf("%s: the oracle reported %q (compared: %v), want %q among them", tc.name, classes, out.connectivity, tc.want)
		}
		_ = w.sim.Close()
	}
}
