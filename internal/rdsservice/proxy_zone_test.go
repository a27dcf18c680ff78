package rdsservice

import (
	"slices"
	"strings"
	"testing"
)

// A primary in a zone without the proxy is refused with the zone named, together with the other
// refusals and with no program; a zone that offers it, or a primary not read yet, is not refused.
// A multi-zone id is refused when one of its zones is, naming that zone.
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
	for zone, named := range map[string]string{"cn-hangzhou-MAZ6(h,c)": "cn-hangzhou-MAZ6(h,c) (its zone cn-hangzhou-c)",
		"cn-hangzhou-MAZ5(b,e,d)": "cn-hangzhou-MAZ5(b,e,d) (its zone cn-hangzhou-d)", "cn-hangzhou-MAZ10(h,i)": ""} {
		multi := proxyRequest()
		multi.Primary.Zone = zone
		ps := PlanProxy(multi, nil).Problems
		if named == "" && len(ps) != 0 || named != "" && (len(ps) != 1 || !strings.Contains(ps[0].Detail, "zone "+named+",")) {
			t.Fatalf("multi-zone %q: %+v, want named %q", zone, ps, named)
		}
	}
	unread := proxyRequest()
	unread.Primary = ProxyPrimary{Zone: "cn-hangzhou-c"}
	if ps := PlanProxy(unread, nil).Problems; len(ps) != 0 {
		t.Fatalf("a primary not read: %v", ps)
	}
}
