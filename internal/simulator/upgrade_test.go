package simulator

import (
	"testing"
	"time"
)

func (e *env) upgrade(id, version string, extra ...string) answer {
	e.t.Helper()
	p := map[string]string{"DBInstanceId": id, "EngineVersion": version}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	return e.c.call("UpgradeDBInstanceEngineVersion", p)
}

func TestUpgradeEngineVersionRules(t *testing.T) {
	e := newEnv(t)
	v56 := e.create(map[string]string{"EngineVersion": "5.6", "OptimizedWrites": ""})
	if a := e.upgrade(v56, "8.0"); a.code() != "InvalidEngineVersion.Path" {
		t.Fatalf("5.6 -> 8.0 skips a version: %s", a.raw)
	}
	v80 := e.create(nil)
	if a := e.upgrade(v80, "5.7"); a.code() != "InvalidEngineVersion.Downgrade" {
		t.Fatalf("downgrade: %s", a.raw)
	}
	ssd := e.create(map[string]string{"EngineVersion": "5.7", "DBInstanceStorageType": "cloud_ssd", "OptimizedWrites": ""})
	if a := e.upgrade(ssd, "8.0"); a.code() != upgradeCodeSourceCategory {
		t.Fatalf("cloud_ssd: %s", a.raw)
	}
	basicLocal := e.create(map[string]string{"EngineVersion": "5.7", "DBInstanceStorageType": "local_ssd", "Category": "Basic", "OptimizedWrites": ""})
	if a := e.upgrade(basicLocal, "8.0"); a.code() != upgradeCodeSourceCategory {
		t.Fatalf("Basic on local SSD: %s", a.raw)
	}
	if a := e.upgrade(v56, "5.7", "EffectiveTime", "Tomorrow"); a.code() != "InvalidParameter" {
		t.Fatalf("bad EffectiveTime: %s", a.raw)
	}
	if n := e.sim.Stats().Restarts[v56]; n != 0 {
		t.Fatalf("a refused upgrade restarted the instance %d times", n)
	}
}

func TestUpgradeEngineVersionInPlace(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"EngineVersion": "5.7"})
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Forcerestart": "true", "Parameters": `{"tx_isolation":"REPEATABLE-READ","wait_timeout":"600"}`})
	e.settle()
	before := e.sim.Stats().Restarts[id]
	body := e.c.ok("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": id, "EngineVersion": "8.0", "ClientToken": "tok-1"})
	if body["TaskId"] == "" || body["TaskId"] == nil {
		t.Fatalf("no TaskId: %v", body)
	}
	// A resend with the same token is the same upgrade.
	e.c.ok("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": id, "EngineVersion": "8.0", "ClientToken": "tok-1"})
	if got := e.status(id); got != statusEngineUpgrading {
		t.Fatalf("status during the upgrade %s", got)
	}
	e.settle()
	a := e.attr(id)
	if a["EngineVersion"] != "8.0" || a["DBInstanceStatus"] != statusRunning || e.sim.Stats().Restarts[id] != before+1 {
		t.Fatalf("after the upgrade: %v %v restarts %d", a["EngineVersion"], a["DBInstanceStatus"], e.sim.Stats().Restarts[id]-before)
	}
	if e.owInfo(id) != owJSON(true, true) {
		t.Fatalf("16K atomic write after 5.7 -> 8.0: %s", e.owInfo(id))
	}
	params := e.c.ok("DescribeParameters", map[string]string{"DBInstanceId": id})
	running := params["RunningParameters"].(map[string]any)["DBInstanceParameter"].([]any)
	found := map[string]string{}
	for _, p := range running {
		m := p.(map[string]any)
		found[m["ParameterName"].(string)] = m["ParameterValue"].(string)
	}
	if _, ok := found["tx_isolation"]; ok || found["wait_timeout"] != "600" {
		t.Fatalf("after the upgrade tx_isolation must be gone and wait_timeout kept: %v", found)
	}
}

func TestUpgradeEngineVersionReadOnlyFirst(t *testing.T) {
	e := newEnv(t)
	primary := e.create(map[string]string{"EngineVersion": "5.7"})
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": primary, "ZoneId": "cn-hangzhou-i", "EngineVersion": "5.7",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
	})["DBInstanceId"].(string)
	e.clock.Add(createD)
	e.c.fails("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": primary, "EngineVersion": "8.0"}, 400, upgradeCodeReadOnlyFirst)
	e.c.ok("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": ro, "EngineVersion": "8.0"})
	// While the read-only instance upgrades, the primary still waits for it.
	e.c.fails("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": primary, "EngineVersion": "8.0"}, 400, upgradeCodeReadOnlyFirst)
	e.settle()
	e.c.ok("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": primary, "EngineVersion": "8.0"})
	e.settle()
	if e.attr(primary)["EngineVersion"] != "8.0" || e.attr(ro)["EngineVersion"] != "8.0" {
		t.Fatal("both must run 8.0")
	}
}

func TestUpgradeEngineVersionInMaintenanceWindow(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(map[string]string{"EngineVersion": "5.7"})
	e.c.ok("UpgradeDBInstanceEngineVersion", map[string]string{"DBInstanceId": id, "EngineVersion": "8.0", "EffectiveTime": "MaintainTime"})
	if e.attr(id)["EngineVersion"] != "5.7" || e.sim.Stats().Restarts[id] != 0 {
		t.Fatal("a deferred upgrade ran before the window")
	}
	tasks := e.tasks(id, taskScheduled)
	if len(tasks) != 1 || tasks[0]["TaskType"] != taskTypeUpgradeEngine {
		t.Fatalf("scheduled tasks %v", tasks)
	}
	e.clock.Add(9 * time.Hour)
	e.settle()
	if e.attr(id)["EngineVersion"] != "8.0" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %v, %d restarts", e.attr(id)["EngineVersion"], e.sim.Stats().Restarts[id])
	}
}
