package rdsservice

// waitWindowTasks ends an update whose maintenance window is open now and has tasks to run (this
// apply's deferred orders, or tasks waiting for it) with the wait for them.
func (b *programBuilder) waitWindowTasks() {
	if b.in.Prior == nil || !windowOpenNow(b.in) || (!b.d.Deferred && b.in.Facts.Pending == nil) {
		return
	}
	b.add(Operation{Instance: b.in.Label, Action: OpWaitWindowTasks, When: WhenNow})
}
