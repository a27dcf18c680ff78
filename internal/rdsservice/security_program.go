package rdsservice

// security adds the security operations, each with its restart, SSL first: after a create's
// other steps, before an update's (neither can wait for the window, unlike the spec order).
func (b *programBuilder) security() {
	label, s := b.in.Label, b.d.Security
	when := WhenNow
	if b.in.Prior == nil {
		when = WhenAfterCreate
	}
	effect := EffectRestart
	if _, category := editionOf(b.in); switchover(category) {
		effect = EffectSwitchover
	}
	if s.SSL != nil {
		b.ops = append(b.ops, Operation{Instance: label, Action: OpModifySSL, When: when, Effect: effect, Flag: s.SSL, Restart: b.takeFor(label, OpModifySSL)})
	}
	if s.TDE {
		on := true
		b.ops = append(b.ops, Operation{Instance: label, Action: OpModifyTDE, When: when, Effect: effect, Flag: &on, Restart: b.takeFor(label, OpModifyTDE)})
	}
}

// takeFor removes and returns the planned restart of instance that op causes.
func (b *programBuilder) takeFor(instance, op string) *Restart {
	for i, r := range b.restarts {
		if r.InstanceID == instance && r.Op == op {
			b.restarts = append(b.restarts[:i], b.restarts[i+1:]...)
			return &r
		}
	}
	return nil
}
