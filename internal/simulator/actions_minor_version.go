package simulator

import (
	"fmt"
	"regexp"
	"slices"
	"time"
)

// Minor engine versions of MySQL (README "Minor versions"): the running version of each instance,
// the catalogue of versions per major version, UpgradeDBInstanceKernelVersion,
// ModifyDBInstanceAutoUpgradeMinorVersion, and the cloud's own upgrade of Auto instances in their
// maintenance window.

func init() {
	actions["UpgradeDBInstanceKernelVersion"] = (*Simulator).upgradeDBInstanceKernelVersion
	actions["ModifyDBInstanceAutoUpgradeMinorVersion"] = (*Simulator).modifyDBInstanceAutoUpgradeMinorVersion
	actions["DescribeDBMiniEngineVersions"] = (*Simulator).describeDBMiniEngineVersions
}

const (
	statusMinorUpgrading  = "MinorVersionUpgrading"
	taskTypeUpgradeKernel = "UpgradeDBInstanceKernelVersion"
	autoUpgradeAuto       = "Auto"
	autoUpgradeManual     = "Manual"
)

// minorVersions is the simulator's catalogue of minor versions per MySQL major version, oldest
// first; the last is the latest. The dates are the simulator's choice (README: an assumption),
// except the thresholds Alibaba documents: 20191015 (TDE on 5.6) and 20201031 (zone moves of
// cloud-disk instances).
var minorVersions = map[string][]string{
	"5.6": {"rds_20190815", "rds_20191015", "rds_20200229", "rds_20230630"},
	"5.7": {"rds_20200229", "rds_20201031", "rds_20230630", "rds_20250630"},
	"8.0": {"rds_20200229", "rds_20201031", "rds_20230630", "rds_20250630"},
	"8.4": {"rds_20250630"},
}

// tdeMinMinor56 is the first minor version of MySQL 5.6 with TDE (README "SSL and TDE").
const tdeMinMinor56 = "rds_20191015"

var minorVersionPattern = regexp.MustCompile(`^rds_[0-9]{8}$`)

// minorVersion is an instance's kernel; nil on an instance means the latest of its major version,
// upgraded automatically (the cloud's defaults for a new instance).
type minorVersion struct {
	// Version is the running minor version of Major; after a major version upgrade the instance
	// runs the latest minor version of the new major version.
	Version string `json:"version"`
	Major   string `json:"major"`
	Manual  bool   `json:"manual,omitempty"`
	// Since is when Version was set: the cloud's own upgrade waits for a window starting later.
	Since time.Time `json:"since"`
}

func latestMinor(major string) string {
	list := minorVersions[major]
	if len(list) == 0 {
		return ""
	}
	return list[len(list)-1]
}

// kernelOf is CurrentKernelVersion: a read-only instance runs its primary's (README: assumption).
func (s *Simulator) kernelOf(in *instance) string {
	if p, ok := s.state.Instances[in.MasterID]; ok && in.MasterID != "" {
		return s.kernelOf(p)
	}
	if in.Minor == nil || in.Minor.Major != in.EngineVersion {
		return latestMinor(in.EngineVersion)
	}
	return in.Minor.Version
}

func autoUpgradeOf(in *instance) string {
	if in.Minor != nil && in.Minor.Manual {
		return autoUpgradeManual
	}
	return autoUpgradeAuto
}

// setKernel records the running minor version, keeping the upgrade setting.
func setKernel(in *instance, version string, at time.Time) {
	manual := in.Minor != nil && in.Minor.Manual
	in.Minor = &minorVersion{Version: version, Major: in.EngineVersion, Manual: manual, Since: at}
}

// parseTargetMinor reads CreateDBInstance's TargetMinorVersion: one of the catalogue's versions of
// the major version; nil when absent.
func parseTargetMinor(p params, major string, now time.Time) (*minorVersion, *apiError) {
	v := p.get("TargetMinorVersion")
	if v == "" {
		return nil, nil
	}
	if !slices.Contains(minorVersions[major], v) {
		return nil, errMinorNotOffered(v, major)
	}
	return &minorVersion{Version: v, Major: major, Since: now}, nil
}

func errMinorNotOffered(v, major string) *apiError {
	return newErr(400, "InvalidTargetMinorVersion.NotFound", "Minor version %q is not offered for MySQL %s; offered: %v.", truncate(v), major, minorVersions[major])
}

// describeDBMiniEngineVersions lists the catalogue's minor versions of one MySQL major version
// (README "Minor versions"): every one is released, Online and in its lifecycle (ExpireStatus
// "vaild", the model's spelling); another engine lists none. One page: TotalCount, PageNumbers.
func (s *Simulator) describeDBMiniEngineVersions(c *call) (map[string]any, *apiError) {
	engine, e := c.p.required("Engine")
	if e != nil {
		return nil, e
	}
	major, e := c.p.required("EngineVersion")
	if e != nil {
		return nil, e
	}
	items := []map[string]any{}
	if engine == "MySQL" {
		for _, v := range minorVersions[major] {
			items = append(items, map[string]any{"Engine": engine, "EngineVersion": major, "MinorVersion": v, "StatusDesc": "Online",
				"ReleaseType": "LTS", "IsHotfixVersion": false, "ExpireStatus": "vaild"})
		}
	}
	return map[string]any{"MinorVersionItems": items, "TotalCount": len(items), "PageNumbers": 1, "MaxRecordsPerPage": max(len(items), 30)}, nil
}

// upgradeDBInstanceKernelVersion upgrades a primary's minor version (and with it its read-only
// instances'), now, in the maintenance window or at SwitchTime.
func (s *Simulator) upgradeDBInstanceKernelVersion(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	when, e := c.p.oneOf("UpgradeTime", "Immediate", "Immediate", "MaintainTime", "SpecifyTime")
	if e != nil {
		return nil, e
	}
	target := c.p.get("TargetMinorVersion")
	if target == "" {
		target = latestMinor(in.EngineVersion)
	}
	if e := s.checkKernelUpgrade(in, target); e != nil {
		return nil, e
	}
	start, end, e := kernelUpgradeTime(c, in, when)
	if e != nil {
		return nil, e
	}
	s.state.NextTask++
	taskID := fmt.Sprintf("%d", 10000000+s.state.NextTask)
	c.dirty = true
	answer := map[string]any{"TaskId": taskID, "DBInstanceName": in.ID, "TargetMinorVersion": target}
	if when == "Immediate" {
		s.startKernelUpgrade(in, target, c.now)
		return answer, nil
	}
	s.cancelPendingTasks(in.ID, taskTypeUpgradeKernel, "replaced by a later order")
	s.state.Tasks = append(s.state.Tasks, &task{ID: taskID, InstanceID: in.ID, Type: taskTypeUpgradeKernel,
		Status: taskScheduled, Created: c.now, Start: start, End: end, MinorVersion: target})
	return answer, nil
}

// kernelUpgradeTime is when a deferred upgrade runs: the maintenance window, or SwitchTime (an
// hour from it to start, an assumption).
func kernelUpgradeTime(c *call, in *instance, when string) (start, end time.Time, e *apiError) {
	switch when {
	case "MaintainTime":
		start, end = windowAround(in.MaintainTime, c.now)
		return start, end, nil
	case "SpecifyTime":
		raw, e := c.p.required("SwitchTime")
		if e != nil {
			return start, end, e
		}
		at, err := time.Parse(timestampLayout, raw)
		if err != nil || at.Before(c.now) {
			return start, end, errInvalid("SwitchTime", "%q is not a future time in yyyy-MM-ddTHH:mm:ssZ", truncate(raw))
		}
		return at, at.Add(time.Hour), nil
	}
	return start, end, nil
}

// checkKernelUpgrade is every rule an upgrade to target must pass now.
func (s *Simulator) checkKernelUpgrade(in *instance, target string) *apiError {
	current := s.kernelOf(in)
	switch {
	case !in.isMySQL():
		return newErr(400, "InvalidEngine.NotSupport", "The simulator upgrades minor versions of MySQL instances only; %s runs %s.", in.ID, in.Engine)
	case in.MasterID != "":
		return newErr(400, "IncorrectDBInstanceType", "%s is a read-only instance: it runs the minor version of its primary %s; upgrade the primary.", in.ID, in.MasterID)
	case !minorVersionPattern.MatchString(target) || !slices.Contains(minorVersions[in.EngineVersion], target):
		return errMinorNotOffered(target, in.EngineVersion)
	case target <= current:
		return newErr(400, "InvalidTargetMinorVersion.Downgrade", "%s runs minor version %s; %s is not later (a minor version cannot be lowered).", in.ID, current, target)
	}
	return in.writable("UpgradeDBInstanceKernelVersion")
}

// startKernelUpgrade takes the instance out of service once (a switchover on High-availability,
// a restart of the single node on Basic) and its read-only instances with it.
func (s *Simulator) startKernelUpgrade(in *instance, target string, at time.Time) {
	s.startRestart(in, statusMinorUpgrading, at, in.Optimized)
	setKernel(in, target, at)
	for _, id := range s.state.readOnlyIDs(in.ID) {
		if ro := s.state.Instances[id]; ro.Status == statusRunning {
			s.startRestart(ro, statusMinorUpgrading, at, ro.Optimized)
		}
	}
}

// runKernelTask starts a deferred upgrade at its time; it returns why the rules refuse it now.
func (s *Simulator) runKernelTask(in *instance, t *task, at time.Time) string {
	if e := s.checkKernelUpgrade(in, t.MinorVersion); e != nil {
		return e.message
	}
	s.startKernelUpgrade(in, t.MinorVersion, at)
	return ""
}

// lastWindowStart is the start of the latest window occurrence that began at or before now.
func lastWindowStart(window string, now time.Time) time.Time {
	start, _ := windowAround(window, now)
	if start.After(now) {
		start = start.Add(-24 * time.Hour)
	}
	return start
}

// modifyDBInstanceAutoUpgradeMinorVersion sets Auto or Manual (no restart).
func (s *Simulator) modifyDBInstanceAutoUpgradeMinorVersion(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("AutoUpgradeMinorVersion"); e != nil {
		return nil, e
	}
	value, e := c.p.oneOf("AutoUpgradeMinorVersion", "", autoUpgradeAuto, autoUpgradeManual)
	if e != nil {
		return nil, e
	}
	if e := in.writable("ModifyDBInstanceAutoUpgradeMinorVersion"); e != nil {
		return nil, e
	}
	if in.Minor == nil || in.Minor.Major != in.EngineVersion {
		setKernel(in, s.kernelOf(in), c.now)
	}
	in.Minor.Manual = value == autoUpgradeManual
	c.dirty = true
	return map[string]any{}, nil
}

// autoUpgradeMinor is the cloud's own upgrade: a Running MySQL primary set to Auto and behind the
// latest minor version is upgraded to it in the first maintenance window that starts after its
// version was set (README: the documents say "periodically"; the window is the simulator's choice).
func (s *Simulator) autoUpgradeMinor(now time.Time) bool {
	changed := false
	for _, in := range s.state.Instances {
		latest := latestMinor(in.EngineVersion)
		if in.MasterID != "" || !in.isMySQL() || in.Status != statusRunning || autoUpgradeOf(in) != autoUpgradeAuto ||
			latest == "" || s.kernelOf(in) >= latest || in.writable("UpgradeDBInstanceKernelVersion") != nil {
			continue
		}
		if start := lastWindowStart(in.MaintainTime, now); start.After(in.Minor.Since) {
			s.startKernelUpgrade(in, latest, start)
			changed = true
		}
	}
	return changed
}
