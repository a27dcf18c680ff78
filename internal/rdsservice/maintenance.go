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
	start, _ := w.Next(now)
	return fmt.Sprintf("in the maintenance window %s (next: %s)", w.text, start.Format("2006-01-02T15:04Z"))
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
	online := ParameterPlan{Send: map[string]string{}, Online: plan.Online, Withdrawn: plan.Withdrawn}
	deferred := map[string]string{}
	for name, v := range plan.Send {
		if slices.Contains(plan.Restart, name) {
			deferred[name] = v
		} else {
			online.Send[name] = v
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

// ScheduledFlagOf reads a pending spec-change task's target atomic_write_16k (TaskDetail's
// OptimizedWrites, "optimized" or "none"); nil when the task does not say.
func ScheduledFlagOf(task *rdsapi.HistoryTask) *ScheduledFlag {
	if task == nil || task.TaskType != rdsapi.TaskTypeModifySpec {
		return nil
	}
	var detail struct{ OptimizedWrites string }
	if json.Unmarshal([]byte(task.TaskDetail), &detail) != nil || detail.OptimizedWrites == "" {
		return nil
	}
	return &ScheduledFlag{On: strings.EqualFold(detail.OptimizedWrites, "optimized"), StartsAt: task.StartTime}
}
