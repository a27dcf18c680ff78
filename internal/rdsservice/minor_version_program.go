package rdsservice

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
