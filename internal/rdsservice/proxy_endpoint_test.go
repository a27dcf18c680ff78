package rdsservice

import (
	"slices"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// An rds_db_proxy_endpoint's program: created with one ModifyDBProxyEndpoint Create, checked by the
// default endpoint's rules, a mode change named (X7), a change for the window deferred (X9), deleted.
func TestPlanProxyEndpoint(t *testing.T) {
	req := proxyRequest()
	req.Endpoint = &ProxyEndpointTarget{Description: "analytics"}
	req.Desired = ProxySpec{ReadWriteMode: rdsapi.ProxyReadOnly, MaxDelay: 30, Description: "analytics", Weights: map[string]int64{"rr-1": 100}}
	if plan := PlanProxyEndpoint(req, nil); len(plan.Problems) != 0 || !slices.Equal(proxyActions(plan.Program), []string{OpCreateProxyEndpoint}) {
		t.Fatalf("a new endpoint: %v %v", plan.Problems, proxyActions(plan.Program))
	}
	bad := req
	bad.Desired.MaxDelay, bad.Desired.Weights = 3601, map[string]int64{"rr-9": 150}
	if got := proxyRules(PlanProxyEndpoint(bad, nil).Problems); !slices.Equal(got, []RuleID{RuleProxyWeight, RuleProxyWeightKey, RuleProxyMaxDelay}) {
		t.Fatalf("refusals %v", got)
	}
	current := req.Desired
	current.ReadWriteMode = rdsapi.ProxyReadWrite
	req.Endpoint.ID = "ep-1"
	plan := PlanProxyEndpoint(req, &current)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleProxyInterrupts}) || !slices.Equal(proxyActions(plan.Program), []string{OpProxyEndpoint}) {
		t.Fatalf("a mode change: %v %v", got, proxyActions(plan.Program))
	}
	window, _ := ParseMaintenanceWindow("02:00Z-03:00Z")
	req.InWindow, req.Window, req.Now = true, &window, time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	current.ReadWriteMode, current.MaxDelay = rdsapi.ProxyReadOnly, 10
	if plan := PlanProxyEndpoint(req, &current); plan.Waiting == nil || plan.Program.Operations[0].When != WhenInWindow {
		t.Fatalf("a change for the window: %+v", plan)
	}
	current.MaxDelay, current.Description = 30, "old"
	if plan := PlanProxyEndpoint(req, &current); !slices.Equal(proxyActions(plan.Program), []string{OpProxyEndpoint}) {
		t.Fatalf("a description change: %v", proxyActions(plan.Program))
	}
	if plan := PlanProxyEndpoint(ProxyRequest{InstanceID: "rm-1", Delete: true, Endpoint: &ProxyEndpointTarget{ID: "ep-1"}}, nil); !slices.Equal(proxyActions(plan.Program), []string{OpDeleteProxyEndpoint}) {
		t.Fatalf("delete: %v", proxyActions(plan.Program))
	}
}

// X11: the endpoint of a description, adopted only for an interrupted create of this configuration
// that names it (or found none), young enough.
func TestProxyEndpointDescription(t *testing.T) {
	px := &rdsapi.DBProxy{Started: true, Endpoints: []rdsapi.DBProxyAddress{{EndpointID: "ep-0"}, {EndpointID: "ep-1", Aliases: "analytics"}}}
	taken := ProxyEndpointDescribed(px, "analytics", "")
	if taken == nil || taken.EndpointID != "ep-1" || ProxyEndpointDescribed(px, "analytics", "ep-1") != nil {
		t.Fatalf("described: %+v", taken)
	}
	now := time.Now()
	for _, c := range []struct {
		entry JournalEntry
		adopt bool
	}{{JournalEntry{ID: "ep-1", Started: now}, true}, {JournalEntry{Started: now}, true}, {JournalEntry{ID: "ep-2", Started: now}, false},
		{JournalEntry{ID: "ep-1", Started: now.Add(-AdoptWindow - time.Hour)}, false}} {
		adopt := AdoptableProxyEndpoint(taken, []JournalEntry{c.entry}, now)
		rule := proxyRules(CheckProxyEndpointDescription("rm-1", "analytics", taken, adopt, "rds_db_proxy_endpoint", "j"))
		want := map[bool]RuleID{true: RuleCreateAdopted, false: RuleProxyEndpointTaken}[c.adopt]
		if (adopt != nil) != c.adopt || !slices.Equal(rule, []RuleID{want}) {
			t.Errorf("entry %+v: adopt %v, rules %v", c.entry, adopt, rule)
		}
	}
}

// X12: a proxy an interrupted Startup left Creating is waited for before it is configured.
func TestPlanProxyAwaitsAStartingProxy(t *testing.T) {
	current := proxyRequest().Desired
	current.Starting, current.MaxDelay = true, 10
	if got := proxyActions(PlanProxy(proxyRequest(), &current).Program); !slices.Equal(got, []string{OpAwaitProxy, OpProxyEndpoint}) {
		t.Fatalf("a starting proxy: %v", got)
	}
	px := &rdsapi.DBProxy{Started: true, Status: "Creating"}
	entry := JournalEntry{ID: ProxyJournalID("rm-1"), Started: time.Now()}
	if got := proxyRules(CheckProxyStarted("rm-1", px, AdoptableProxy("rm-1", []JournalEntry{entry}, time.Now()), "rds_db_proxy", "j")); !slices.Equal(got, []RuleID{RuleCreateAdopted}) {
		t.Fatalf("adopted: %v", got)
	}
	if got := proxyRules(CheckProxyStarted("rm-1", px, AdoptableProxy("rm-2", []JournalEntry{entry}, time.Now()), "rds_db_proxy", "j")); !slices.Equal(got, []RuleID{RuleProxyAlreadyStarted}) {
		t.Fatalf("not adopted: %v", got)
	}
}
