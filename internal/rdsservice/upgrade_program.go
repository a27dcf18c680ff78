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
	err := x.w.RetryBusy(ctx, func() error {
		_, err := x.api.UpgradeDBInstanceEngineVersion(ctx, req)
		return err
	})
	if err != nil {
		return err
	}
	x.stale = true
	if op.When == WhenInWindow {
		x.out.Deferred = true
		return nil
	}
	attr, err := x.w.WaitFor(ctx, x.out.ID, fmt.Sprintf("MySQL %s and Running", op.Upgrade.To), func(a *rdsapi.DBInstanceAttribute) bool {
		return IsRunning(a) && string(a.EngineVersion) == op.Upgrade.To
	})
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow = true
	return nil
}
