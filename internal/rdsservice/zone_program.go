package rdsservice

// The zone move as an operation of the program: planned by planZoneMove (zone_rules.go), run by
// the one executor with its wait.

// StatusZoneMoving is the status of an instance moving to another zone.
const StatusZoneMoving = "TransingToOthers"

// zoneMove adds the planned move, with its one switchover (or restart of a single node).
func (b *programBuilder) zoneMove(label string, when When) {
	if b.d.ZoneMove == nil {
		return
	}
	move := *b.d.ZoneMove
	if move.CancelsPending {
		b.add(Operation{Instance: label, Action: OpMigrateToOtherZone, When: WhenInWindow, ZoneMove: &move, CancelsPending: true, Effect: EffectNone})
		return
	}
	b.add(Operation{Instance: label, Action: OpMigrateToOtherZone, When: when, ZoneMove: &move, Restart: b.take(label)})
	if b.in.Prior != nil && zoneMoveEffect(b.in.Prior.Category) != "the single node restarts in the new zone" {
		b.ops[len(b.ops)-1].Effect = EffectSwitchover
	}
}
