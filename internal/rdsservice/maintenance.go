package rdsservice

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Values of apply_restarts: how a change that restarts the instance is submitted.
const (
	ApplyRestartsImmediately = "immediately"
	ApplyRestartsInWindow    = "in_maintenance_window"
)

// MaintenanceWindow is a daily window in UTC, "HH:mmZ-HH:mmZ" as RDS writes MaintainTime; it may
// wrap midnight (22:00Z-02:00Z).
type MaintenanceWindow struct {
	start, end int // minutes after midnight UTC
	text       string
}

var maintenanceWindowPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])Z-([01][0-9]|2[0-3]):([0-5][0-9])Z$`)

// ParseMaintenanceWindow reads "HH:mmZ-HH:mmZ"; start and end must differ.
func ParseMaintenanceWindow(s string) (MaintenanceWindow, error) {
	m := maintenanceWindowPattern.FindStringSubmatch(s)
	if m == nil {
		return MaintenanceWindow{}, fmt.Errorf("%q is not HH:mmZ-HH:mmZ in UTC (for example \"02:00Z-06:00Z\")", s)
	}
	minutes := func(h, mm string) int {
		hv, _ := strconv.Atoi(h)
		mv, _ := strconv.Atoi(mm)
		return hv*60 + mv
	}
	w := MaintenanceWindow{start: minutes(m[1], m[2]), end: minutes(m[3], m[4]), text: s}
	if w.start == w.end {
		return MaintenanceWindow{}, fmt.Errorf("%q starts and ends at the same time; give a window of at least one minute", s)
	}
	return w, nil
}

func (w MaintenanceWindow) String() string { return w.text }

func (w MaintenanceWindow) length() time.Duration {
	return time.Duration((w.end-w.start+24*60)%(24*60)) * time.Minute
}

// Next returns the occurrence of the window that contains now, or else the next one: the window
// in which a change submitted at now runs.
func (w MaintenanceWindow) Next(now time.Time) (start, end time.Time) {
	day := now.UTC().Truncate(24 * time.Hour)
	for d := -1; ; d++ {
		start = day.AddDate(0, 0, d).Add(time.Duration(w.start) * time.Minute)
		if now.Before(start.Add(w.length())) {
			return start, start.Add(w.length())
		}
	}
}

// When describes the window for a plan message: "in the maintenance window 02:00Z-03:00Z (next:
// 2026-12-01T02:00Z)".
func (w MaintenanceWindow) When(now time.Time) string {
	start, end := w.Next(now)
	if !now.Before(start) {
		// A change ordered while the window is open runs in this occurrence, at once.
		return fmt.Sprintf("in the maintenance window %s, which is open now (until %s): the cloud starts it right away", w.text, end.UTC().Format("2006-01-02T15:04Z"))
	}
	return fmt.Sprintf("in the maintenance window %s (next: %s)", w.text, start.UTC().Format("2006-01-02T15:04Z"))
}

// CheckMaintenanceWindow refuses a maintenance_window the cloud would refuse; unknown is skipped.
func CheckMaintenanceWindow(v Val[string]) []Problem {
	if !v.IsKnown() {
		return nil
	}
	if _, err := ParseMaintenanceWindow(v.Value()); err != nil {
		return []Problem{problem(RuleMaintenanceWindowFormat, v.Value(), err.Error())}
	}
	return nil
}

// ScheduleParameters sends a parameter change whose restart waits for the maintenance window:
// the values that need no restart with SwitchTimeMode=Immediate (they run at once, and the apply
// waits for them), the others with Forcerestart and SwitchTimeMode=MaintainTime (configured now,
// applied by the window's one restart, which a spec change of the same window shares). It never
// waits for a restart.
func ScheduleParameters(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, plan ParameterPlan) error {
	if plan.GroupID != "" {
		// The group first (P8): its online values run at once, the others wait for the window.
		err := sendParameters(ctx, api, waiter, &rdsapi.ModifyParameterRequest{DBInstanceID: id, ParameterGroupID: plan.GroupID,
			Forcerestart: true, SwitchTimeMode: rdsapi.SwitchTimeMaintainTime})
		if err != nil {
			return fmt.Errorf("scheduling parameter group %s of RDS instance %s for the maintenance window: %w", plan.GroupID, id, err)
		}
	}
	// Only the instance's own online values are sent here and waited for: the group's were set by its call.
	online := ParameterPlan{Send: map[string]string{}, Withdrawn: plan.Withdrawn}
	deferred := map[string]string{}
	for name, v := range plan.ownValues() {
		if slices.Contains(plan.Restart, name) {
			deferred[name] = v
			continue
		}
		online.Send[name] = v
		if slices.Contains(plan.Online, name) {
			online.Online = append(online.Online, name)
		}
	}
	if len(online.Send) > 0 {
		if _, err := ApplyParameters(ctx, api, waiter, id, online, false); err != nil {
			return err
		}
	}
	if len(deferred) == 0 {
		return nil
	}
	req := &rdsapi.ModifyParameterRequest{
		DBInstanceID: id, Parameters: deferred, Forcerestart: true,
		SwitchTimeMode: rdsapi.SwitchTimeMaintainTime, ClientToken: rdsapi.NewClientToken(),
	}
	if err := waiter.RetryBusy(ctx, func() error { return api.ModifyParameter(ctx, req) }); err != nil {
		return fmt.Errorf("scheduling parameters of RDS instance %s for the maintenance window (%s): %w", id, strings.Join(sortedKeys(deferred), ", "), err)
	}
	return nil
}

// ScheduledTask is a change waiting for the instance's maintenance window, read from its task
// (TaskDetail: the whole spec target of a ModifyDBInstanceSpec, or a ModifyParameter's values).
type ScheduledTask struct {
	ID, StartsAt string
	// Spec is set for a spec change.
	Spec *ScheduledSpec
	// Parameters are the values a parameter change applies.
	Parameters map[string]string
}

// ScheduledSpec is a spec change's target.
type ScheduledSpec struct {
	InstanceClass, StorageType       string
	Storage                          int64
	AtomicWrite, BufferPoolExtension bool
}

// ScheduledTaskOf reads a pending task; nil when there is none or its detail cannot be read.
func ScheduledTaskOf(task *rdsapi.HistoryTask) *ScheduledTask {
	if task == nil {
		return nil
	}
	var detail struct {
		DBInstanceClass, DBInstanceStorageType, OptimizedWrites, IoAccelerationEnabled string
		DBInstanceStorage                                                              int64
		Parameters                                                                     map[string]string
	}
	if json.Unmarshal([]byte(task.TaskDetail), &detail) != nil {
		return nil
	}
	out := &ScheduledTask{ID: task.TaskID, StartsAt: task.StartTime, Parameters: detail.Parameters}
	if task.TaskType == rdsapi.TaskTypeModifySpec && detail.OptimizedWrites != "" {
		out.Spec = &ScheduledSpec{InstanceClass: detail.DBInstanceClass, StorageType: detail.DBInstanceStorageType, Storage: detail.DBInstanceStorage,
			AtomicWrite: strings.EqualFold(detail.OptimizedWrites, "optimized"), BufferPoolExtension: detail.IoAccelerationEnabled == "1"}
	}
	return out
}

// Changes describes the task against the instance as it is, as scheduled_change lists them.
func (t ScheduledTask) Changes(cur ExistingInstance) []string {
	var out []string
	if s := t.Spec; s != nil {
		out = SpecChangeRestarts(cur, &s.AtomicWrite, SpecChange{InstanceClass: s.InstanceClass, StorageType: s.StorageType, Storage: s.Storage})
		if s.Storage > cur.Storage && !StorageChangeRestarts(cur.Storage, s.Storage, cur.StorageType, s.StorageType) {
			out = append(out, fmt.Sprintf("storage changes from %d GB to %d GB", cur.Storage, s.Storage))
		}
		if s.BufferPoolExtension != cur.BufferPoolExtension {
			out = append(out, fmt.Sprintf("buffer_pool_extension changes from %t to %t", cur.BufferPoolExtension, s.BufferPoolExtension))
		}
	}
	for _, name := range sortedKeys(t.Parameters) {
		out = append(out, fmt.Sprintf("parameter %s is set to %s", name, t.Parameters[name]))
	}
	return out
}

// ScheduledFlagOf is a pending spec change's target atomic_write_16k; nil when the task is not one.
func ScheduledFlagOf(task *rdsapi.HistoryTask) *ScheduledFlag {
	t := ScheduledTaskOf(task)
	if t == nil || t.Spec == nil {
		return nil
	}
	return &ScheduledFlag{On: t.Spec.AtomicWrite, StartsAt: t.StartsAt}
}
