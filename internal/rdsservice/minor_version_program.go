package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The minor version as operations of the program: planned by planMinorVersion
// (minor_version_rules.go), run by the one executor with its waits.

// minorVersion adds the upgrade with its restart (a switchover on High-availability and Cluster),
// the cloud's restart of each read-only instance with it, and the upgrade setting.
func (b *programBuilder) minorVersion() {
	label, m := b.in.Label, b.d.Minor
	when := WhenNow
	switch {
	case b.in.Prior == nil:
		when = WhenAfterCreate
	case b.d.Deferred:
		when = WhenInWindow
	}
	if m.Upgrade != nil {
		up := *m.Upgrade
		b.add(Operation{Instance: label, Action: OpUpgradeKernelVersion, When: when, Upgrade: &up, Restart: b.takeFor(label, OpUpgradeKernelVersion)})
		if _, category := editionOf(b.in); switchover(category) {
			b.ops[len(b.ops)-1].Effect = EffectSwitchover
		}
		for _, ro := range m.Followers {
			b.add(Operation{Instance: ro, Action: OpWaitMinorFollower, When: when, Upgrade: &up, Restart: b.takeFor(ro+" (read-only instance)", OpWaitMinorFollower)})
		}
	}
	if f := m.Follows; f != nil {
		follow := WhenNow
		if f.When != "" {
			follow = WhenInWindow
		}
		b.add(Operation{Instance: label, Action: OpWaitMinorFollower, When: follow, Upgrade: &EngineUpgrade{To: f.To}, Restart: b.takeFor(label, OpWaitMinorFollower)})
	}
	if m.AutoUpgrade != nil {
		setting := WhenNow
		if b.in.Prior == nil {
			setting = WhenAfterCreate
		}
		b.add(Operation{Instance: label, Action: OpModifyAutoUpgradeMinor, When: setting, AutoUpgradeMinor: *m.AutoUpgrade})
	}
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
