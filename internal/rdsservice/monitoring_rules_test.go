package rdsservice

import (
	"testing"
	"time"
)

// M1-M3: the period's values, the Basic edition's one period, the billed warning only when the
// period becomes one of a few seconds; the program sends a period other than the one read back
// (after a create: other than the default).
func TestMonitoringRules(t *testing.T) {
	five, sixty := int64(5), int64(60)
	row := func(name, category string, m MonitoringPlan, want []RuleID, ops int) settingRules {
		return settingRules{name, category, Desired{Monitoring: m}, want, ops}
	}
	checkSettingRules(t, time.Time{}, []settingRules{
		row("unmanaged", "HighAvailability", MonitoringPlan{}, nil, 0),
		row("30 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 30}, []RuleID{RuleMonitoringPeriod}, 0),
		row("Basic 60 s", "Basic", MonitoringPlan{Configured: true, Want: 60, Prior: &sixty}, []RuleID{RuleMonitoringBasic}, 0),
		row("to 5 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 5, Prior: &sixty}, []RuleID{RuleMonitoringBilled}, 1),
		row("5 s kept", "HighAvailability", MonitoringPlan{Configured: true, Want: 5, Prior: &five}, nil, 0),
		row("to 60 s", "HighAvailability", MonitoringPlan{Configured: true, Want: 60, Prior: &five}, nil, 1),
	}, checkMonitoring, (*programBuilder).monitorOperations)
}
