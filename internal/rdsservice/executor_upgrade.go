package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// upgrade sends UpgradeDBInstanceEngineVersion with one ClientToken (a resend is the same
// upgrade), and for now waits until the instance is Running on the new version; for the window
// it returns at once and the task is read back as the scheduled change.
func (x *executor) upgrade(ctx context.Context, op Operation) error {
	req := &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: x.out.ID, EngineVersion: op.Upgrade.To,
		EffectiveTime: rdsapi.EffectiveTimeImmediate, ClientToken: rdsapi.NewClientToken()}
	if op.When == WhenInWindow {
		req.EffectiveTime = rdsapi.EffectiveTimeMaintainTime
	}
	send := func() error {
		_, err := x.api.UpgradeDBInstanceEngineVersion(ctx, req)
		return err
	}
	return x.sendAndSettle(ctx, op, send, fmt.Sprintf("MySQL %s", op.Upgrade.To), func(a *rdsapi.DBInstanceAttribute) bool {
		return string(a.EngineVersion) == op.Upgrade.To
	})
}

// sendAndSettle sends a day-2 order, retried while the instance is busy. An order for the window
// returns at once (the task is read back as the scheduled change); one for now waits until the
// instance is Running and done holds, and reads it back.
func (x *executor) sendAndSettle(ctx context.Context, op Operation, send func() error, what string, done func(*rdsapi.DBInstanceAttribute) bool) error {
	if err := x.w.RetryBusy(ctx, send); err != nil {
		return err
	}
	x.stale = true
	if op.When == WhenInWindow {
		x.out.Deferred = true
		return nil
	}
	attr, err := x.w.WaitFor(ctx, x.out.ID, what+" and Running", func(a *rdsapi.DBInstanceAttribute) bool {
		return IsRunning(a) && done(a)
	})
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow = true
	return nil
}

// minorVersion runs one minor version operation.
func (x *executor) minorVersion(ctx context.Context, op Operation) error {
	switch op.Action {
	case OpModifyAutoUpgradeMinor:
		err := x.w.RetryBusy(ctx, func() error {
			return x.api.ModifyDBInstanceAutoUpgradeMinorVersion(ctx, x.out.ID, op.AutoUpgradeMinor)
		})
		if err == nil {
			x.stale = true
		}
		return err
	case OpWaitMinorFollower:
		if op.When == WhenInWindow {
			return nil // the cloud upgrades it with its primary in the window
		}
		id := op.Instance
		if id == x.e.Plan.Label {
			id = x.out.ID // a read-only instance's own plan
		}
		_, err := x.w.WaitFor(ctx, id, "Running on minor version "+op.Upgrade.To, func(a *rdsapi.DBInstanceAttribute) bool {
			return IsRunning(a) && a.CurrentKernelVersion >= op.Upgrade.To
		})
		return err
	}
	return x.upgradeMinor(ctx, op)
}

// upgradeMinor sends UpgradeDBInstanceKernelVersion once the instance is Running, and waits until
// it runs the new version; for the window it returns at once and the task is read back as the
// scheduled change.
func (x *executor) upgradeMinor(ctx context.Context, op Operation) error {
	if _, err := x.w.WaitRunning(ctx, x.out.ID); err != nil {
		return err
	}
	req := &rdsapi.UpgradeDBInstanceKernelVersionRequest{DBInstanceID: x.out.ID, TargetMinorVersion: op.Upgrade.To, UpgradeTime: rdsapi.UpgradeTimeImmediate}
	if op.When == WhenInWindow {
		req.UpgradeTime = rdsapi.UpgradeTimeMaintainTime
	}
	send := func() error {
		_, err := x.api.UpgradeDBInstanceKernelVersion(ctx, req)
		return err
	}
	return x.sendAndSettle(ctx, op, send, "minor version "+op.Upgrade.To, func(a *rdsapi.DBInstanceAttribute) bool {
		return a.CurrentKernelVersion == op.Upgrade.To
	})
}
