package rdsservice

import (
	"slices"
	"testing"
)

// M1-M3: the period's values, the Basic edition's one period, the billed warning only when the
// period becomes one of a few seconds; the program sends a period other than the one read back
// (after a create: other than the default).
func TestMonitoringRules(t *testing.T) {
	five, sixty := int64(5), int64(60)
	for _, c := range []struct {
		name     string
		category string
		m        MonitoringPlan
		want     []RuleID
		ops      int
	}{
		{"unmanaged", "HighAvailability", MonitoringPlan{}, nil, 0},
		{"30 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 30}, []RuleID{RuleMonitoringPeriod}, 0},
		{"Basic 60 s", "Basic", MonitoringPlan{Configured: true, Want: 60, Prior: &sixty}, []RuleID{RuleMonitoringBasic}, 0},
		{"to 5 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 5, Prior: &sixty}, []RuleID{RuleMonitoringBilled}, 1},
		{"5 s kept", "HighAvailability", MonitoringPlan{Configured: true, Want: 5, Prior: &five}, nil, 0},
		{"to 60 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 60, Prior: &five}, nil, 1},
	} {
		in := PlanInput{Label: "rm-1", Desired: Desired{Category: Known(c.category), Monitoring: c.m}}
		in.Prior = &ExistingInstance{ID: "rm-1", Category: c.category}
		var d Decision
		checkMonitoring(in, &d)
		var got []RuleID
		for _, p := range d.Problems {
			got = append(got, p.Rule)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.want)
		}
		if d.HasErrors() {
			continue
		}
		b := &programBuilder{in: in, d: d}
		b.monitorOperations("rm-1", WhenNow)
		if len(b.ops) != c.ops {
			t.Errorf("%s: %d operations, want %d", c.name, len(b.ops), c.ops)
		}
	}
}
