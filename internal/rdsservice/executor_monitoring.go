package rdsservice

import (
	"context"
	"fmt"
)

// monitor runs an OpMonitor.
func (x *executor) monitor(ctx context.Context, op Operation) error {
	if op.MonitorPeriod == 0 {
		return fmt.Errorf("the monitoring_period of %s is not known at apply", x.out.ID)
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifyDBInstanceMonitor(ctx, x.out.ID, op.MonitorPeriod) })
}
