package rdsservice

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func proxyRequest() ProxyRequest {
	return ProxyRequest{InstanceID: "rm-1", Primary: ProxyPrimary{Known: true, ID: "rm-1", Category: "HighAvailability", EngineVersion: "8.0",
		MinorVersion: "rds_20230630", ReadOnlyIDs: []string{"rr-1", "rr-2"}},
		Desired: ProxySpec{InstanceType: "common", InstanceNum: 2, ReadWriteMode: "ReadWrite", MaxDelay: 30,
			Features: ProxyFeatures{ReadWriteSplitting: true}, Weights: map[string]int64{ProxyPrimaryKey: 0, "rr-1": 100, "rr-2": 300}}}
}

func proxyRules(ps []Problem) []RuleID {
	var out []RuleID
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return out
}

func proxyActions(p Program) []string {
	var out []string
	for _, op := range p.Operations {
		out = append(out, op.Action)
	}
	return out
}

// Every refusal of a proxy configuration at once, and none for a good one.
func TestPlanProxyRefusals(t *testing.T) {
	good := PlanProxy(proxyRequest(), nil)
	if len(good.Problems) != 0 || !slices.Equal(proxyActions(good.Program), []string{OpStartProxy, OpProxyEndpoint}) {
		t.Fatalf("a good proxy: %v, %v", good.Problems, proxyActions(good.Program))
	}
	bad := proxyRequest()
	bad.Primary.MinorVersion = "rds_20190815"
	bad.Desired.InstanceNum, bad.Desired.MaxDelay, bad.Desired.Standard = 17, 3601, true
	bad.Desired.Weights = map[string]int64{"rr-1": 150, "rr-9": 10100}
	plan := PlanProxy(bad, nil)
	want := []RuleID{RuleProxyMinorVersion, RuleProxyInstanceNum, RuleProxyDistribution, RuleProxyWeight, RuleProxyWeight, RuleProxyWeightKey, RuleProxyMaxDelay}
	if got := proxyRules(plan.Problems); !slices.Equal(got, want) || len(plan.Program.Operations) != 0 {
		t.Fatalf("refusals %v (program %v), want %v", got, proxyActions(plan.Program), want)
	}
	basic := proxyRequest()
	basic.Primary.Category = "Basic"
	if got := proxyRules(PlanProxy(basic, nil).Problems); !slices.Equal(got, []RuleID{RuleProxyEdition}) {
		t.Fatalf("Basic edition: %v", got)
	}
	unknown := proxyRequest()
	unknown.Primary = ProxyPrimary{} // created in the same run: its read-only instances are the cloud's to check
	unknown.Desired.Weights = map[string]int64{"rr-new": 100}
	if ps := PlanProxy(unknown, nil).Problems; len(ps) != 0 {
		t.Fatalf("unknown primary: %v", ps)
	}
}

// A change sends only what changed; read_write_mode and instance_type warn, and prevent_restart
// refuses them.
func TestPlanProxyChanges(t *testing.T) {
	req := proxyRequest()
	current := req.Desired
	if plan := PlanProxy(req, &current); len(plan.Program.Operations) != 0 || len(plan.Problems) != 0 {
		t.Fatalf("no change: %v %v", proxyActions(plan.Program), plan.Problems)
	}
	req.Desired.Weights = map[string]int64{"rr-1": 300, "rr-2": 100}
	req.Desired.InstanceNum, req.Desired.Persistent, req.Desired.SSL = 4, true, true
	if got := proxyActions(PlanProxy(req, &current).Program); !slices.Equal(got, []string{OpResizeProxy, OpProxyConnections, OpProxyEndpoint, OpProxySSL}) {
		t.Fatalf("changes sent: %v", got)
	}
	req.Desired.ReadWriteMode = "ReadOnly"
	plan := PlanProxy(req, &current)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleProxyInterrupts}) || len(plan.Program.Operations) == 0 {
		t.Fatalf("mode change: %v, %v", got, proxyActions(plan.Program))
	}
	req.PreventRestart = true
	plan = PlanProxy(req, &current)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleProxyInterruptsStop}) || len(plan.Program.Operations) != 0 {
		t.Fatalf("mode change with prevent_restart: %v, %v", got, proxyActions(plan.Program))
	}
	if got := proxyActions(PlanProxy(ProxyRequest{InstanceID: "rm-1", Delete: true}, &current).Program); !slices.Equal(got, []string{OpShutdownProxy}) {
		t.Fatalf("delete: %v", got)
	}
}

// X8: a read-only instance's max_prepared_stmt_count unlike the primary's is refused, naming both.
func TestPlanProxyPreparedStmtCount(t *testing.T) {
	req := proxyRequest()
	req.Primary.PreparedStmt = map[string]string{"rm-1": "16382", "rr-1": "16382", "rr-2": "8000"}
	plan := PlanProxy(req, nil)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleProxyPreparedStmt}) || !strings.Contains(plan.Problems[0].Detail, "rr-2 has 8000") {
		t.Fatalf("unequal counts: %v", plan.Problems)
	}
	req.Primary.PreparedStmt["rr-2"] = "16382"
	if ps := PlanProxy(req, nil).Problems; len(ps) != 0 {
		t.Fatalf("equal counts: %v", ps)
	}
}

// goneAPI answers every proxy action as for an instance that no longer exists.
type goneAPI struct{ rdsapi.API }

func (goneAPI) ModifyDBProxy(context.Context, *rdsapi.ModifyDBProxyRequest) error { return goneErr }
func (goneAPI) DescribeDBProxy(context.Context, string) (*rdsapi.DBProxy, error) {
	return nil, goneErr
}

var goneErr = &rdsapi.Error{Code: "InvalidDBInstanceId.NotFound", HTTPStatus: 404}

// Destroying the proxy of an instance already released succeeds: the proxy went with it.
func TestExecuteProxyShutdownOfGoneInstance(t *testing.T) {
	plan := PlanProxy(ProxyRequest{InstanceID: "rm-gone", Delete: true}, nil)
	if out := ExecuteProxy(context.Background(), goneAPI{}, &Waiter{API: goneAPI{}}, plan); out.Err != nil {
		t.Fatalf("shutdown of a released instance's proxy: %s: %v", out.Step, out.Err)
	}
}

// apply_changes = "in_maintenance_window": the resize and the endpoint change wait for the window
// (When, so EffectiveTime=MaintainTime), persistent connections do not; the plan says when; the
// state keeps the target of what waits until the window's start.
func TestPlanProxyInWindow(t *testing.T) {
	window, _ := ParseMaintenanceWindow("02:00Z-03:00Z")
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	req := proxyRequest()
	req.InWindow, req.Window, req.Now = true, &window, now
	current := req.Desired
	current.InstanceNum, current.Weights, current.Persistent = 4, map[string]int64{"rr-1": 100}, true
	plan := PlanProxy(req, &current)
	when := map[string]When{}
	for _, op := range plan.Program.Operations {
		when[op.Action] = op.When
	}
	if when[OpResizeProxy] != WhenInWindow || when[OpProxyEndpoint] != WhenInWindow || when[OpProxyConnections] != WhenNow {
		t.Fatalf("operations %+v", plan.Program.Operations)
	}
	next := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
	if w := plan.Waiting; w == nil || !w.At.Equal(next) || !slices.Equal(w.Attributes, []string{AttrProxyInstanceNum, AttrProxyWeights}) {
		t.Fatalf("waiting %+v", plan.Waiting)
	}
	text := plan.Problems[0].Detail
	if plan.Problems[0].Rule != RuleProxyChangeWaits || !strings.Contains(text, "instance_num, read_only_weights") || !strings.Contains(text, window.When(now)) {
		t.Fatalf("the plan does not say when: %+v", plan.Problems)
	}
	if !ProxyStillWaits(next, now) || ProxyStillWaits(next, next) {
		t.Fatal("ProxyStillWaits")
	}
	if got := ProxyAsWaiting(current, req.Desired); got.InstanceNum != 2 || got.Weights["rr-2"] != 300 || !got.Persistent {
		t.Fatalf("the state of a waiting change: %+v", got)
	}
	req.InWindow = false
	if now := PlanProxy(req, &current); now.Waiting != nil || len(now.Problems) != 0 {
		t.Fatalf("immediately: %+v", now)
	}
}

// X10: a read-only instance released in the same run while the proxy still weights it is refused,
// naming both, whichever of the two plans comes second.
func TestProxyWeightReleased(t *testing.T) {
	weights := map[string]int64{ProxyPrimaryKey: 100, "rr-1": 100, "rr-2": 300}
	var proxyFirst Ledger
	if ps := ProxyWeightsReleased(&proxyFirst, "rm-1", weights); len(ps) != 0 {
		t.Fatalf("nothing released yet: %v", ps)
	}
	proxyFirst.RecordReleased("rr-2")
	ps := ReleasedWhileWeighted(&proxyFirst, "rm-1", "rr-2")
	if len(ps) != 1 || ps[0].Rule != RuleProxyWeightReleased || !strings.Contains(ps[0].Detail, "rr-2") || !strings.Contains(ps[0].Detail, "rm-1") {
		t.Fatalf("the release after the proxy's plan: %+v", ps)
	}
	if ps := ReleasedWhileWeighted(&proxyFirst, "rm-1", "rr-3"); len(ps) != 0 {
		t.Fatalf("an instance the proxy does not weight: %v", ps)
	}
	var releaseFirst Ledger
	releaseFirst.RecordReleased("rr-1")
	if ps := ProxyWeightsReleased(&releaseFirst, "rm-1", weights); len(ps) != 1 || !strings.Contains(ps[0].Detail, "rr-1") {
		t.Fatalf("the proxy's plan after the release: %+v", ps)
	}
	if ps := ProxyWeightsReleased(&releaseFirst, "rm-1", map[string]int64{"rr-2": 100}); len(ps) != 0 {
		t.Fatalf("weights without the released instance: %v", ps)
	}
}
