package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// proxyAPI answers DescribeDBProxy with one proxy and counts the reads.
type proxyAPI struct {
	rdsapi.API
	proxy *rdsapi.DBProxy
	reads int
}

func (a *proxyAPI) DescribeDBProxy(context.Context, string) (*rdsapi.DBProxy, error) {
	a.reads++
	return a.proxy, nil
}

// A class change of an instance behind a started proxy without persistent connections names the
// connections it drops, with when; persistent connections, no proxy, or no spec change name nothing,
// and a plan without a class, storage type or edition change reads no proxy.
func TestProxySpecChange(t *testing.T) {
	class := "mysql.n4.large.2c"
	cases := []struct {
		name   string
		proxy  rdsapi.DBProxy
		order  SpecOrder
		when   string
		named  bool
		reads  int
		within string
	}{
		{name: "class change, persistent off", proxy: rdsapi.DBProxy{Started: true}, order: SpecOrder{InstanceClass: &class}, named: true, reads: 1, within: "during this apply"},
		{name: "in the window", proxy: rdsapi.DBProxy{Started: true}, order: SpecOrder{InstanceClass: &class}, when: "in the maintenance window 02:00Z-03:00Z",
			named: true, reads: 1, within: "in the maintenance window 02:00Z-03:00Z"},
		{name: "persistent on", proxy: rdsapi.DBProxy{Started: true, PersistentConnections: true}, order: SpecOrder{InstanceClass: &class}, reads: 1},
		{name: "no proxy", proxy: rdsapi.DBProxy{}, order: SpecOrder{InstanceClass: &class}, reads: 1},
		{name: "no spec change", proxy: rdsapi.DBProxy{Started: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := &proxyAPI{proxy: &c.proxy}
			dec := Decision{Order: c.order, Restarts: []Restart{{InstanceID: "rr-1 (reporting)", When: c.when}}}
			got := ProxySpecChange(context.Background(), Env{API: api}, "rr-1", "rr-1 (reporting)", "rm-1", dec)
			if (len(got) == 1) != c.named || api.reads != c.reads {
				t.Fatalf("problems %+v, proxy reads %d; want named %t, reads %d", got, api.reads, c.named, c.reads)
			}
			if c.named && (got[0].Rule != RuleProxySpecDropsConnections || !strings.Contains(got[0].Detail, "rr-1") || !strings.Contains(got[0].Detail, "rm-1") || !strings.Contains(got[0].Detail, c.within)) {
				t.Fatalf("problem %+v", got[0])
			}
		})
	}
}

// The proxy's plan names the spec changes this run leaves for the window when the proxy leaves the
// run started without persistent connections and the instances' plans read it off (or keeping
// them); a change made during this apply, a proxy with persistent connections, or one the
// instances' plans already named off is not named again.
func TestProxyStartSpecChanges(t *testing.T) {
	class, window := "mysql.n4.large.2c", "in the maintenance window 02:00Z-03:00Z"
	var ledger Ledger
	env := Env{API: &proxyAPI{proxy: &rdsapi.DBProxy{}}, Ledger: &ledger}
	deferred := Decision{Order: SpecOrder{InstanceClass: &class}, Restarts: []Restart{{InstanceID: "rm-1 (orders)", When: window}}}
	now := Decision{Order: SpecOrder{InstanceClass: &class}, Restarts: []Restart{{InstanceID: "rr-1 (reporting)"}}}
	if ps := append(ProxySpecChange(context.Background(), env, "rm-1", "rm-1 (orders)", "rm-1", deferred),
		ProxySpecChange(context.Background(), env, "rr-1", "rr-1 (reporting)", "rm-1", now)...); len(ps) != 0 {
		t.Fatalf("the instances' plans, proxy off: %v", ps)
	}
	req := proxyRequest()
	got := ProxyStartSpecChanges(&ledger, req, nil)
	if len(got) != 1 || got[0].Rule != RuleProxySpecDropsConnections || got[0].Attribute != AttrProxyPersistent ||
		!strings.Contains(got[0].Detail, "The spec change of rm-1 switches it over "+window) {
		t.Fatalf("a new proxy beside a spec change in the window: %+v", got)
	}
	if got := ProxyStartSpecChanges(&ledger, req, &ProxySpec{Persistent: true}); len(got) != 1 {
		t.Fatalf("persistent connections turned off: %+v", got)
	}
	req.Desired.Persistent = true
	if got := ProxyStartSpecChanges(&ledger, req, nil); len(got) != 0 {
		t.Fatalf("a new proxy with persistent connections: %+v", got)
	}
	req.Desired.Persistent = false
	if got := ProxyStartSpecChanges(&ledger, req, &ProxySpec{}); len(got) != 0 {
		t.Fatalf("a proxy the instances' plans read without persistent connections: %+v", got)
	}
}

// A class known only at apply may switch the instance over: named as possible, with when; the
// proxy's plan does not name it again for a change made during this apply.
func TestProxySpecChangeKnownAtApply(t *testing.T) {
	var ledger Ledger
	api := &proxyAPI{proxy: &rdsapi.DBProxy{Started: true}}
	dec := Decision{MayRestart: []string{AttrParameters, AttrInstanceType}}
	got := ProxySpecChange(context.Background(), Env{API: api, Ledger: &ledger}, "rm-1", "rm-1 (orders)", "rm-1", dec)
	if len(got) != 1 || !strings.Contains(got[0].Detail, "switches it over during this apply if instance_type (known only at apply) changes, and") {
		t.Fatalf("a class known only at apply: %+v", got)
	}
	if ps := ProxyStartSpecChanges(&ledger, proxyRequest(), nil); len(ps) != 0 {
		t.Fatalf("the proxy's plan names a possible change made during this apply again: %+v", ps)
	}
	// With apply_restarts = in_maintenance_window the possible order waits for the window (sweep seed 40:
	// the window's switchover was counted unnamed, as the plan said during this apply).
	window := "in the maintenance window 03:00Z-04:00Z (next: 2026-12-07T03:00Z)"
	got = ProxySpecChange(context.Background(), Env{API: api, Ledger: &ledger}, "rm-1", "rm-1 (orders)", "rm-1",
		Decision{MayRestart: []string{AttrInstanceType}, MayRestartWhen: window})
	if len(got) != 1 || !strings.Contains(got[0].Detail, "switches it over "+window+" if instance_type (known only at apply) changes, and") {
		t.Fatalf("a class known only at apply, its order waiting for the window: %+v", got)
	}
	if ps := ProxySpecChange(context.Background(), Env{API: api}, "rm-1", "rm-1 (orders)", "rm-1", Decision{MayRestart: []string{AttrParameters}}); len(ps) != 0 || api.reads != 2 {
		t.Fatalf("only parameters known at apply: %+v, proxy reads %d", ps, api.reads)
	}
}
