package provider

// The "access lists changed" level of the connectivity factor (issue 42 §4): named IP lists added, changed and
// removed (security_ip_groups) and security groups added (security_group_ids) on the primary, a read-only
// instance's own list changed, in combination with every other factor (read-only instances, replacement, SSL,
// deferral). After the apply the oracle compares the lists the plan promised with the lists the simulator holds,
// the groups likewise, and the logins the instance's endpoint admits: an address of every promised entry is
// admitted, an address only a removed entry allowed is refused.

import (
	"context"
	"maps"
	"net"
	"slices"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

const levelAccessLists = "access lists changed"

// comboAccessLists sets the level's lists: office changed, vendors removed, partners added, a group added; the
// read-only instance's reports list narrowed and a group of its own.
func comboAccessLists(pb, pa, rb, ra map[string]any) {
	pb["security_ip_groups"] = map[string][]string{"office": {"203.0.113.0/24"}, "vendors": {"198.51.100.10"}}
	pa["security_ip_groups"] = map[string][]string{"office": {"203.0.113.0/24", "192.0.2.0/28"}, "partners": {"198.51.100.20"}}
	pb["security_group_ids"], pa["security_group_ids"] = []string{"sg-bp1orders000000001"}, []string{"sg-bp1orders000000001", "sg-bp1orders000000002"}
	rb["security_ip_groups"] = map[string][]string{"reports": {"203.0.113.0/24"}}
	ra["security_ip_groups"] = map[string][]string{"reports": {"203.0.113.64/26"}}
	ra["security_group_ids"] = []string{"sg-bp1orders000000003"}
}

// allowedClients records, by instance, the addresses and blocks its endpoint admits.
type allowedClients struct {
	mu   sync.Mutex
	byID map[string][]string
}

func (a *allowedClients) set(st simulator.EndpointState) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.byID[st.InstanceID] = slices.Clone(st.AllowedClients)
}

// admits reports whether the instance's endpoint admits ip; known is false before its endpoint reported.
func (a *allowedClients) admits(id string, ip net.IP) (admitted, known bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	entries, known := a.byID[id]
	return slices.ContainsFunc(entries, func(e string) bool { return entryHolds(e, ip) }), known
}

// entryHolds is whether an allow-list entry (an address or a CIDR block) holds ip.
func entryHolds(entry string, ip net.IP) bool {
	if _, block, err := net.ParseCIDR(entry); err == nil {
		return block.Contains(ip)
	}
	return net.ParseIP(entry).Equal(ip)
}

// probeOf is an address an entry allows: the address itself, or the block's second address.
func probeOf(entry string) net.IP {
	if ip, block, err := net.ParseCIDR(entry); err == nil && ip.To4() != nil {
		probe := slices.Clone(block.IP.To4())
		probe[3]++
		return probe
	}
	return net.ParseIP(entry)
}

// checkAccessLists compares, for each instance whose plan promised its lists, those lists and groups with the
// cloud's and the logins its endpoint admits; reports whether it compared anything.
func (w *oracleWorld) checkAccessLists(plan *oraclePlan, order []oracleResource, disagree func(class, format string, args ...any)) bool {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	compared := false
	for _, r := range order {
		p, v := plan.res[r.addr], w.state[r.addr]
		var id string
		if p == nil || v.IsNull() || !isInstanceResource(r.addr) || attrOf(v, "id").As(&id) != nil || id == "" {
			continue
		}
		promised := stringLists(attrOf(p.planned, "security_ip_groups"))
		if promised == nil {
			continue
		}
		compared = true
		lists, err := api.DescribeDBInstanceIPArrayList(context.Background(), id)
		if err != nil {
			disagree("access lists: the cloud's lists cannot be read", "%s (%s): %v", r.addr, id, err)
			continue
		}
		if held := namedLists(lists); !sameLists(held, promised) {
			disagree("access lists: the cloud's lists differ from the plan", "%s (%s): the plan promised %v, the cloud holds %v", r.addr, id, promised, held)
		}
		w.checkGroups(api, r.addr, id, p.planned, disagree)
		w.checkLogins(r.addr, id, promised, stringLists(attrOf(p.prior, "security_ip_groups")), disagree)
	}
	return compared
}

// checkGroups compares the planned security_group_ids with the cloud's.
func (w *oracleWorld) checkGroups(api rdsapi.API, addr, id string, planned tftypes.Value, disagree func(class, format string, args ...any)) {
	want := stringList(attrOf(planned, "security_group_ids"))
	if want == nil {
		return
	}
	conf, err := api.DescribeSecurityGroupConfiguration(context.Background(), id)
	if err != nil {
		disagree("access lists: the cloud's security groups cannot be read", "%s (%s): %v", addr, id, err)
		return
	}
	got := slices.Sorted(slices.Values(conf.IDs()))
	if !slices.Equal(got, want) {
		disagree("access lists: the cloud's security groups differ from the plan", "%s (%s): the plan promised %v, the cloud has %v", addr, id, want, got)
	}
}

// checkLogins: an address of each promised entry logs in; one only a prior entry allowed is refused.
func (w *oracleWorld) checkLogins(addr, id string, promised, prior map[string][]string, disagree func(class, format string, args ...any)) {
	_, _ = w.sim.EndpointAddress(id) // brings the endpoint's state up to the cloud's
	var kept []string
	for _, entries := range promised {
		kept = append(kept, entries...)
		for _, e := range entries {
			if ok, known := w.allowed.admits(id, probeOf(e)); known && !ok {
				disagree("access lists: a login the plan allows is refused", "%s (%s): %s of entry %s is refused (1130)", addr, id, probeOf(e), e)
			}
		}
	}
	for _, entries := range prior {
		for _, e := range entries {
			probe := probeOf(e)
			if slices.ContainsFunc(kept, func(k string) bool { return entryHolds(k, probe) }) {
				continue
			}
			if ok, known := w.allowed.admits(id, probe); known && ok {
				disagree("access lists: a login from a removed entry is admitted", "%s (%s): %s of the removed entry %s still logs in", addr, id, probe, e)
			}
		}
	}
}

// namedLists are the cloud's named lists: not default, not hidden, entries sorted.
func namedLists(r *rdsapi.DescribeDBInstanceIPArrayListResponse) map[string][]string {
	out := map[string][]string{}
	for _, a := range r.Items {
		if a.DBInstanceIPArrayName == rdsapi.DefaultSecurityIPArray || a.DBInstanceIPArrayAttribute == "hidden" {
			continue
		}
		out[a.DBInstanceIPArrayName] = slices.Sorted(slices.Values(rdsservice.SplitList(a.SecurityIPList)))
	}
	return out
}

func sameLists(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// stringLists reads a known map of string sets, entries sorted; nil when null or unknown.
func stringLists(v tftypes.Value) map[string][]string {
	var m map[string]tftypes.Value
	if v.IsNull() || !v.IsFullyKnown() || v.As(&m) != nil {
		return nil
	}
	out := map[string][]string{}
	for k, set := range m {
		out[k] = stringList(set)
	}
	return out
}

// stringList reads a known set of strings, sorted; nil when null or unknown.
func stringList(v tftypes.Value) []string {
	var elems []tftypes.Value
	if v.IsNull() || !v.IsFullyKnown() || v.As(&elems) != nil {
		return nil
	}
	out := []string{}
	for _, e := range elems {
		var s string
		_ = e.As(&s)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// The level in combination with read-only instances, replacement and the window, pinned so that each runs in every
// `make test` whatever the seed samples: each applies and compares the lists.
func TestOracleAccessListsCombinations(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	ro := map[string]string{"connectivity": levelAccessLists, "topology": "primary + read-only"}
	with := func(extra map[string]string) map[string]string {
		out := maps.Clone(ro)
		maps.Copy(out, extra)
		return out
	}
	for _, levels := range []map[string]string{
		ro,
		with(map[string]string{"replace": "engine_version upgrade"}),
		with(map[string]string{"apply_restarts": "in_maintenance_window", "data protection": "ssl on", "class": "both"}),
	} {
		outcomes := h.runScenario(comboScenario(comboOf(t, levels)))
		last := outcomes[len(outcomes)-1]
		for _, o := range outcomes {
			for _, d := range o.disagreements {
				t.Errorf("%v: DISAGREEMENT [%s]\n    repro: %s", levels, d.class, d.repro)
			}
		}
		if last.kind != outcomeApplied || !last.accessLists {
			t.Errorf("%v: ended %q (kind %d), compared %t: want applied and compared", levels, last.category, last.kind, last.accessLists)
		}
	}
}

// The check notices what it is there to notice: a list changed behind Terraform's back after the apply (the cloud
// differs from the plan, and its removed entry's address is refused), and a removed entry set back.
func TestOracleNoticesAccessLists(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	modify := func(ips, mode string) func(w *oracleWorld) {
		return func(w *oracleWorld) {
			api, err := w.h.directClient()
			if err != nil {
				t.Fatal(err)
			}
			var id string
			_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
			if err := api.ModifySecurityIps(context.Background(), &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: ips,
				DBInstanceIPArrayName: "office", ModifyMode: mode}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		after func(w *oracleWorld)
		want  []string
	}{
		{"an entry removed", modify("192.0.2.0/28", "Delete"), []string{"access lists: the cloud's lists differ from the plan",
			"access lists: a login the plan allows is refused"}},
		{"a removed entry set back", modify("198.51.100.10", "Append"), []string{"access lists: the cloud's lists differ from the plan",
			"access lists: a login from a removed entry is admitted"}},
	} {
		sc := comboScenario(comboOf(t, map[string]string{"connectivity": levelAccessLists}))
		w := h.newWorld(true)
		if ok, out := w.setup(sc); !ok {
			t.Fatalf("%s: setup: %+v", tc.name, out)
		}
		w.afterApply = tc.after
		out := w.run(tc.name, sc.after)
		var classes []string
		for _, d := range out.disagreements {
			classes = append(classes, d.class)
		}
		for _, want := range tc.want {
			if !slices.Contains(classes, want) {
				t.Errorf("%s: the oracle reported %q, want %q among them", tc.name, classes, want)
			}
		}
		_ = w.sim.Close()
	}
}

// The floor holds by construction: for seeds 1 to 5, a sample that compared no access lists at all is topped up
// from its reserve to the short form's floor, running only scenarios of the level.
func TestOracleTopUpMeetsAccessListFloor(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	floors := oracleFloors{accessLists: oracleShortFloors.accessLists}
	for seed := uint64(1); seed <= 5; seed++ {
		tally := &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}}
		tally.topUp(t, h, oracleReserve(seed, nil), floors)
		if tally.accessLists < floors.accessLists || tally.run > 3*floors.accessLists {
			t.Errorf("seed %d: %d access-list runs compared in %d scenarios, want %d within %d", seed, tally.accessLists, tally.run,
				floors.accessLists, 3*floors.accessLists)
		}
		for c, repros := range tally.classes {
			if _, known := tally.knownDisagreement(c); !known {
				t.Errorf("seed %d: DISAGREEMENT [%s] %s", seed, c, repros[0])
			}
		}
	}
}
