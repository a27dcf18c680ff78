package rdsservice

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
