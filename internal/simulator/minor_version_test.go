package simulator

import (
	"testing"
	"time"
)

func TestMinorVersionUpgradeRules(t *testing.T) {
	e := newEnv(t)
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"TargetMinorVersion": "rds_20190101"}), 400, "InvalidTargetMinorVersion.NotFound")
	id := e.create(map[string]string{"TargetMinorVersion": "rds_20201031"})
	if a := e.attr(id); a["CurrentKernelVersion"] != "rds_20201031" || a["LatestKernelVersion"] != "rds_20250630" || a["AutoUpgradeMinorVersion"] != "Auto" {
		t.Fatalf("created: %v %v %v", a["CurrentKernelVersion"], a["LatestKernelVersion"], a["AutoUpgradeMinorVersion"])
	}
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "TargetMinorVersion": "rds_20200229"}, 400, "InvalidTargetMinorVersion.Downgrade")
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "TargetMinorVersion": "rds_20201031"}, 400, "InvalidTargetMinorVersion.Downgrade")
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "TargetMinorVersion": "rds_20240101"}, 400, "InvalidTargetMinorVersion.NotFound")
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "UpgradeTime": "Later"}, 400, "InvalidParameter")
	if n := e.sim.Stats().Restarts[id]; n != 0 {
		t.Fatalf("refused upgrades restarted the instance %d times", n)
	}
}

func TestMinorVersionUpgradeNowFollowedByReadOnly(t *testing.T) {
	e := newEnv(t)
	primary := e.create(map[string]string{"TargetMinorVersion": "rds_20201031"})
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": primary, "ZoneId": "cn-hangzhou-i", "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
	})["DBInstanceId"].(string)
	e.clock.Add(createD)
	if got := e.attr(ro)["CurrentKernelVersion"]; got != "rds_20201031" {
		t.Fatalf("a read-only instance runs its primary's minor version, got %v", got)
	}
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": ro, "TargetMinorVersion": "rds_20230630"}, 400, "IncorrectDBInstanceType")
	body := e.c.ok("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": primary, "TargetMinorVersion": "rds_20230630"})
	if body["TargetMinorVersion"] != "rds_20230630" || body["TaskId"] == nil {
		t.Fatalf("answer %v", body)
	}
	if e.status(primary) != statusMinorUpgrading {
		t.Fatalf("status during the upgrade: %s", e.status(primary))
	}
	e.settle()
	if e.attr(primary)["CurrentKernelVersion"] != "rds_20230630" || e.attr(ro)["CurrentKernelVersion"] != "rds_20230630" {
		t.Fatal("both must run rds_20230630")
	}
	if r := e.sim.Stats().Restarts; r[primary] != 1 || r[ro] != 1 {
		t.Fatalf("restarts: primary %d read-only %d, want 1 each", r[primary], r[ro])
	}
}

func TestMinorVersionUpgradeInWindowAndAutomatic(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	manual := e.create(map[string]string{"TargetMinorVersion": "rds_20200229"})
	auto := e.create(map[string]string{"TargetMinorVersion": "rds_20200229"})
	e.clock.Add(createD)
	e.c.ok("ModifyDBInstanceAutoUpgradeMinorVersion", map[string]string{"DBInstanceId": manual, "AutoUpgradeMinorVersion": "Manual"})
	e.c.fails("ModifyDBInstanceAutoUpgradeMinorVersion", map[string]string{"DBInstanceId": manual, "AutoUpgradeMinorVersion": "Sometimes"}, 400, "InvalidParameter")
	e.c.ok("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": manual, "TargetMinorVersion": "rds_20201031", "UpgradeTime": "MaintainTime"})
	tasks := e.c.ok("DescribeHistoryTasks", e.historyParams(map[string]string{"InstanceId": manual, "TaskType": taskTypeUpgradeKernel, "Status": taskScheduled}))
	if n := jsonNum(tasks["TotalCount"]); n != "1" {
		t.Fatalf("scheduled tasks: %s", n)
	}
	if e.attr(manual)["CurrentKernelVersion"] != "rds_20200229" || e.sim.Stats().Restarts[manual] != 0 {
		t.Fatal("a deferred upgrade changes nothing before the window")
	}
	e.clock.Add(8*time.Hour + time.Minute) // 18:01Z: the window is open
	e.settle()
	if got := e.attr(manual)["CurrentKernelVersion"]; got != "rds_20201031" || e.attr(manual)["AutoUpgradeMinorVersion"] != "Manual" {
		t.Fatalf("the Manual instance runs the ordered version only, got %v", got)
	}
	if got := e.attr(auto)["CurrentKernelVersion"]; got != "rds_20250630" {
		t.Fatalf("the cloud upgrades an Auto instance to the latest in its window, got %v", got)
	}
	if r := e.sim.Stats().Restarts; r[manual] != 1 || r[auto] != 1 {
		t.Fatalf("restarts: manual %d auto %d, want 1 each", r[manual], r[auto])
	}
}

func TestMinorVersionAtSpecifiedTime(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"TargetMinorVersion": "rds_20200229"})
	e.clock.Add(createD)
	e.c.fails("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "UpgradeTime": "SpecifyTime"}, 400, "MissingParameter")
	at := e.clock.Now().Add(2 * time.Hour).Format(timestampLayout)
	e.c.ok("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "UpgradeTime": "SpecifyTime", "SwitchTime": at})
	e.clock.Add(time.Hour)
	if e.attr(id)["CurrentKernelVersion"] != "rds_20200229" {
		t.Fatal("upgraded before SwitchTime")
	}
	e.clock.Add(time.Hour)
	e.settle()
	if got := e.attr(id)["CurrentKernelVersion"]; got != "rds_20250630" {
		t.Fatalf("no TargetMinorVersion: the latest, got %v", got)
	}
}

func TestTDEOn56NeedsMinorVersion(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"EngineVersion": "5.6", "DBInstanceStorageType": "local_ssd", "OptimizedWrites": "", "TargetMinorVersion": "rds_20190815"})
	e.clock.Add(createD)
	e.c.fails("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Enabled"}, 400, "MinorVersionNotSupport")
	e.c.ok("UpgradeDBInstanceKernelVersion", map[string]string{"DBInstanceId": id, "TargetMinorVersion": tdeMinMinor56})
	e.settle()
	e.c.ok("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Enabled"})
}
