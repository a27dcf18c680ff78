package simulator

import (
	"strconv"
	"strings"
)

// The monitoring period (README "Monitoring period"): ModifyDBInstanceMonitor sets the seconds
// between two samples of an instance's metrics, DescribeDBInstanceMonitor reads them. The default
// is 300 seconds; Basic-edition instances offer only 300.

// monitorPeriods are ModifyDBInstanceMonitor's Period values.
var monitorPeriods = []string{"5", "10", "60", "300"}

const defaultMonitorPeriod = 300

func (s *Simulator) modifyDBInstanceMonitor(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	raw, e := c.p.oneOf("Period", "", monitorPeriods...)
	if e != nil {
		return nil, e
	}
	if raw == "" {
		return nil, errMissing("Period")
	}
	period, _ := strconv.ParseInt(raw, 10, 64)
	if strings.EqualFold(in.Category, "Basic") && period != defaultMonitorPeriod {
		return nil, errInvalid("Period", "%s seconds: a Basic-edition instance is monitored every 300 seconds only", raw)
	}
	if e := in.writable("ModifyDBInstanceMonitor"); e != nil {
		return nil, e
	}
	in.MonitorPeriod, c.dirty = period, true
	return map[string]any{}, nil
}

func (s *Simulator) describeDBInstanceMonitor(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	period := in.MonitorPeriod
	if period == 0 {
		period = defaultMonitorPeriod
	}
	return map[string]any{"Period": strconv.FormatInt(period, 10)}, nil
}
