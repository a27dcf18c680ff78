package rdsservice

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A prefix another endpoint of the proxy answers at is refused at plan, whatever its case, naming
// that endpoint and its address, with nothing planned; the endpoint's own prefix, or one no other
// endpoint has, is not; a prefix with an upper-case letter is refused with its lower-case spelling.
func TestPlanProxyEndpointPrefixTakenOrNotLowerCase(t *testing.T) {
	px := &rdsapi.DBProxy{Started: true, Endpoints: []rdsapi.DBProxyAddress{
		{EndpointID: "ep0", ConnectString: "orders-rw.rwlb.rds.aliyuncs.com", Port: "3306"},
		{EndpointID: "ep1", ConnectString: "analytics-ro.rwlb.rds.aliyuncs.com", Port: "3306"}}}
	holders := ProxyPrefixHolders(px, "ep1")
	if _, self := holders["analytics-ro"]; self || holders["orders-rw"].EndpointID != "ep0" {
		t.Fatalf("holders %v: want ep0's prefix and not the endpoint's own", holders)
	}
	req := proxyRequest()
	req.Desired = ProxySpec{ReadWriteMode: rdsapi.ProxyReadOnly, MaxDelay: 30, Description: "analytics", Standard: true}
	current := req.Desired
	now := NetEndpoint{ConnectionString: "analytics-ro.rwlb.rds.aliyuncs.com", Port: 3306}
	plan := func(prefix string) ProxyPlan {
		req.Endpoint = &ProxyEndpointTarget{ID: "ep1", Description: "analytics", Address: ProxyEndpointAddress{Want: Endpoint{Prefix: prefix}, Current: &now, Holders: holders}}
		return PlanProxyEndpoint(req, &current)
	}
	got := plan("orders-rw")
	if !slices.Equal(proxyRules(got.Problems), []RuleID{RuleEndpointStops, RuleProxyEndpointPrefixTaken}) || len(got.Program.Operations) != 0 {
		t.Fatalf("a prefix ep0 has: %v %v", proxyRules(got.Problems), proxyActions(got.Program))
	}
	if d := got.Problems[1].Detail; !strings.Contains(d, `"orders-rw"`) || !strings.Contains(d, "ep0") || !strings.Contains(d, "orders-rw.rwlb.rds.aliyuncs.com") {
		t.Fatalf("the refusal: %+v", got.Problems[1])
	}
	if got := plan("Orders-RW"); !slices.Equal(proxyRules(got.Problems), []RuleID{RuleEndpointStops, RuleProxyEndpointPrefixCase, RuleProxyEndpointPrefixTaken}) {
		t.Fatalf("the same in mixed case: %v", proxyRules(got.Problems))
	}
	if got := plan("Analytics-RO"); !slices.Equal(proxyRules(got.Problems), []RuleID{RuleProxyEndpointPrefixCase}) || !strings.Contains(got.Problems[0].Detail, `"analytics-ro"`) {
		t.Fatalf("the endpoint's own prefix in mixed case: %+v", got.Problems)
	}
	for _, prefix := range []string{"analytics-ro", "reports-ro"} {
		if got := plan(prefix); slices.Contains(proxyRules(got.Problems), RuleProxyEndpointPrefixTaken) {
			t.Fatalf("%s: %v", prefix, proxyRules(got.Problems))
		}
	}
	if (ProxyEndpointAddress{Want: Endpoint{Prefix: "analytics-ro"}, Current: &now}).NeedsPrefixHolders() || !(ProxyEndpointAddress{Want: Endpoint{Prefix: "reports-ro"}}).NeedsPrefixHolders() {
		t.Fatal("the proxy's endpoints are read only when the prefix changes the address")
	}
}
