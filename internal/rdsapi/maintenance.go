package rdsapi

import (
	"context"
	"fmt"
	"time"
)

// EffectiveTime values of ModifyDBInstanceSpec: at once, or in the instance's maintenance window
// (MaintainTime, as DescribeDBInstanceAttribute reports it).
const EffectiveTimeMaintainTime = "MaintainTime"

// Task statuses of DescribeHistoryTasks that the provider acts on. A deferred spec change is
// Scheduled until its window, then Running, then Succeed, or Failed/Canceled when it never happened.
const (
	TaskStatusScheduled = "Scheduled"
	TaskStatusWaiting   = "Waiting"
	TaskStatusRunning   = "Running"
	TaskStatusSucceed   = "Succeed"
	TaskStatusFailed    = "Failed"
	TaskStatusCanceled  = "Canceled"
)

// TaskType values the simulator gives a spec change and a parameter change deferred to the
// maintenance window (an assumption: Alibaba does not document the TaskType values).
const (
	TaskTypeModifySpec      = "ModifyDBInstanceSpec"
	TaskTypeModifyParameter = "ModifyParameter"
)

// historyTasksWindow is how far before and after now DescribeHistoryTasks looks, in the format
// its time parameters take.
const (
	historyTasksWindow = 30 * 24 * time.Hour
	historyTimeLayout  = "2006-01-02T15:04:05Z"
)

// DescribeHistoryTasksRequest filters the task centre's tasks (created in the last 30 days).
type DescribeHistoryTasksRequest struct {
	RegionID   string
	InstanceID string // one instance id
	Status     string // comma-separated statuses; empty for all
	TaskType   string
}

// HistoryTask is one task of DescribeHistoryTasks. TaskDetail is a JSON string whose content
// depends on TaskType.
type HistoryTask struct {
	TaskID     string     `json:"TaskId"`
	TaskType   string     `json:"TaskType"`
	InstanceID string     `json:"InstanceId"`
	Status     FlexString `json:"Status"`
	StartTime  string     `json:"StartTime"`
	EndTime    string     `json:"EndTime"`
	TaskDetail string     `json:"TaskDetail"`
}

// DescribeHistoryTasksResponse is one page of tasks.
type DescribeHistoryTasksResponse struct {
	RequestID  string        `json:"RequestId"`
	TotalCount FlexInt       `json:"TotalCount"`
	Items      []HistoryTask `json:"Items"`
}

// ModifyDBInstanceMaintainTime sets the daily maintenance window, "HH:mmZ-HH:mmZ" in UTC. Setting
// the same window again is harmless, so the call is resent on transient errors.
func (c *Client) ModifyDBInstanceMaintainTime(ctx context.Context, dbInstanceID, maintainTime string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceMaintainTime: %w", err)
	}
	p.set("MaintainTime", maintainTime)
	return c.call(ctx, "ModifyDBInstanceMaintainTime", p, true, nil)
}

// DescribeHistoryTasks lists the first page (up to 100) of the tasks that match; an instance
// has a handful of tasks in 30 days, so one page is all the provider needs.
//
// FromStartTime and ToStartTime are required (rds-20140815 model): the range is the 30 days the task
// centre keeps before the cloud's now and, for tasks scheduled for a later window or switch time,
// the 30 days after it (an assumption: the reference describes only the start's 30-day limit).
func (c *Client) DescribeHistoryTasks(ctx context.Context, req *DescribeHistoryTasksRequest) (*DescribeHistoryTasksResponse, error) {
	p := params{}
	now := c.now().Add(c.CloudOffset()).UTC()
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("FromStartTime", now.Add(-historyTasksWindow).Format(historyTimeLayout))
	p.set("ToStartTime", now.Add(historyTasksWindow).Format(historyTimeLayout))
	p.set("InstanceId", req.InstanceID)
	p.set("Status", req.Status)
	p.set("TaskType", req.TaskType)
	p.set("PageSize", "100")
	var out DescribeHistoryTasksResponse
	if err := c.call(ctx, "DescribeHistoryTasks", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
