package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The major version upgrade as an operation of the program: planned by planEngineUpgrade
// (upgrade_rules.go), run by the one executor with its wait.

// upgrade adds the planned upgrade, with its one switchover (or restart of a single node).
func (b *programBuilder) upgrade(label string, when When) {
	if b.d.Upgrade == nil {
		return
	}
	up := *b.d.Upgrade
	b.add(Operation{Instance: label, Action: OpUpgradeEngineVersion, When: when, Upgrade: &up, Restart: b.take(label)})
	if b.in.Prior != nil && upgradeEffect(b.in.Prior.Category, b.in.Role == RoleReadOnly) != "the single node restarts" {
		b.ops[len(b.ops)-1].Effect = EffectSwitchover
	}
}

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
