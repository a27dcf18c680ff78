package simulator

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Task statuses of the task centre (DescribeHistoryTasks).
const (
	taskScheduled = "Scheduled"
	taskSucceed   = "Succeed"
	taskFailed    = "Failed"
	taskCanceled  = "Canceled"
)

// TaskType values of changes deferred to the maintenance window: a spec change and a parameter
// change. Alibaba does not document TaskType values; these are the simulator's own (README).
const (
	taskTypeModifySpec      = "ModifyDBInstanceSpec"
	taskTypeModifyParameter = "ModifyParameter"
)

// specTarget is what a spec-change order sets: the whole target, as ModifyDBInstanceSpec carries it.
type specTarget struct {
	Class          string `json:"class"`
	Storage        int64  `json:"storage"`
	StorageType    string `json:"storage_type"`
	Optimized      bool   `json:"optimized"`
	IoAcceleration bool   `json:"io_acceleration"`
	// KeepsFlag: the order did not name OptimizedWrites, so the flag the instance has when the
	// window comes survives the change (unless the change makes it ineligible), as for an
	// immediate order; Optimized is then the flag as it was when the order arrived.
	KeepsFlag bool `json:"keeps_flag,omitempty"`
	// KeepsStorage: the order did not name DBInstanceStorage, so the disk keeps the size it has
	// when the window comes (storage autoscaling may have grown it meanwhile); Storage is then the
	// size when the order arrived. README "Maintenance windows" (an assumption).
	KeepsStorage bool `json:"keeps_storage,omitempty"`
	// Category is the edition after the change (actions_edition.go); "" in tasks saved before it.
	Category string `json:"category,omitempty"`
}

// task is a change deferred to the instance's maintenance window: a spec change
// (ModifyDBInstanceSpec EffectiveTime=MaintainTime, Target) or the restart that applies parameters
// (ModifyParameter SwitchTimeMode=MaintainTime, Params: the values that wait for it).
type task struct {
	ID         string            `json:"id"`
	InstanceID string            `json:"instance_id"`
	Type       string            `json:"type"`
	Status     string            `json:"status"`
	Created    time.Time         `json:"created"`
	Start      time.Time         `json:"start"` // the window's next start when the order was placed
	End        time.Time         `json:"end"`   // the window's end: a change not started by then fails
	Finished   time.Time         `json:"finished,omitzero"`
	Target     specTarget        `json:"target"`
	Params     map[string]string `json:"params,omitempty"`
	// EngineVersion is a deferred major version upgrade's target (actions_upgrade.go).
	EngineVersion string `json:"engine_version,omitempty"`
	// MinorVersion is a deferred minor version upgrade's target (actions_minor_version.go).
	MinorVersion string `json:"minor_version,omitempty"`
	// Zone is a deferred zone move (actions_zone.go).
	Zone   *zoneMove `json:"zone,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

var windowPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])Z-([01][0-9]|2[0-3]):([0-5][0-9])Z$`)

// parseWindow reads "HH:mmZ-HH:mmZ" (UTC) into minutes after midnight; the window may wrap midnight.
func parseWindow(s string) (start, end int, ok bool) {
	m := windowPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	at := func(h, mm string) int { hv, _ := strconv.Atoi(h); mv, _ := strconv.Atoi(mm); return hv*60 + mv }
	start, end = at(m[1], m[2]), at(m[3], m[4])
	return start, end, start != end
}

// windowAround returns the window occurrence that contains now, or else the next one.
func windowAround(window string, now time.Time) (start, end time.Time) {
	sm, em, ok := parseWindow(window)
	if !ok {
		sm, em, _ = parseWindow(defaultMaintainTime)
	}
	length := time.Duration((em-sm+24*60)%(24*60)) * time.Minute
	day := now.UTC().Truncate(24 * time.Hour)
	for _, d := range []int{-1, 0, 1} {
		s := day.AddDate(0, 0, d).Add(time.Duration(sm) * time.Minute)
		if now.Before(s.Add(length)) {
			return s, s.Add(length)
		}
	}
	return day.AddDate(0, 0, 2).Add(time.Duration(sm) * time.Minute), day.AddDate(0, 0, 2).Add(time.Duration(sm)*time.Minute + length)
}

// defaultMaintainTime is the window of a new instance, as the API reference's examples show it.
const defaultMaintainTime = "18:00Z-22:00Z"

// modifyDBInstanceMaintainTime sets the daily maintenance window; pending deferred changes move to
// the new window.
func (s *Simulator) modifyDBInstanceMaintainTime(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	window, e := c.p.required("MaintainTime")
	if e != nil {
		return nil, e
	}
	if _, _, ok := parseWindow(window); !ok {
		return nil, errInvalid("MaintainTime", "%q is not HH:mmZ-HH:mmZ in UTC with different start and end", truncate(window))
	}
	if e := in.writable("ModifyDBInstanceMaintainTime"); e != nil {
		return nil, e
	}
	in.MaintainTime = window
	for _, t := range s.state.pendingTasks(in.ID) {
		t.Start, t.End = windowAround(window, c.now)
	}
	c.dirty = true
	return map[string]any{}, nil
}

// scheduleSpecChange records a validated spec change to run in the instance's next maintenance
// window. It replaces a change already pending for the instance: every order carries the whole
// target, so the latest one is what the window applies, with one restart.
func (s *Simulator) scheduleSpecChange(in *instance, now time.Time, target specTarget) {
	s.cancelPendingTasks(in.ID, taskTypeModifySpec, "replaced by a later order")
	if target.leaving(in) == in.currentTarget() {
		return // Q9: an order that changes nothing (for instance, one that reverts a pending change)
	}
	start, end := windowAround(in.MaintainTime, now)
	s.state.NextTask++
	s.state.Tasks = append(s.state.Tasks, &task{
		ID: fmt.Sprintf("t-sim%08d", s.state.NextTask), InstanceID: in.ID, Type: taskTypeModifySpec,
		Status: taskScheduled, Created: now, Start: start, End: end, Target: target,
	})
}

// leaving is the target with the flag and the storage it leaves in with, as in has them now.
func (t specTarget) leaving(in *instance) specTarget {
	if t.KeepsFlag {
		t.Optimized, t.KeepsFlag = in.Optimized, false
	}
	if t.KeepsStorage {
		t.Storage, t.KeepsStorage = in.Storage, false
	}
	return t
}

func (in *instance) currentTarget() specTarget {
	return specTarget{Class: in.Class, Storage: in.Storage, StorageType: in.StorageType, Optimized: in.Optimized, IoAcceleration: in.IoAcceleration,
		Category: in.Category}
}

// cancelPendingTasks cancels the instance's scheduled changes of one type (a later order
// supersedes them).
func (s *Simulator) cancelPendingTasks(id, taskType, reason string) {
	for _, t := range s.state.pendingTasks(id) {
		if t.Type == taskType {
			t.Status, t.Reason = taskCanceled, reason
		}
	}
}

// scheduleParameterRestart records that values (restart-needing parameters just configured) wait
// for the restart of the instance's next maintenance window. One such task per instance: a later
// deferred ModifyParameter joins the pending one, and values set back to their running value
// leave it (a task left with none is cancelled).
func (s *Simulator) scheduleParameterRestart(in *instance, now time.Time, values map[string]string) {
	var pending *task
	for _, t := range s.state.pendingTasks(in.ID) {
		if t.Type == taskTypeModifyParameter {
			pending = t
		}
	}
	if pending == nil {
		if len(values) == 0 {
			return
		}
		start, end := windowAround(in.MaintainTime, now)
		s.state.NextTask++
		pending = &task{ID: fmt.Sprintf("t-sim%08d", s.state.NextTask), InstanceID: in.ID, Type: taskTypeModifyParameter,
			Status: taskScheduled, Created: now, Start: start, End: end, Params: map[string]string{}}
		s.state.Tasks = append(s.state.Tasks, pending)
	}
	for name, v := range values {
		pending.Params[name] = v
	}
	s.pruneParameterTask(in)
}

// pruneParameterTask drops from the instance's pending parameter task the values that no longer
// wait (withdrawn, or replaced by another value), and cancels the task when none is left.
func (s *Simulator) pruneParameterTask(in *instance) {
	for _, t := range s.state.pendingTasks(in.ID) {
		if t.Type != taskTypeModifyParameter {
			continue
		}
		for name, v := range t.Params {
			if in.ParamConfig[name] != v {
				delete(t.Params, name)
			}
		}
		if len(t.Params) == 0 {
			t.Status, t.Reason = taskCanceled, "no parameter waits for a restart any more"
		}
	}
}

// waitingParams reports whether any value of a parameter task still waits for a restart.
func (t *task) waitingParams(in *instance) bool {
	for name, v := range t.Params {
		if in.ParamConfig[name] == v {
			return true
		}
	}
	return false
}

// failTask fails a scheduled change. A parameter task's values that still wait are withdrawn:
// the change did not happen, so the instance keeps the values it runs (DescribeParameters then
// shows them, and the provider the drift).
func (s *Simulator) failTask(t *task, reason string, now time.Time) {
	t.Status, t.Reason, t.Finished = taskFailed, reason, now
	in, ok := s.state.Instances[t.InstanceID]
	if !ok {
		return
	}
	for name, v := range t.Params {
		if in.ParamConfig[name] == v {
			delete(in.ParamConfig, name)
		}
	}
}

func (st *state) pendingTasks(id string) []*task {
	var out []*task
	for _, t := range st.Tasks {
		if t.InstanceID == id && t.Status == taskScheduled {
			out = append(out, t)
		}
	}
	return out
}

// runDueTasks carries out the scheduled changes whose window has come: on a Running instance
// the change starts with one restart (and the rule-7 cascade); an instance that is not Running
// when the window ends, or whose change the rules no longer allow, fails the task. Spec changes
// run first: their restart applies the waiting parameters too, so a parameter task of the same
// window then succeeds without a second restart.
func (s *Simulator) runDueTasks(now time.Time) bool {
	changed := false
	for _, taskType := range []string{taskTypeModifySpec, taskTypeUpgradeEngine, taskTypeUpgradeKernel, taskTypeMigrateZone, taskTypeModifyParameter} {
		for _, t := range s.state.Tasks {
			if t.Type != taskType || t.Status != taskScheduled || now.Before(t.Start) {
				continue
			}
			if s.runDueTask(t, now) {
				changed = true
			}
		}
	}
	return changed
}

// runDueTask runs one due task; false when it must wait (the instance is busy, the window lasts).
func (s *Simulator) runDueTask(t *task, now time.Time) bool {
	in, ok := s.state.Instances[t.InstanceID]
	at := t.Start
	if ok && in.Status != statusRunning && in.Status != statusDeleting && !in.StatusUntil.IsZero() &&
		in.StatusUntil.Before(t.End) && !now.Before(in.StatusUntil) {
		// Running again within the window (another task of the window restarted it, and the clock
		// passed both in one step): the task runs then.
		in.Status, in.StatusUntil, at = statusRunning, time.Time{}, maxTime(t.Start, in.StatusUntil)
	}
	switch {
	case !ok:
		t.Status, t.Reason, t.Finished = taskCanceled, "the instance was released", now
	case t.Type == taskTypeModifyParameter && !t.waitingParams(in):
		// An earlier restart (this window's spec change, or any other) applied the values.
		t.Status, t.Finished = taskSucceed, now
	case in.writable(t.Type) == nil && t.Type == taskTypeUpgradeEngine:
		t.Status, t.Reason, t.Finished = taskSucceed, s.runUpgradeTask(in, t, at), now
		if t.Reason != "" {
			t.Status = taskFailed
		}
	case in.writable(t.Type) == nil && t.Type == taskTypeUpgradeKernel:
		t.Status, t.Reason, t.Finished = taskSucceed, s.runKernelTask(in, t, at), now
		if t.Reason != "" {
			t.Status = taskFailed
		}
	case in.writable(t.Type) == nil && t.Type == taskTypeMigrateZone:
		t.Status, t.Reason, t.Finished = taskSucceed, s.runZoneMoveTask(in, t, at), now
		if t.Reason != "" {
			t.Status = taskFailed
		}
	case in.writable(t.Type) == nil && t.Type == taskTypeModifyParameter:
		s.startRestart(in, statusRebooting, at, in.Optimized)
		t.Status, t.Finished = taskSucceed, now
	case in.writable(t.Type) == nil:
		if reason := s.applySpecTarget(in, t.Target, at); reason != "" {
			t.Status, t.Reason = taskFailed, reason
		} else {
			t.Status = taskSucceed
		}
		t.Finished = now
	case !now.Before(t.End):
		s.failTask(t, "the instance was "+in.Status+" or locked for the whole maintenance window", now)
	default:
		return false
	}
	return true
}

// applySpecTarget starts a deferred change at the window's start; it returns why the rules refuse
// it now, or "" once the restart has started.
func (s *Simulator) applySpecTarget(in *instance, target specTarget, at time.Time) string {
	if target.KeepsStorage {
		target.Storage = in.Storage
	}
	optimized := target.Optimized
	if target.KeepsFlag {
		optimized = in.Optimized && eligible(in.Engine, in.EngineVersion, target.StorageType, target.Class, in.PurchaseTime,
			in.ProductTypeChanged || crossesProductType(in, target.Class))
	}
	if !optimized && in.Optimized && in.MasterID != "" {
		if primary, ok := s.state.Instances[in.MasterID]; ok && primary.Optimized {
			return "16K atomic write cannot be turned off while the primary " + primary.ID + " has it on"
		}
	}
	followers := s.followersToTurnOn(in, optimized)
	in.ProductTypeChanged = in.ProductTypeChanged || crossesProductType(in, target.Class)
	switched := target.Class != in.Class || target.StorageType != in.StorageType || (target.Category != "" && target.Category != in.Category)
	in.Class, in.Storage, in.StorageType, in.IoAcceleration = target.Class, target.Storage, target.StorageType, target.IoAcceleration
	if target.Category != "" {
		in.Category = target.Category
	}
	s.startRestart(in, statusClassChanging, at, optimized)
	s.noteProxyDrop(in, switched, at)
	for _, ro := range followers {
		s.startRestart(ro, statusClassChanging, at.Add(s.opts.RestartDuration), true)
	}
	return ""
}

// followersToTurnOn lists the eligible read-only instances that follow a primary being turned on.
func (s *Simulator) followersToTurnOn(in *instance, optimized bool) []*instance {
	if !optimized || in.Optimized || in.MasterID != "" {
		return nil
	}
	var out []*instance
	for _, id := range s.state.readOnlyIDs(in.ID) {
		if ro := s.state.Instances[id]; !ro.Optimized && ro.eligible() && ro.Status == statusRunning {
			out = append(out, ro)
		}
	}
	return out
}

// accountUID is the simulated account's id, as task items name the owner and the caller (Uid,
// CallerUid). Recordings scrub real account ids to this value (internal/rdsapi/record.go).
const accountUID = "1000000000000000"

// taskProgress: a finished task is at 100 percent, any other at 0 (the simulator's tasks run at once).
func taskProgress(status string) float64 {
	if status == taskSucceed {
		return 100
	}
	return 0
}

// historyWindow is the longest look-back of DescribeHistoryTasks: an earlier FromStartTime is read
// as 30 days before now (the rds-20140815 model's description of FromStartTime).
const historyWindow = 30 * 24 * time.Hour

// describeHistoryTasks lists the tasks whose StartTime is within [FromStartTime, ToStartTime] (both
// required by the rds-20140815 model), filtered by InstanceId, Status (a comma list) and TaskType.
func (s *Simulator) describeHistoryTasks(c *call) (map[string]any, *apiError) {
	from, to, e := historyRange(c)
	if e != nil {
		return nil, e
	}
	statuses := splitList(c.p.get("Status"))
	instances := splitList(c.p.get("InstanceId"))
	types := splitList(c.p.get("TaskType"))
	items := []map[string]any{}
	for _, t := range s.state.Tasks {
		if (len(statuses) > 0 && !slices.Contains(statuses, t.Status)) ||
			(len(instances) > 0 && !slices.Contains(instances, t.InstanceID)) ||
			(len(types) > 0 && !slices.Contains(types, t.Type)) ||
			t.Start.Before(from) || t.Start.After(to) {
			continue
		}
		region := s.opts.Region
		if in := s.state.Instances[t.InstanceID]; in != nil {
			region = in.RegionID
		}
		items = append(items, t.item(region, s.state.Instances[t.InstanceID]))
	}
	return map[string]any{"Items": items, "TotalCount": len(items), "PageNumber": 1, "PageSize": max(len(items), 10)}, nil
}

// historyRange reads FromStartTime and ToStartTime (yyyy-MM-ddTHH:mm:ssZ, UTC).
func historyRange(c *call) (from, to time.Time, e *apiError) {
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{"FromStartTime", &from}, {"ToStartTime", &to}} {
		raw, e := c.p.required(f.name)
		if e != nil {
			return from, to, e
		}
		t, err := time.Parse(timestampLayout, raw)
		if err != nil {
			return from, to, errInvalid(f.name, "%q is not yyyy-MM-ddTHH:mm:ssZ", truncate(raw))
		}
		*f.t = t
	}
	if to.Before(from) {
		return from, to, errInvalid("ToStartTime", "ToStartTime is before FromStartTime")
	}
	return maxTime(from, c.now.Add(-historyWindow)), to, nil
}

// item is the task as DescribeHistoryTasks lists it; in is its instance (nil once released).
func (t *task) item(region string, in *instance) map[string]any {
	detail := map[string]any{
		"DBInstanceClass": t.Target.Class, "DBInstanceStorage": t.Target.Storage,
		"DBInstanceStorageType": t.Target.StorageType, "OptimizedWrites": onOff(t.Target.Optimized, "optimized", "none"),
		"IoAccelerationEnabled": onOff(t.Target.IoAcceleration, "1", "0"), "SwitchTime": t.Start.Format(timestampLayout),
	}
	if t.Type == taskTypeModifyParameter {
		detail = map[string]any{"Parameters": t.Params, "SwitchTime": t.Start.Format(timestampLayout)}
	}
	if t.Type == taskTypeUpgradeEngine {
		detail = map[string]any{"EngineVersion": t.EngineVersion, "SwitchTime": t.Start.Format(timestampLayout)}
	}
	if t.Type == taskTypeUpgradeKernel {
		detail = map[string]any{"TargetMinorVersion": t.MinorVersion, "SwitchTime": t.Start.Format(timestampLayout)}
	}
	if t.Type == taskTypeMigrateZone {
		detail = map[string]any{"ZoneId": t.Zone.Zone, "ZoneIdSlave1": slaveAt(t.Zone.SlaveZones, 0), "VSwitchId": t.Zone.VSwitchID, "SwitchTime": t.Start.Format(timestampLayout)}
	}
	if t.Reason != "" {
		detail["Reason"] = t.Reason
	}
	raw, _ := json.Marshal(detail)
	item := map[string]any{
		"TaskId": t.ID, "TaskType": t.Type, "InstanceId": t.InstanceID, "Status": t.Status, "RegionId": region,
		"Product": "rds", "DbType": "MySQL", "StartTime": t.Start.Format(timestampLayout), "TaskDetail": string(raw),
		"CallerSource": "User", "InstanceType": "Instance", "InstanceName": t.InstanceID,
		"Progress": taskProgress(t.Status), "Uid": accountUID, "CallerUid": accountUID,
	}
	if in != nil && in.Description != "" {
		item["InstanceName"] = in.Description
	}
	if !t.Finished.IsZero() {
		item["EndTime"] = t.Finished.Format(timestampLayout)
	}
	return item
}

func onOff(b bool, on, off string) string {
	if b {
		return on
	}
	return off
}

// missMaintenanceWindow fails the instance's scheduled changes as if their window had passed
// without them (an admin action for tests of a missed window). It returns how many failed.
func (s *Simulator) missMaintenanceWindow(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.cloudNow())
	n := 0
	for _, t := range s.state.pendingTasks(id) {
		s.failTask(t, "the maintenance window passed without the change", s.cloudNow())
		n++
	}
	_ = s.saveLocked()
	return n
}

// AdvanceClock moves the simulated cloud's clock forward by d, so that tests and demo users reach
// a maintenance window without waiting for it. Signatures are still checked against real time.
func (s *Simulator) AdvanceClock(d time.Duration) {
	if d <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clockOffset += d
	if s.advance(s.cloudNow()) {
		_ = s.saveLocked()
	}
}

// cloudNow is the simulated cloud's clock: the real (or injected) clock plus AdvanceClock's offset.
func (s *Simulator) cloudNow() time.Time { return s.now().Add(s.clockOffset) }

// MissMaintenanceWindow fails every change scheduled for the instance's maintenance window.
func (s *Simulator) MissMaintenanceWindow(id string) int { return s.missMaintenanceWindow(id) }

// isWindowSpec reports whether a ModifyDBInstanceSpec asks for the maintenance window.
func isWindowSpec(effective string) bool { return strings.EqualFold(effective, "MaintainTime") }

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
