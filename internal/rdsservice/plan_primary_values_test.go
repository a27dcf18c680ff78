package rdsservice

import "testing"

func TestPlannedPrimaryValuesReadTheRequest(t *testing.T) {
	obj := func(a map[string]AttrValue) AttrValue { return ObjectAttr(a) }
	state := obj(map[string]AttrValue{"ssl_enabled": BoolAttr(true), "ssl_expire_time": StringAttr("2027-01-01T00:00:00Z")})
	plan := obj(map[string]AttrValue{AttrZoneID: StringAttr("z-a"), AttrVSwitchID: StringAttr("vsw-1"),
		AttrZoneIDSlaveA: StringAttr("z-s"), AttrZoneIDSlaveB: NullAttr()})
	on := obj(map[string]AttrValue{"ssl_enabled": BoolAttr(true), AttrZoneIDSlaveA: StringAttr("z-s")})
	update := ModelRequest{Config: on, Plan: plan, State: state}

	v := PlannedPrimaryValues(Decision{}, update, false)
	if !v.SSLExpire.Is("2027-01-01T00:00:00Z") || !v.Zones.Zone.Is("z-a") || !v.Zones.VSwitch.Is("vsw-1") ||
		!v.Zones.SlaveA.Is("z-s") || !v.Zones.SlaveB.IsNull() {
		t.Errorf("update = %+v, want the prior expiry and the proposed zones", v)
	}
	if v := PlannedPrimaryValues(Decision{}, update, true); !v.SSLExpire.IsUnknown() {
		t.Errorf("reissued certificate: ssl_expire_time = %+v, want unknown", v.SSLExpire)
	}
	create := ModelRequest{Config: on, Plan: plan, State: NullAttr()}
	if v := PlannedPrimaryValues(Decision{}, create, false); !v.SSLExpire.IsUnknown() {
		t.Errorf("create with SSL: ssl_expire_time = %+v, want unknown", v.SSLExpire)
	}
	off := ModelRequest{Config: obj(map[string]AttrValue{"ssl_enabled": BoolAttr(false)}), Plan: plan, State: state}
	if v := PlannedPrimaryValues(Decision{}, off, false); !v.SSLExpire.IsNull() {
		t.Errorf("SSL off: ssl_expire_time = %+v, want null", v.SSLExpire)
	}
	priorOff := ModelRequest{Config: on, Plan: plan, State: obj(map[string]AttrValue{"ssl_enabled": BoolAttr(false),
		"ssl_expire_time": StringAttr("2027-01-01T00:00:00Z")})}
	if v := PlannedPrimaryValues(Decision{}, priorOff, false); !v.SSLExpire.IsUnknown() {
		t.Errorf("SSL turned on: ssl_expire_time = %+v, want unknown", v.SSLExpire)
	}

	move := Decision{ZoneMove: &ZoneMove{To: Placement{Zone: "z-b", SlaveA: "z-c"}}}
	if v := PlannedPrimaryValues(move, update, false); !v.Zones.Zone.Is("z-b") || !v.Zones.VSwitch.IsNull() || !v.Zones.SlaveA.Is("z-c") {
		t.Errorf("zone move: zones = %+v, want z-b, no vswitch, z-c", v.Zones)
	}
	edition := Decision{Order: SpecOrder{Category: new(string)}}
	if v := PlannedPrimaryValues(edition, update, false); !v.Zones.SlaveA.Is("z-s") {
		t.Errorf("edition upgrade, slave zone configured: zone_id_slave_a = %+v, want z-s", v.Zones.SlaveA)
	}
	unset := update
	unset.Config = obj(map[string]AttrValue{"ssl_enabled": BoolAttr(true), AttrZoneIDSlaveA: NullAttr()})
	if v := PlannedPrimaryValues(edition, unset, false); !v.Zones.SlaveA.Is("z-a") {
		t.Errorf("edition upgrade, slave zone unset: zone_id_slave_a = %+v, want the zone z-a", v.Zones.SlaveA)
	}
}
