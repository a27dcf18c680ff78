package simulator

import (
	"testing"
	"time"
)

func moveParams(id, zone, slave, vswitch string, extra ...string) map[string]string {
	p := map[string]string{"DBInstanceId": id, "ZoneId": zone, "ZoneIdSlave1": slave, "VSwitchId": vswitch, "VPCId": "vpc-1"}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	for k, v := range p {
		if v == "" {
			delete(p, k)
		}
	}
	return p
}

func TestMigrateToOtherZoneInPlace(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.ok("MigrateToOtherZone", moveParams(id, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-j"))
	if got := e.status(id); got != statusZoneMigrating {
		t.Fatalf("status during the move %s", got)
	}
	e.settle()
	a := e.attr(id)
	slaves := a["SlaveZones"].(map[string]any)["SlaveZone"].([]any)
	if a["ZoneId"] != "cn-hangzhou-j" || a["VSwitchId"] != "vsw-j" || a["DBInstanceStatus"] != statusRunning || len(slaves) != 1 ||
		slaves[0].(map[string]any)["ZoneId"] != "cn-hangzhou-k" {
		t.Fatalf("after the move: %v %v %v %v", a["ZoneId"], a["VSwitchId"], a["DBInstanceStatus"], slaves)
	}
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("the move's switchover counted %d times, want 1", n)
	}
}

func TestMigrateToOtherZoneRules(t *testing.T) {
	e := newEnv(t)
	ha := e.create(nil)
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1"})
	yitian := e.create(map[string]string{"DBInstanceClass": "mysql.n2m.medium.2c", "VSwitchId": "vsw-2"})
	old := e.create(map[string]string{"VSwitchId": "vsw-3"})
	e.sim.state.Instances[old].Minor = &minorVersion{Version: "rds_20200630", Major: "8.0", Manual: true}
	for _, c := range []struct {
		name string
		p    map[string]string
		code string
	}{
		{"no secondary zone for HA", moveParams(ha, "cn-hangzhou-j", "", "vsw-j"), "MissingZoneIdSlave1"},
		{"secondary zone on Basic", moveParams(basic, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-j"), "InvalidZoneIdSlave.Basic"},
		{"third zone on HA", moveParams(ha, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-j", "ZoneIdSlave2", "cn-hangzhou-h"), "InvalidZoneIdSlave2"},
		{"another VPC", moveParams(ha, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-j", "VPCId", "vpc-2"), "InvalidVPCId.Changed"},
		{"no vSwitch", moveParams(ha, "cn-hangzhou-j", "cn-hangzhou-k", ""), "MissingVSwitchId"},
		{"unknown zone", moveParams(ha, "cn-hangzhou-z", "cn-hangzhou-k", "vsw-j"), "InvalidZoneId.NotFound"},
		{"vSwitch of another zone", moveParams(ha, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-2"), "InvalidVSwitchId.Mismatch"},
		{"class not in the zone", moveParams(yitian, "cn-hangzhou-h", "cn-hangzhou-h", "vsw-h"), "InvalidDBInstanceClass.NotFound"},
		{"old minor version", moveParams(old, "cn-hangzhou-j", "cn-hangzhou-j", "vsw-j"), "InvalidMinorVersion.TooOld"},
		{"bad time", moveParams(ha, "cn-hangzhou-j", "cn-hangzhou-k", "vsw-j", "EffectiveTime", "ScheduleTime", "SwitchTime", "soon"), "InvalidParameter"},
	} {
		if a := e.c.call("MigrateToOtherZone", c.p); a.code() != c.code {
			t.Errorf("%s: got %s, want %s", c.name, a.raw, c.code)
		}
	}
	for _, id := range []string{ha, basic, yitian, old} {
		if n := e.sim.Stats().Restarts[id]; n != 0 || e.attr(id)["ZoneId"] != "cn-hangzhou-i" {
			t.Fatalf("a refused move changed %s: %d restarts, zone %v", id, n, e.attr(id)["ZoneId"])
		}
	}
}

func TestMigrateToOtherZoneReadOnly(t *testing.T) {
	e := newEnv(t)
	primary := e.create(nil)
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": primary, "ZoneId": "cn-hangzhou-i", "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
	})["DBInstanceId"].(string)
	e.c.fails("MigrateToOtherZone", moveParams(primary, "cn-hangzhou-j", "cn-hangzhou-j", "vsw-j"), 400, "OperationDenied.MasterDBInstanceState")
	e.clock.Add(createD)
	e.c.fails("MigrateToOtherZone", moveParams(ro, "cn-hangzhou-j", "", "vsw-j"), 400, "InvalidDBInstanceType.NotSupport")
	e.c.ok("MigrateToOtherZone", moveParams(primary, "cn-hangzhou-j", "cn-hangzhou-j", "vsw-j"))
}

func TestMigrateToOtherZoneInMaintenanceWindow(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(nil)
	e.c.ok("MigrateToOtherZone", moveParams(id, "cn-hangzhou-j", "cn-hangzhou-j", "vsw-j", "EffectiveTime", "MaintainTime"))
	if e.attr(id)["ZoneId"] != "cn-hangzhou-i" || e.sim.Stats().Restarts[id] != 0 {
		t.Fatal("a deferred move ran before the window")
	}
	tasks := e.tasks(id, taskScheduled)
	if len(tasks) != 1 || tasks[0]["TaskType"] != taskTypeMigrateZone {
		t.Fatalf("scheduled tasks %v", tasks)
	}
	e.clock.Add(9 * time.Hour)
	e.settle()
	if e.attr(id)["ZoneId"] != "cn-hangzhou-j" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %v, %d restarts", e.attr(id)["ZoneId"], e.sim.Stats().Restarts[id])
	}
}

func TestDescribeAvailableClassesPerZone(t *testing.T) {
	e := newEnv(t)
	list := func(zone string) map[string]bool {
		body := e.c.ok("DescribeAvailableClasses", map[string]string{"RegionId": DefaultRegion, "ZoneId": zone, "Engine": "MySQL",
			"EngineVersion": "8.0", "DBInstanceStorageType": "cloud_essd", "Category": "HighAvailability"})
		out := map[string]bool{}
		for _, c := range body["DBInstanceClasses"].([]any) {
			out[c.(map[string]any)["DBInstanceClass"].(string)] = true
		}
		return out
	}
	i, h := list("cn-hangzhou-i"), list("cn-hangzhou-h")
	if !i["mysql.n2m.medium.2c"] || h["mysql.n2m.medium.2c"] || !h["mysql.x4.medium.2c"] {
		t.Fatalf("zone i offers %v, zone h %v", i, h)
	}
}

// A vSwitch is in the zone of the instances in it, the moving one included.
func TestMigrateToOtherZoneKeepsVSwitchOfOldZone(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"VSwitchId": "vsw-own"})
	e.c.fails("MigrateToOtherZone", moveParams(id, "cn-hangzhou-j", "cn-hangzhou-j", "vsw-own"), 400, "InvalidVSwitchId.Mismatch")
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1", "VSwitchId": "vsw-basic"})
	e.c.ok("MigrateToOtherZone", moveParams(basic, "cn-hangzhou-j", "", "vsw-basic-j"))
}
