package simulator

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Zone moves in place (README "Zone moves"): MigrateToOtherZone moves a primary instance to other
// zones of its region, now, in its maintenance window or at a given time, with one switchover.

func init() {
	actions["MigrateToOtherZone"] = (*Simulator).migrateToOtherZone
}

const (
	statusZoneMigrating = "TransingToOthers"
	taskTypeMigrateZone = "MigrateToOtherZone"
	// minCloudDiskKernel is the oldest minor version a cloud-disk instance may be moved with.
	minCloudDiskKernel = "rds_20201031"
)

// simZone is one zone of the simulated region and what it lacks (assumption: the simulator's own
// catalogue; Alibaba's "Regions and zones" and instance-type pages say offers differ per zone).
type simZone struct {
	suffix   string
	noYiTian bool // no YiTian (ARM) classes
	noBPE    bool // no Buffer Pool Extension
}

var simZones = []simZone{{suffix: "i"}, {suffix: "j"}, {suffix: "k", noBPE: true}, {suffix: "h", noYiTian: true}}

// zoneOf finds a zone of region by id (every region the simulator serves has the same zones).
func zoneOf(region, id string) (simZone, bool) {
	for _, z := range simZones {
		if id == region+"-"+z.suffix {
			return z, true
		}
	}
	return simZone{}, false
}

// offersClass: the zone offers the class (DescribeAvailableClasses with ZoneId lists it).
func (z simZone) offersClass(class string) bool {
	return !z.noYiTian || architecture(class) != "arm"
}

// inZone keeps the classes the zone of region offers; an unknown or empty zone keeps them all.
func inZone(region, zoneID string, classes []string) []string {
	z, ok := zoneOf(region, zoneID)
	if !ok {
		return classes
	}
	return slices.DeleteFunc(slices.Clone(classes), func(c string) bool { return !z.offersClass(c) })
}

// zoneMove is one MigrateToOtherZone order.
type zoneMove struct {
	Zone       string   `json:"zone"`
	SlaveZones []string `json:"slave_zones,omitempty"`
	VSwitchID  string   `json:"vswitch_id,omitempty"`
}

// migrateToOtherZone moves an instance to other zones of its region.
func (s *Simulator) migrateToOtherZone(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	move, e := s.readZoneMove(c.p, in)
	if e != nil {
		return nil, e
	}
	effective, e := c.p.oneOf("EffectiveTime", "Immediate", "Immediate", "Immediately", "MaintainTime", "ScheduleTime")
	if e != nil {
		return nil, e
	}
	at, e := switchTime(c.p, effective, c.now)
	if e != nil {
		return nil, e
	}
	if e := s.checkZoneMove(in, move); e != nil {
		return nil, e
	}
	c.dirty = true
	if effective == "MaintainTime" || effective == "ScheduleTime" {
		s.cancelPendingTasks(in.ID, taskTypeMigrateZone, "replaced by a later order")
		if in.placedAt(move) {
			return map[string]any{"DBInstanceId": in.ID}, nil // withdraws a waiting move (assumption, as Q9 for a spec change)
		}
		start, end := windowAround(in.MaintainTime, c.now)
		if effective == "ScheduleTime" {
			start, end = at, at.Add(time.Hour)
		}
		s.state.NextTask++
		s.state.Tasks = append(s.state.Tasks, &task{ID: fmt.Sprintf("%d", 10000000+s.state.NextTask), InstanceID: in.ID,
			Type: taskTypeMigrateZone, Status: taskScheduled, Created: c.now, Start: start, End: end, Zone: &move})
		return map[string]any{"DBInstanceId": in.ID, "OrderId": s.nextOrder()}, nil
	}
	s.startZoneMove(in, move, c.now)
	return map[string]any{"DBInstanceId": in.ID, "OrderId": s.nextOrder()}, nil
}

// placedAt: the instance already runs where move would put it (the secondary zones as
// DescribeDBInstanceAttribute lists them, its vSwitch too when named).
func (in *instance) placedAt(move zoneMove) bool {
	return in.ZoneID == move.Zone && slices.Equal(secondaryZones(in), move.SlaveZones) && (move.VSwitchID == "" || in.VSwitchID == move.VSwitchID)
}

// switchTime reads SwitchTime, which ScheduleTime needs (a UTC time in the future).
func switchTime(p params, effective string, now time.Time) (time.Time, *apiError) {
	raw := strings.TrimSpace(p.get("SwitchTime"))
	if effective != "ScheduleTime" {
		return time.Time{}, nil
	}
	at, err := time.Parse("2006-01-02T15:04:05Z", raw)
	if err != nil || !at.After(now) {
		return time.Time{}, errInvalid("SwitchTime", "%q is not a future UTC time yyyy-MM-ddTHH:mm:ssZ, which EffectiveTime=ScheduleTime needs", raw)
	}
	return at, nil
}

// readZoneMove reads the zones and network of the order: the secondary zones are required for
// editions with a secondary node and refused for Basic; the VPC cannot change.
func (s *Simulator) readZoneMove(p params, in *instance) (zoneMove, *apiError) {
	zone, e := p.required("ZoneId")
	if e != nil {
		return zoneMove{}, e
	}
	if in.MasterID != "" {
		return zoneMove{}, newErr(400, "InvalidDBInstanceType.NotSupport", "%s is a read-only instance; MigrateToOtherZone moves primary instances.", in.ID)
	}
	move := zoneMove{Zone: strings.TrimSpace(zone), VSwitchID: strings.TrimSpace(p.get("VSwitchId"))}
	slave1, slave2 := strings.TrimSpace(p.get("ZoneIdSlave1")), strings.TrimSpace(p.get("ZoneIdSlave2"))
	basic := strings.EqualFold(in.Category, "Basic")
	switch {
	case basic && (slave1 != "" || slave2 != ""):
		return move, newErr(400, "InvalidZoneIdSlave.Basic", "The Basic edition has no secondary node: %s takes no ZoneIdSlave1 or ZoneIdSlave2.", in.ID)
	case !basic && slave1 == "":
		return move, newErr(400, "MissingZoneIdSlave1", "ZoneIdSlave1 is required for the %s edition.", in.Category)
	case slave2 != "" && !slices.Contains([]string{"AlwaysOn", "Finance"}, in.Category):
		return move, newErr(400, "InvalidZoneIdSlave2", "ZoneIdSlave2 is for three-node editions only; %s is %s.", in.ID, in.Category)
	}
	for _, z := range []string{slave1, slave2} {
		if z != "" {
			move.SlaveZones = append(move.SlaveZones, z)
		}
	}
	if vpc := strings.TrimSpace(p.get("VPCId")); vpc != "" && vpc != in.VpcID {
		return move, newErr(400, "InvalidVPCId.Changed", "The VPC of %s cannot change in a zone move (%s, not %s).", in.ID, in.VpcID, vpc)
	}
	if in.NetworkType == "VPC" && move.VSwitchID == "" {
		return move, newErr(400, "MissingVSwitchId", "VSwitchId is required for %s, which is in a VPC.", in.ID)
	}
	return move, nil
}

// checkZoneMove is every rule the move must pass now.
func (s *Simulator) checkZoneMove(in *instance, move zoneMove) *apiError {
	if e := s.checkZoneMoveInstance(in); e != nil {
		return e
	}
	for _, id := range append([]string{move.Zone}, move.SlaveZones...) {
		if _, ok := zoneOf(in.RegionID, id); !ok {
			return newErr(400, "InvalidZoneId.NotFound", "Zone %s is not a zone of region %s.", id, in.RegionID)
		}
	}
	zone, _ := zoneOf(in.RegionID, move.Zone)
	switch {
	case !zone.offersClass(in.Class):
		return newErr(400, "InvalidDBInstanceClass.NotFound", "Class %s is not offered in zone %s.", in.Class, move.Zone)
	case in.IoAcceleration && zone.noBPE:
		return newErr(400, "InvalidIoAcceleration.NotSupport", "Zone %s does not support Buffer Pool Extension, which %s has on.", move.Zone, in.ID)
	}
	if owner := s.vswitchZone(move.VSwitchID); owner != nil && (owner.VpcID != in.VpcID || owner.ZoneID != move.Zone) {
		return newErr(400, "InvalidVSwitchId.Mismatch", "vSwitch %s is in zone %s of %s, not in zone %s of %s.", move.VSwitchID, owner.ZoneID, owner.VpcID, move.Zone, in.VpcID)
	}
	return nil
}

// checkZoneMoveInstance: a Running MySQL instance of the High-availability or Basic edition, on
// cloud disks with a minor version of 20201031 or later, whose read-only instances are Running.
func (s *Simulator) checkZoneMoveInstance(in *instance) *apiError {
	switch {
	case !in.isMySQL() || !slices.ContainsFunc([]string{"Basic", "HighAvailability"}, func(c string) bool { return strings.EqualFold(c, in.Category) }):
		return newErr(400, "InvalidCategory.NotSupport", "MigrateToOtherZone moves MySQL High-availability and Basic instances; %s is %s %s.", in.ID, in.Engine, in.Category)
	case in.StorageType != "local_ssd" && s.kernelOf(in) < minCloudDiskKernel:
		return newErr(400, "InvalidMinorVersion.TooOld", "%s runs minor version %s; a cloud-disk instance needs %s or later to move.", in.ID, s.kernelOf(in), minCloudDiskKernel)
	}
	if e := in.writable("MigrateToOtherZone"); e != nil {
		return e
	}
	for _, id := range s.state.readOnlyIDs(in.ID) {
		if ro := s.state.Instances[id]; ro.Status != statusRunning {
			return newErr(400, "OperationDenied.MasterDBInstanceState", "Read-only instance %s of %s is %s; it must be Running.", ro.ID, in.ID, ro.Status)
		}
	}
	return nil
}

// vswitchZone is a primary instance in the vSwitch (the one moving included: its vSwitch is in
// its current zone): the simulator learns a vSwitch's VPC and zone from the instances in it
// (assumption: it does not model the VPC product); nil when no instance is in it.
func (s *Simulator) vswitchZone(vswitch string) *instance {
	if vswitch == "" {
		return nil
	}
	for _, id := range slices.Sorted(maps.Keys(s.state.Instances)) {
		if other := s.state.Instances[id]; other.VSwitchID == vswitch && other.MasterID == "" {
			return other
		}
	}
	return nil
}

// startZoneMove moves the instance: it is TransingToOthers for the move's duration, then Running
// in the new zones after one switchover, counted as a restart (as the upgrade's is).
func (s *Simulator) startZoneMove(in *instance, move zoneMove, at time.Time) {
	s.startRestart(in, statusZoneMigrating, at, in.Optimized)
	if !in.StatusUntil.IsZero() {
		in.StatusUntil = at.Add(2 * s.opts.RestartDuration)
	}
	in.ZoneID, in.SlaveZones = move.Zone, move.SlaveZones
	if move.VSwitchID != "" {
		in.VSwitchID = move.VSwitchID
	}
}

// runZoneMoveTask starts a deferred move; it returns why the rules refuse it now.
func (s *Simulator) runZoneMoveTask(in *instance, t *task, at time.Time) string {
	if e := s.checkZoneMove(in, *t.Zone); e != nil {
		return e.message
	}
	s.startZoneMove(in, *t.Zone, at)
	return ""
}

// slaveAt is the i-th secondary zone, or "".
func slaveAt(zones []string, i int) string {
	if i < len(zones) {
		return zones[i]
	}
	return ""
}

// createSlaveZones reads a create's ZoneIdSlave1 and ZoneIdSlave2 ("Auto" and unset: the primary's
// zone, as before).
func createSlaveZones(p params) []string {
	var out []string
	for _, name := range []string{"ZoneIdSlave1", "ZoneIdSlave2"} {
		if z := strings.TrimSpace(p.get(name)); z != "" && !strings.EqualFold(z, "Auto") {
			out = append(out, z)
		}
	}
	return out
}
