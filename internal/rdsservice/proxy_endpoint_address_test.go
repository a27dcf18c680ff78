package rdsservice

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// An rds_db_proxy_endpoint's address: a new endpoint with a prefix is created, then moved; a
// changed prefix and port are one ModifyDBProxyEndpointAddress whose plan names the address that
// stops answering (refused with prevent_endpoint_change); a bad prefix and port are refused at
// once with the settings' refusals; an unchanged address sends nothing.
func TestPlanProxyEndpointAddress(t *testing.T) {
	req := proxyRequest()
	req.Desired = ProxySpec{ReadWriteMode: rdsapi.ProxyReadOnly, MaxDelay: 30, Description: "analytics", Standard: true}
	req.Endpoint = &ProxyEndpointTarget{Description: "analytics", Address: ProxyEndpointAddress{Want: Endpoint{Prefix: "orders-ro"}}}
	if plan := PlanProxyEndpoint(req, nil); len(plan.Problems) != 0 || !slices.Equal(proxyActions(plan.Program), []string{OpCreateProxyEndpoint, OpProxyEndpointAddress}) {
		t.Fatalf("a new endpoint with a prefix: %v %v", plan.Problems, proxyActions(plan.Program))
	}
	current := req.Desired
	now := NetEndpoint{ConnectionString: "ep1.rwlb.rds.aliyuncs.com", Port: 3306}
	req.Endpoint = &ProxyEndpointTarget{ID: "ep1", Description: "analytics", Address: ProxyEndpointAddress{Want: Endpoint{Prefix: "orders-ro", Port: 3307}, Current: &now}}
	plan := PlanProxyEndpoint(req, &current)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleEndpointStops}) || !slices.Equal(proxyActions(plan.Program), []string{OpProxyEndpointAddress}) {
		t.Fatalf("a moved address: %v %v", got, proxyActions(plan.Program))
	}
	if d := plan.Problems[0].Detail; !strings.Contains(d, "orders-ro.rwlb.rds.aliyuncs.com:3307") || !strings.Contains(plan.Problems[0].Summary, "ep1.rwlb.rds.aliyuncs.com:3306") {
		t.Fatalf("the named address: %+v", plan.Problems[0])
	}
	if planned, ok := req.Endpoint.Address.PlannedAddress(); !ok || planned.Address() != "orders-ro.rwlb.rds.aliyuncs.com:3307" {
		t.Fatalf("planned %v %v", planned, ok)
	}
	req.Endpoint.Address.PreventChange = true
	if plan := PlanProxyEndpoint(req, &current); !slices.Equal(proxyRules(plan.Problems), []RuleID{RuleEndpointChangeRefused}) || len(plan.Program.Operations) != 0 {
		t.Fatalf("prevent_endpoint_change: %v %v", proxyRules(plan.Problems), proxyActions(plan.Program))
	}
	req.Endpoint.Address = ProxyEndpointAddress{Want: Endpoint{Prefix: "abc", Port: 80}, Current: &now}
	req.Desired.MaxDelay = 3601
	plan = PlanProxyEndpoint(req, &current)
	if got := proxyRules(plan.Problems); !slices.Equal(got, []RuleID{RuleProxyMaxDelay, RuleEndpointPrefix, RuleEndpointPort}) || len(plan.Program.Operations) != 0 {
		t.Fatalf("refusals %v, program %v", got, proxyActions(plan.Program))
	}
	req.Desired.MaxDelay = 30
	req.Endpoint.Address = ProxyEndpointAddress{Want: Endpoint{Prefix: "ep1", Port: 3306}, Current: &now}
	if plan := PlanProxyEndpoint(req, &current); len(plan.Problems) != 0 || len(plan.Program.Operations) != 0 {
		t.Fatalf("an unchanged address: %v %v", plan.Problems, proxyActions(plan.Program))
	}
	loopback := NetEndpoint{ConnectionString: "127.0.0.1", Port: 41234}
	if got := ProxyAddressAfter(loopback, Endpoint{Prefix: "orders-ro"}); got.Address() != "orders-ro.rwlb.rds.aliyuncs.com:41234" {
		t.Fatalf("a loopback address moved: %s", got.Address())
	}
}
