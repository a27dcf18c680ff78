package rdsservice

// monitorOperations adds the ModifyDBInstanceMonitor of a period that differs from the one read
// back (after a create: one other than the default, 300).
func (b *programBuilder) monitorOperations(label string, when When) {
	m := b.in.Desired.Monitoring
	if !m.Configured {
		return
	}
	prior := int64(300)
	if m.Prior != nil && when != WhenAfterCreate {
		prior = *m.Prior
	}
	if m.WantUnknown || m.Want != prior {
		b.add(Operation{Instance: label, Action: OpMonitor, When: when, MonitorPeriod: m.Want})
	}
}
