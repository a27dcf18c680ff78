package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// Zone moves in place (MigrateToOtherZone; simulator README "Zone moves"): a change of zone_id,
// zone_id_slave_a, zone_id_slave_b or vswitch_id of a primary instance is one operation with one
// switchover, planned with every rule the cloud applies, so that a move the cloud would refuse is
// a plan error with its fix. A change of vpc_id, or of a read-only instance's zone, still replaces.

// MinZoneMoveKernel is the oldest minor version a cloud-disk instance may move with.
const MinZoneMoveKernel = "rds_20201031"

// Placement is where an instance runs: its zone, its secondary zones (zone_id_slave_a, _b) and
// vSwitch. In Desired, "" means unset (the cloud's choice: unchanged for an existing instance).
type Placement struct {
	Zone, SlaveA, SlaveB, VSwitch string
}

// PlacementFacts is where an existing instance runs now, and what decides whether it may move.
type PlacementFacts struct {
	Placement
	VPC string
	// KernelVersion is CurrentKernelVersion (rds_YYYYMMDD); "" when not read.
	KernelVersion string
	// ReadError says why the instance could not be read at plan.
	ReadError string
	// Running is where the cloud runs the instance now (nil: not read). While a move waits for
	// the window, Placement (the state) holds the move's target and Running the zones it leaves.
	Running *Placement
	// Zones are the region's zones (DescribeRegions); nil when not read.
	Zones []string
}

// ZoneMove is a planned MigrateToOtherZone.
type ZoneMove struct {
	From, To Placement
	VPC      string
	// CancelsPending: the order for the window sends the instance's current placement, which
	// withdraws the move waiting there and moves nothing (PendingBehaviours, zone move reverted).
	CancelsPending bool
}

// Slaves lists the target secondary zones in order (ZoneIdSlave1, ZoneIdSlave2).
func (m ZoneMove) Slaves() []string {
	var out []string
	for _, z := range []string{m.To.SlaveA, m.To.SlaveB} {
		if z != "" {
			out = append(out, z)
		}
	}
	return out
}

// target is the placement the configuration asks for, unset parts kept from now; the secondary
// zone follows a moved zone when unset (the cloud keeps a same-zone standby, assumption).
func targetPlacement(now Placement, want Placement) Placement {
	out := now
	if want.Zone != "" && want.Zone != now.Zone {
		out.Zone = want.Zone
		if now.SlaveA == now.Zone || now.SlaveA == "" {
			out.SlaveA = want.Zone
		}
	}
	for _, f := range []struct{ want, out *string }{{&want.SlaveA, &out.SlaveA}, {&want.SlaveB, &out.SlaveB}, {&want.VSwitch, &out.VSwitch}} {
		if *f.want != "" {
			*f.out = *f.want
		}
	}
	return out
}

// planZoneMove records a planned move of a primary and checks the cloud's rules for it.
func (u *updatePlan) planZoneMove() {
	in, d := u.in, u.d
	facts := in.Facts.Placement
	if u.readOnly || facts == nil {
		return
	}
	basic := strings.EqualFold(u.cur.Category, "Basic")
	now := facts.Placement
	if facts.Running != nil && in.Facts.Pending.Has(PendingZoneMove) {
		now = *facts.Running // a move waits: the configuration is compared with where the instance runs
	}
	if basic {
		now.SlaveA, now.SlaveB = "", ""
	}
	want := in.Desired.Placement
	if basic && (want.SlaveA != "" || want.SlaveB != "") {
		d.add(problem(RuleZoneMoveBasicSecondary, firstNonEmpty(want.SlaveA, want.SlaveB), in.Label).At(firstNonEmpty(attrIf(want.SlaveA != "", AttrZoneIDSlaveA), AttrZoneIDSlaveB)))
		return
	}
	to := targetPlacement(now, want)
	if basic {
		to.SlaveA = ""
	}
	if to == now {
		if now != facts.Placement { // set back before the window: the waiting move is withdrawn
			d.ZoneMove = &ZoneMove{From: facts.Placement, To: now, VPC: facts.VPC, CancelsPending: true}
			d.Action = maxAction(d.Action, ActionUpdate)
		}
		return
	}
	d.ZoneMove = &ZoneMove{From: now, To: to, VPC: facts.VPC}
	u.trigger(AttrZoneID)
	u.checkZoneMove(*facts, *d.ZoneMove, basic)
}

// checkZoneMove is every rule the cloud applies to the move.
func (u *updatePlan) checkZoneMove(facts PlacementFacts, move ZoneMove, basic bool) {
	in, d, cur := u.in, u.d, u.cur
	checkZonesExist(in, d, facts, move)
	switch {
	case !IsMySQL(cur.Engine) || !basic && !strings.EqualFold(cur.Category, "HighAvailability"):
		d.add(problem(RuleZoneMoveEdition, move.To.Zone, in.Label, cur.Engine, cur.Category))
	case move.To.SlaveB != "":
		d.add(problem(RuleZoneMoveThirdZone, move.To.SlaveB, in.Label, cur.Category))
	}
	if move.To.Zone != move.From.Zone && facts.VPC != "" && move.To.VSwitch == move.From.VSwitch {
		d.add(problem(RuleZoneMoveVSwitch, move.To.Zone, in.Label, move.From.VSwitch, move.From.Zone, move.To.Zone, facts.VPC))
	}
	if facts.ReadError != "" {
		d.add(problem(RuleZoneMoveNotKnown, move.To.Zone, in.Label, facts.ReadError))
	} else if cloudStorage(cur.StorageType) && facts.KernelVersion != "" && facts.KernelVersion < MinZoneMoveKernel {
		d.add(problem(RuleZoneMoveMinorVersion, move.To.Zone, in.Label, facts.KernelVersion, cur.StorageType))
	}
	if in.Facts.ReadOnlyError != "" {
		d.add(problem(RuleZoneMoveNotKnown, move.To.Zone, in.Label, in.Facts.ReadOnlyError))
	}
	var stopped []string
	for _, ro := range in.Facts.ReadOnly {
		if ro.Status != "" && ro.Status != StatusRunning {
			stopped = append(stopped, fmt.Sprintf("%s (%s)", ro.ID, ro.Status))
		}
	}
	if len(stopped) > 0 {
		d.add(problem(RuleZoneMoveReadOnlyRunning, move.To.Zone, in.Label, strings.Join(stopped, ", ")))
	}
	if cur.BufferPoolExtension && move.To.Zone != move.From.Zone {
		d.add(problem(RuleZoneMoveBPEUnchecked, move.To.Zone, in.Label, move.To.Zone))
	}
}

// checkZonesExist refuses a zone the region does not have, naming the region's zones.
func checkZonesExist(in PlanInput, d *Decision, facts PlacementFacts, move ZoneMove) {
	if facts.Zones == nil {
		return
	}
	for _, z := range []struct{ attr, from, to string }{{AttrZoneID, move.From.Zone, move.To.Zone},
		{AttrZoneIDSlaveA, move.From.SlaveA, move.To.SlaveA}, {AttrZoneIDSlaveB, move.From.SlaveB, move.To.SlaveB}} {
		if z.to != "" && z.to != z.from && !slices.Contains(facts.Zones, z.to) {
			d.add(problem(RuleZoneUnknown, z.to, z.attr, z.to, in.Label, strings.Join(facts.Zones, ", ")).At(z.attr))
		}
	}
}

// checkReadOnlyBesideZoneMove refuses a read-only instance's restart in the window its primary's
// move waits for: the move needs the read-only instances Running, and the window would run both.
func checkReadOnlyBesideZoneMove(in PlanInput, d *Decision) {
	if in.Role == RoleReadOnly && in.Facts.PrimaryZoneMoveInWindow && d.Deferred && in.Facts.Primary != nil {
		d.add(problem(RuleZoneMoveReadOnlyWindow, in.Desired.ApplyRestarts, in.Label, in.Facts.Primary.ID))
	}
}

// settleZoneMove names the move's switchover as the instance's restart, and refuses other changes
// planned with it (MigrateToOtherZone's own spec change is not used: assumption kept simple).
func (u *updatePlan) settleZoneMove() {
	in, d := u.in, u.d
	move := d.ZoneMove
	if move == nil || move.CancelsPending {
		return
	}
	reason := fmt.Sprintf("%s (zone move in place, MigrateToOtherZone: %s)", describeMove(*move), zoneMoveEffect(u.cur.Category))
	i := slices.IndexFunc(d.Restarts, func(r Restart) bool { return r.InstanceID == in.Label && !r.ByPrimary && r.Task == "" })
	if i < 0 {
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Reasons: []string{reason}, Downtime: ExpectedDowntime(u.cur.Category, false)})
	} else {
		d.Restarts[i].Reasons = append(d.Restarts[i].Reasons, reason)
	}
	if d.Action < ActionUpdate {
		d.Action = ActionUpdate
	}
}

// checkPlacement checks a new instance's secondary zones, and refuses a move planned with other
// changes (after the parameters are planned).
func checkPlacement(in PlanInput, d *Decision) {
	want := in.Desired.Placement
	if in.Prior == nil && in.Desired.Category.IsKnown() {
		switch {
		case strings.EqualFold(in.Desired.Category.Value(), "Basic") && (want.SlaveA != "" || want.SlaveB != ""):
			d.add(problem(RuleZoneMoveBasicSecondary, firstNonEmpty(want.SlaveA, want.SlaveB), in.Label).At(firstNonEmpty(attrIf(want.SlaveA != "", AttrZoneIDSlaveA), AttrZoneIDSlaveB)))
		case want.SlaveB != "":
			d.add(problem(RuleZoneMoveThirdZone, want.SlaveB, in.Label, in.Desired.Category.Value()))
		}
	}
	if d.ZoneMove == nil || d.ZoneMove.CancelsPending {
		return
	}
	others := otherChanges(d)
	if d.Upgrade != nil {
		others = strings.TrimPrefix(others+", "+AttrEngineVersion, ", ")
	}
	if d.Minor.Upgrade != nil { // both would wait for the same window as separate tasks of one instance
		others = strings.TrimPrefix(others+", "+AttrTargetMinorVersion, ", ")
	}
	if others != "" {
		d.add(problem(RuleZoneMoveAlone, d.ZoneMove.To.Zone, in.Label, others))
	} else {
		aloneMayBeRefused(in, d, problem(RuleZoneMoveAlone, d.ZoneMove.To.Zone, in.Label, "them"), AttrZoneID)
	}
}

// describeMove names what changes: "zone_id changes from a to b, vswitch_id ...".
func describeMove(m ZoneMove) string {
	var parts []string
	for _, f := range []struct{ name, from, to string }{{AttrZoneID, m.From.Zone, m.To.Zone}, {AttrZoneIDSlaveA, m.From.SlaveA, m.To.SlaveA},
		{AttrZoneIDSlaveB, m.From.SlaveB, m.To.SlaveB}, {AttrVSwitchID, m.From.VSwitch, m.To.VSwitch}} {
		if f.from != f.to {
			parts = append(parts, fmt.Sprintf("%s changes from %q to %q", f.name, f.from, f.to))
		}
	}
	return strings.Join(parts, ", ")
}

// zoneMoveEffect: the guide says a switchover happens; a Basic instance has no standby, so its
// single node restarts in the new zone (assumption).
func zoneMoveEffect(category string) string {
	if strings.EqualFold(strings.TrimSpace(category), "Basic") {
		return "the single node restarts in the new zone"
	}
	return "a switchover to the nodes in the new zones"
}

// The attributes of a zone move.
const (
	AttrZoneID       = "zone_id"
	AttrZoneIDSlaveA = "zone_id_slave_a"
	AttrZoneIDSlaveB = "zone_id_slave_b"
	AttrVSwitchID    = "vswitch_id"
)

// zoneSource cites the zone move rules.
const zoneSource = "cloud facts: MigrateToOtherZone reference and \"Migrate an instance across zones\" (simulator README, Zone moves)"
