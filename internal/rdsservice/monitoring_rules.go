package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// The monitoring period (issue 45 §3): monitoring_period on rds_instance, sent with
// ModifyDBInstanceMonitor after a create and in place, read back with DescribeDBInstanceMonitor
// only where it is configured (internal/simulator/README.md, "Monitoring period"):
//
//   - M1 the period is 5, 10, 60 or 300 seconds;
//   - M2 a Basic-edition instance is monitored every 300 seconds only;
//   - M3 a period of a few seconds (5 or 10) is billed: the plan says so.

// OpMonitor is the operation that sends the monitoring period.
const OpMonitor = "ModifyDBInstanceMonitor"

// AttrMonitoringPeriod is the attribute the monitoring rules point at.
const AttrMonitoringPeriod = "monitoring_period"

const (
	RuleMonitoringPeriod RuleID = "monitoring-period"
	RuleMonitoringBasic  RuleID = "monitoring-period-basic"
	RuleMonitoringBilled RuleID = "monitoring-period-billed"
)

// MonitoringPeriods are monitoring_period's values (M1).
var MonitoringPeriods = []int64{5, 10, 60, 300}

// MonitoringPlan is what the planner knows of an instance's monitoring period.
type MonitoringPlan struct {
	// Want is the configured period; Configured is false when monitoring_period is left out (not
	// managed); WantUnknown is set while it is known only at apply.
	Want        int64
	Configured  bool
	WantUnknown bool
	// Prior is the period the last refresh read back (nil for a create or when unmanaged).
	Prior *int64
}

// checkMonitoring raises M1-M3 for a known configured period.
func checkMonitoring(in PlanInput, d *Decision) {
	m := in.Desired.Monitoring
	if !m.Configured || m.WantUnknown {
		return
	}
	value := fmt.Sprint(m.Want)
	category := in.Desired.Category.Or("")
	if category == "" && in.Prior != nil {
		category = in.Prior.Category
	}
	switch {
	case !slices.Contains(MonitoringPeriods, m.Want):
		d.add(problem(RuleMonitoringPeriod, value, m.Want))
	case strings.EqualFold(category, "Basic") && m.Want != 300:
		d.add(problem(RuleMonitoringBasic, value, m.Want))
	case m.Want < 60 && (m.Prior == nil || *m.Prior != m.Want):
		d.add(problem(RuleMonitoringBilled, value, in.Label, m.Want))
	}
}
