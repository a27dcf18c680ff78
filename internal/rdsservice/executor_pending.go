package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// waitWindowTasks waits until no task of the instance waits any more and it is Running again.
func (x *executor) waitWindowTasks(ctx context.Context) error {
	var taskErr error
	attr, err := x.w.WaitFor(ctx, x.out.ID, "the tasks of the maintenance window, which is open now, to run", func(a *rdsapi.DBInstanceAttribute) bool {
		if !IsRunning(a) {
			return false
		}
		var t *rdsapi.HistoryTask
		t, taskErr = PendingTask(ctx, x.api, x.out.ID)
		return taskErr != nil || t == nil
	})
	if err == nil {
		err = taskErr
	}
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow, x.stale = true, true
	return nil
}
