package rdsservice

import (
	"context"
	"fmt"
)

// syncMode runs an OpSyncMode: HAMode is required with it, and is sent as read, unchanged.
func (x *executor) syncMode(ctx context.Context, op Operation) error {
	if op.SyncMode == "" {
		return fmt.Errorf("the sync_mode of %s is not known at apply", x.out.ID)
	}
	cfg, err := x.api.DescribeDBInstanceHAConfig(ctx, x.out.ID)
	if err != nil {
		return err
	}
	if cfg.SyncMode == op.SyncMode {
		return nil
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifyDBInstanceHAConfig(ctx, x.out.ID, op.SyncMode, cfg.HAMode) })
}
