package simulator

import (
	"strings"
	"time"
)

// Automatic switchover (README "Automatic switchover"): ModifyHASwitchConfig turns the automatic
// primary/secondary switchover off (Manual) until ManualHATime, at most seven days ahead (until
// 23:59:59 of the seventh day), or on again (Auto); DescribeHASwitchConfig reads it. A Manual
// configuration reverts to Auto on the simulated clock once ManualHATime is reached.

// haSwitch is an instance's switchover configuration; nil: Auto, the default.
type haSwitch struct {
	Manual bool      `json:"manual"`
	Until  time.Time `json:"until"`
}

func (s *Simulator) modifyHASwitchConfig(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	mode, e := c.p.oneOf("HAConfig", "Auto", "Auto", "Manual")
	if e != nil {
		return nil, e
	}
	if in.MasterID != "" || strings.EqualFold(in.Category, "Basic") {
		return nil, newErr(403, "IncorrectDBInstanceType", "Current DB instance type does not support this operation: %s has no secondary node (%s).", in.ID, describeRole(in))
	}
	next := &haSwitch{}
	if mode == "Manual" {
		if next.Until, e = s.manualHATime(c.p.get("ManualHATime")); e != nil {
			return nil, e
		}
		next.Manual = true
	}
	if e := in.writable("ModifyHASwitchConfig"); e != nil {
		return nil, e
	}
	in.HASwitch, c.dirty = next, true
	return map[string]any{}, nil
}

// manualHATime parses ManualHATime: required with Manual, in the future and no later than
// 23:59:59 (UTC) of the seventh day from now.
func (s *Simulator) manualHATime(raw string) (time.Time, *apiError) {
	if strings.TrimSpace(raw) == "" {
		return time.Time{}, errMissing("ManualHATime")
	}
	until, e := parseTimestamp("ManualHATime", raw)
	if e != nil {
		return time.Time{}, e
	}
	now := s.cloudNow().UTC()
	latest := time.Date(now.Year(), now.Month(), now.Day()+7, 23, 59, 59, 0, time.UTC)
	if !until.After(now) || until.After(latest) {
		return time.Time{}, errInvalid("ManualHATime", "%s is not between now and %s", raw, latest.Format(timestampLayout))
	}
	return until, nil
}

func (s *Simulator) describeHASwitchConfig(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if in.HASwitch != nil && in.HASwitch.Manual && !s.cloudNow().Before(in.HASwitch.Until) {
		in.HASwitch, c.dirty = nil, true // reverted to Auto at ManualHATime
	}
	if in.HASwitch == nil || !in.HASwitch.Manual {
		return map[string]any{"HAConfig": "Auto", "ManualHATime": ""}, nil
	}
	return map[string]any{"HAConfig": "Manual", "ManualHATime": in.HASwitch.Until.UTC().Format(timestampLayout)}, nil
}
