package rdsservice

// syncModeOperations adds the ModifyDBInstanceHAConfig of a sync_mode that differs from the one
// read back (after a create: always, as the created instance's mode is not known at plan).
func (b *programBuilder) syncModeOperations(label string, when When) {
	s := b.in.Desired.SyncMode
	if !s.Configured {
		return
	}
	if s.WantUnknown || when == WhenAfterCreate || s.Want != s.Prior {
		b.add(Operation{Instance: label, Action: OpSyncMode, When: when, SyncMode: s.Want})
	}
}
