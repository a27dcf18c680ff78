package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// waitUnlocked waits until the instance is Running and no longer locked. Another lock than the
// disk quota's ends the wait at once (stuckState).
func (x *executor) waitUnlocked(ctx context.Context) error {
	attr, err := x.w.WaitFor(ctx, x.out.ID, "unlocked (its storage growth lifts the disk-quota lock about 5 minutes after it takes effect)",
		func(a *rdsapi.DBInstanceAttribute) bool { return IsRunning(a) && !IsLocked(a.LockMode) })
	if err != nil {
		return fmt.Errorf("waiting for the disk-quota lock to lift: %w", err)
	}
	x.read(attr)
	return nil
}
