package rdsservice

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Settings are an instance's settings that change without a restart, each by its own call. A nil
// field is left alone.
type Settings struct {
	Name               *string
	SecurityIPs        []string
	DeletionProtection *bool
	MaintenanceWindow  *string
}

// SettingsOf is an instance's settings as the cloud reports them.
func SettingsOf(a *rdsapi.DBInstanceAttribute) Settings {
	dp := bool(a.DeletionProtection)
	name, window := a.DBInstanceDescription, a.MaintainTime
	return Settings{Name: &name, SecurityIPs: SplitList(a.SecurityIPList), DeletionProtection: &dp, MaintenanceWindow: &window}
}

// SplitList splits a comma list, trimmed and sorted, without empty items.
func SplitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func differs(want, current *string) bool { return want != nil && (current == nil || *current != *want) }

func (want Settings) nameDiffers(current Settings) bool {
	return want.Name != nil && *want.Name != "" && differs(want.Name, current.Name)
}

func (want Settings) ipsDiffer(current Settings) bool {
	return want.SecurityIPs != nil && strings.Join(want.SecurityIPs, ",") != strings.Join(current.SecurityIPs, ",")
}

func (want Settings) protectionDiffers(current Settings) bool {
	return want.DeletionProtection != nil && (current.DeletionProtection == nil || *current.DeletionProtection != *want.DeletionProtection)
}

// Changes reports whether Apply would send anything to turn current into want.
func (want Settings) Changes(current Settings) bool {
	return want.nameDiffers(current) || want.ipsDiffer(current) || want.protectionDiffers(current) ||
		differs(want.MaintenanceWindow, current.MaintenanceWindow)
}

// Apply sends each setting of want that differs from current, retrying while the instance is
// busy, and reports whether it sent anything.
func (want Settings) Apply(ctx context.Context, api rdsapi.API, w *Waiter, id string, current Settings) (bool, error) {
	var calls []struct {
		action string
		send   func() error
	}
	add := func(cond bool, action string, send func() error) {
		if cond {
			calls = append(calls, struct {
				action string
				send   func() error
			}{action, send})
		}
	}
	add(want.nameDiffers(current), "ModifyDBInstanceDescription", func() error { return api.ModifyDBInstanceDescription(ctx, id, *want.Name) })
	add(want.ipsDiffer(current), "ModifySecurityIps", func() error {
		return api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id,
			SecurityIps: strings.Join(want.SecurityIPs, ","), DBInstanceIPArrayName: rdsapi.DefaultSecurityIPArray})
	})
	add(want.protectionDiffers(current), "ModifyDBInstanceDeletionProtection", func() error {
		return api.ModifyDBInstanceDeletionProtection(ctx, id, *want.DeletionProtection)
	})
	add(differs(want.MaintenanceWindow, current.MaintenanceWindow), "ModifyDBInstanceMaintainTime", func() error {
		return api.ModifyDBInstanceMaintainTime(ctx, id, *want.MaintenanceWindow)
	})
	for i, c := range calls {
		if err := w.RetryBusy(ctx, c.send); err != nil {
			return i > 0, fmt.Errorf("%s %s: %w", c.action, id, err)
		}
	}
	return len(calls) > 0, nil
}

// PendingTask finds the instance's deferred change that is still to happen, or nil: its spec
// change when there is one (its restart also applies deferred parameters), else its zone move or
// upgrade, else its deferred parameter restart.
func PendingTask(ctx context.Context, api rdsapi.API, id string) (*rdsapi.HistoryTask, error) {
	out, err := api.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{
		InstanceID: id, TaskType: rdsapi.TaskTypeModifySpec + "," + rdsapi.TaskTypeModifyParameter + "," + rdsapi.TaskTypeUpgradeEngineVersion + "," + rdsapi.TaskTypeUpgradeKernelVersion + "," + rdsapi.TaskTypeMigrateZone,
		Status: rdsapi.TaskStatusScheduled + "," + rdsapi.TaskStatusWaiting + "," + rdsapi.TaskStatusRunning,
	})
	if err != nil {
		return nil, err
	}
	tasks := out.Items
	rank := func(t rdsapi.HistoryTask) int {
		switch t.TaskType {
		case rdsapi.TaskTypeModifySpec:
			return 0
		case rdsapi.TaskTypeModifyParameter:
			return 2
		}
		return 1 // a zone move or upgrade: scheduled_change records the spec change of the same window first
	}
	sort.SliceStable(tasks, func(i, j int) bool {
		if rank(tasks[i]) != rank(tasks[j]) {
			return rank(tasks[i]) < rank(tasks[j])
		}
		return tasks[i].StartTime > tasks[j].StartTime
	})
	for i := range tasks {
		if tasks[i].InstanceID == id || tasks[i].InstanceID == "" {
			return &tasks[i], nil
		}
	}
	return nil, nil
}
