package rdsservice

import (
	"slices"
	"strings"
	"testing"
)

// A primary in a zone without the proxy is refused with the zone named, together with the other
// refusals and with no program; a zone that offers it, or a primary not read yet, is not refused.
func TestPlanProxyZone(t *testing.T) {
	bad := proxyRequest()
	bad.Primary.Zone, bad.Primary.Category, bad.Desired.InstanceNum = "cn-hangzhou-d", "Basic", 17
	plan := PlanProxy(bad, nil)
	want := []RuleID{RuleProxyEdition, RuleProxyZone, RuleProxyInstanceNum}
	if got := proxyRules(plan.Problems); !slices.Equal(got, want) || len(plan.Program.Operations) != 0 {
		t.Fatalf("refusals %v (program %v), want %v", got, proxyActions(plan.Program), want)
	}
	if p := plan.Problems[1]; p.Attribute != "instance_id" || !strings.Contains(p.Detail, "zone cn-hangzhou-d") || !strings.Contains(p.Detail, `"rm-1"`) || !strings.Contains(p.Detail, "zone_id") {
		t.Fatalf("the zone refusal: %+v", p)
	}
	for _, zone := range []string{"cn-hangzhou-i", "cn-beijing-d", ""} {
		ok := proxyRequest()
		ok.Primary.Zone = zone
		if ps := PlanProxy(ok, nil).Problems; len(ps) != 0 {
			t.Fatalf("zone %q: %v", zone, ps)
		}
	}
	unread := proxyRequest()
	unread.Primary = ProxyPrimary{Zone: "cn-hangzhou-c"}
	if ps := PlanProxy(unread, nil).Problems; len(ps) != 0 {
		t.Fatalf("a primary not read: %v", ps)
	}
}
