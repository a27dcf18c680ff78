package simulator

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Rules 1, 2 and 4 at creation: the eligibility matrix, explicit choices and the default.
func TestCreateEligibilityMatrix(t *testing.T) {
	e := newEnv(t)
	type row struct {
		engine, version, storage, class string
		eligible                        bool
	}
	var rows []row
	for _, v := range []string{"5.6", "5.7", "8.0", "8.4"} {
		for _, st := range []string{"local_ssd", "cloud_ssd", "cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd"} {
			for _, class := range []string{"mysql.x4.medium.2c", "mysql.n2m.medium.2c"} {
				rows = append(rows, row{"MySQL", v, st, class, (v == "5.7" || v == "8.0") && st != "local_ssd" && st != "cloud_ssd"})
			}
		}
	}
	rows = append(rows, row{"PostgreSQL", "16.0", "cloud_essd", "pg.n2.medium.2c", false})
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s-%s-%s-%s", r.engine, r.version, r.storage, r.class), func(t *testing.T) {
			c := e.c.with(func(c *client) { c.t = t })
			base := map[string]string{"Engine": r.engine, "EngineVersion": r.version, "DBInstanceStorageType": r.storage, "DBInstanceClass": r.class}
			with := func(v string) map[string]string {
				p := mysqlCreate(base)
				p["OptimizedWrites"] = v
				return p
			}
			if r.eligible {
				on := c.ok("CreateDBInstance", with("optimized"))["DBInstanceId"].(string)
				def := c.ok("CreateDBInstance", mysqlCreate(base))["DBInstanceId"].(string)
				off := c.ok("CreateDBInstance", with("none"))["DBInstanceId"].(string)
				for id, want := range map[string]string{on: owJSON(true, true), def: owJSON(true, true), off: owJSON(false, true)} {
					if got := e.owInfo(id); got != want {
						t.Errorf("%s: OptimizedWritesInfo = %s, want %s", id, got, want)
					}
				}
				return
			}
			c.fails("CreateDBInstance", with("optimized"), 400, "OptimizedWrites.NotSupported")
			def := c.ok("CreateDBInstance", mysqlCreate(base))["DBInstanceId"].(string)
			want := owJSON(false, false)
			if r.engine != "MySQL" {
				want = "" // Q6: the field is absent for other engines
			}
			if got := e.owInfo(def); got != want {
				t.Errorf("default: OptimizedWritesInfo = %q, want %q", got, want)
			}
		})
	}
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"OptimizedWrites": "on"}), 400, "InvalidOptimizedWrites.Malformed")
}

// Rule 2 and 3 on existing instances (the seeds), and rule 9.
func TestExistingInstanceRules(t *testing.T) {
	e := newEnv(t)
	if got := e.owInfo("rm-seedx86legacy"); got != owJSON(false, false) {
		t.Fatalf("legacy x86: %s", got)
	}
	if a := e.toggle("rm-seedx86legacy", "optimized"); a.code() != "OptimizedWrites.NotSupported" {
		t.Fatalf("legacy x86 on: %s", a.raw)
	}
	if got := e.owInfo("rm-seedyitian2024"); got != owJSON(true, true) {
		t.Fatalf("YiTian 2024: %s", got)
	}
	if a := e.toggle("rm-seedbasic", "optimized"); a.code() != "OptimizedWrites.BasicEditionNotSupported" {
		t.Fatalf("Basic on: %s", a.raw)
	}
	// Basic edition gets it at creation.
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1"})
	if got := e.owInfo(basic); got != owJSON(true, true) {
		t.Fatalf("new Basic: %s", got)
	}
	// PostgreSQL: no field; "optimized" refused; "none" accepted without a restart.
	if got := e.owInfo("pgm-seedpostgres"); got != "" {
		t.Fatalf("PostgreSQL OptimizedWritesInfo = %q", got)
	}
	if a := e.toggle("pgm-seedpostgres", "optimized"); a.code() != "OptimizedWrites.NotSupported" {
		t.Fatalf("PostgreSQL on: %s", a.raw)
	}
	if a := e.toggle("pgm-seedpostgres", "none"); a.status != 200 {
		t.Fatalf("PostgreSQL none: %s", a.raw)
	}
	if n := e.sim.Stats().Restarts["pgm-seedpostgres"]; n != 0 {
		t.Fatalf("PostgreSQL restarts = %d", n)
	}

	// Rule 9: YiTian bought in 2024 moves to an x86 class; the same order switches the flag off.
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": "rm-seedyitian2024", "DBInstanceClass": "mysql.n2.medium.2c", "DBInstanceStorage": "100"})
	e.settle()
	if got := e.owInfo("rm-seedyitian2024"); got != owJSON(false, false) {
		t.Fatalf("after product-type change: %s", got)
	}
	// Moving back to YiTian does not restore eligibility.
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": "rm-seedyitian2024", "DBInstanceClass": "mysql.n2m.medium.2c", "DBInstanceStorage": "100"})
	e.settle()
	if a := e.toggle("rm-seedyitian2024", "optimized"); a.code() != "OptimizedWrites.NotSupported" {
		t.Fatalf("after change back: %s", a.raw)
	}
	// Asking for it together with a product-type change is refused.
	id, _ := e.sim.AddInstance(SeedInstance{Engine: "MySQL", EngineVersion: "5.7", DBInstanceClass: "mysql.x2m.large.2c", PurchaseTime: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), OptimizedWrites: true})
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceClass": "mysql.x2.large.2c", "OptimizedWrites": "optimized"}, 400, "OptimizedWrites.NotSupported")
	// An instance bought after the product-line date keeps eligibility across families.
	newer := e.create(map[string]string{"DBInstanceClass": "mysql.n2m.medium.2c"})
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": newer, "DBInstanceClass": "mysql.n2.medium.2c"})
	e.settle()
	if got := e.owInfo(newer); got != owJSON(true, true) {
		t.Fatalf("post-2025 family change: %s", got)
	}
}

// Rule 7: inheritance, the primary-on rule, and the cascade.
func TestReadOnlyRules(t *testing.T) {
	e := newEnv(t)
	primary := e.create(map[string]string{"OptimizedWrites": "none"})
	ro := func(p string) string {
		id := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
			"RegionId": DefaultRegion, "DBInstanceId": p, "ZoneId": "cn-hangzhou-i", "EngineVersion": "8.0",
			"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
		})["DBInstanceId"].(string)
		e.clock.Add(createD)
		return id
	}
	ro1, ro2 := ro(primary), ro(primary)
	// A follower that cannot restart now blocks the cascade (busy, retried by clients).
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": ro2})
	if a := e.toggle(primary, "optimized"); a.code() != "OperationDenied.ReadDBInstanceStatus" {
		t.Fatalf("cascade onto a rebooting read-only instance: %s", a.raw)
	}
	e.clock.Add(restartD)
	for _, id := range []string{ro1, ro2} {
		if got := e.owInfo(id); got != owJSON(false, true) {
			t.Fatalf("read-only of an off primary: %s", got)
		}
		if a := e.attr(id); a["MasterInstanceId"] != primary || a["DBInstanceType"] != "Readonly" {
			t.Fatalf("read-only attributes: %v", a)
		}
	}
	got := e.attr(primary)["ReadOnlyDBInstanceIds"].(map[string]any)["ReadOnlyDBInstanceId"].([]any)
	if len(got) != 2 {
		t.Fatalf("ReadOnlyDBInstanceIds = %v", got)
	}
	// A read-only instance may be on while its primary is off.
	if a := e.toggle(ro1, "optimized"); a.status != 200 {
		t.Fatalf("read-only on: %s", a.raw)
	}
	e.settle()
	e.sim.ResetStats()
	// Turning the primary on cascades to ro2 only (ro1 is on already): one restart each.
	if a := e.toggle(primary, "optimized"); a.status != 200 {
		t.Fatalf("primary on: %s", a.raw)
	}
	if s := e.status(ro2); s != statusClassChanging {
		t.Fatalf("ro2 status during cascade = %s", s)
	}
	// The follower restarts once its primary is back: still busy when the primary is Running.
	e.clock.Add(restartD + lagD)
	if s := e.status(primary); s != statusRunning {
		t.Fatalf("primary status after one restart = %s", s)
	}
	if s := e.status(ro2); s != statusClassChanging {
		t.Fatalf("ro2 status when its primary is back = %s, want it still restarting", s)
	}
	e.settle()
	restarts := e.sim.Stats().Restarts
	if restarts[primary] != 1 || restarts[ro2] != 1 || restarts[ro1] != 0 {
		t.Fatalf("restarts = %v", restarts)
	}
	for _, id := range []string{primary, ro1, ro2} {
		if got := e.owInfo(id); got != owJSON(true, true) {
			t.Fatalf("%s after cascade: %s", id, got)
		}
	}
	// While the primary is on, a read-only instance cannot turn it off.
	if a := e.toggle(ro2, "none"); a.code() != "OptimizedWrites.PrimaryEnabled" {
		t.Fatalf("read-only off under an on primary: %s", a.raw)
	}
	// A new read-only instance inherits the primary's current value.
	if got := e.owInfo(ro(primary)); got != owJSON(true, true) {
		t.Fatalf("read-only of an on primary: %s", got)
	}
	// A primary with read-only instances cannot be deleted.
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": primary}, 400, "OperationDenied.ReadOnlyInstanceExists")
	// Creating a read-only instance of a busy primary is refused.
	e.toggle(primary, "none")
	e.c.fails("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": primary, "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
	}, 400, "OperationDenied.MasterDBInstanceState")
}

// Concurrent read-only creates of one primary meet LockTimeout until the first one is Running.
func TestReadOnlyCreatesOfOnePrimaryAreSerialised(t *testing.T) {
	e := newEnv(t)
	primary := e.create(nil)
	request := map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": primary, "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid",
	}
	first := e.c.ok("CreateReadOnlyDBInstance", request)["DBInstanceId"].(string)
	a := e.c.fails("CreateReadOnlyDBInstance", request, 403, "LockTimeout")
	if !strings.Contains(a.raw, first) {
		t.Fatalf("the lock error should name the read-only instance being created: %s", a.raw)
	}
	e.clock.Add(createD)
	e.c.ok("CreateReadOnlyDBInstance", request)
}

// Rule 8: clones inherit the source's value and product line.
func TestCloneInherits(t *testing.T) {
	e := newEnv(t)
	clone := func(src string, extra map[string]string) string {
		p := map[string]string{"RegionId": DefaultRegion, "DBInstanceId": src, "PayType": "Postpaid", "BackupId": "123456"}
		for k, v := range extra {
			p[k] = v
		}
		id := e.c.ok("CloneDBInstance", p)["DBInstanceId"].(string)
		e.clock.Add(createD)
		return id
	}
	if got := e.owInfo(clone("rm-seedx86legacy", nil)); got != owJSON(false, false) {
		t.Fatalf("clone of legacy x86: %s", got)
	}
	if got := e.owInfo(clone("rm-seedyitian2024", nil)); got != owJSON(true, true) {
		t.Fatalf("clone of YiTian: %s", got)
	}
	off := e.create(map[string]string{"OptimizedWrites": "none"})
	restore := e.clock.Now().Add(-time.Second).Format(timestampLayout)
	if got := e.owInfo(clone(off, map[string]string{"BackupId": "", "RestoreTime": restore})); got != owJSON(false, true) {
		t.Fatalf("point-in-time clone of an off instance: %s", got)
	}
	e.c.fails("CloneDBInstance", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": off, "PayType": "Postpaid"}, 400, "MissingParameter")
	e.c.fails("CloneDBInstance", map[string]string{"DBInstanceId": off, "PayType": "Postpaid", "RestoreTime": "2001-01-01T00:00:00Z"}, 400, "InvalidParameter")
	e.c.fails("CloneDBInstance", map[string]string{"DBInstanceId": "rm-missing", "PayType": "Postpaid", "BackupId": "1"}, 404, "InvalidDBInstanceId.NotFound")
}

// Q9 and one order = one restart.
func TestSpecChangeRestarts(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"DBInstanceStorageType": "general_essd"})
	e.sim.ResetStats()
	if a := e.toggle(id, "optimized"); a.status != 200 {
		t.Fatalf("same value: %s", a.raw)
	}
	if s := e.status(id); s != statusRunning || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("same value restarted: status %s, restarts %v", s, e.sim.Stats().Restarts)
	}
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceClass": "mysql.x4.large.2c",
		"DBInstanceStorage": "200", "DBInstanceStorageType": "general_essd", "OptimizedWrites": "none", "IoAccelerationEnabled": "1"})
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "300"}, 400, "OperationDenied.DBInstanceStatus")
	e.settle()
	a := e.attr(id)
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("restarts = %d, want 1", n)
	}
	if a["DBInstanceClass"] != "mysql.x4.large.2c" || a["DBInstanceStorage"].(float64) != 200 || a["IoAccelerationEnabled"] != "1" || a["OptimizedWritesInfo"] != owJSON(false, true) {
		t.Fatalf("after the change: %v", a)
	}
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "OptimizedWrites": "optimized"}, 400, "MissingParameter")
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200", "EffectiveTime": "MaintainTime"}, 400, "InvalidParameter")
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200", "DBInstanceStorageType": "cloud_essd"}, 400, "InvalidParameter")
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": "rm-nope", "DBInstanceStorage": "200"}, 404, "InvalidDBInstanceId.NotFound")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"IoAccelerationEnabled": "1"}), 400, "InvalidParameter")
}

// Storage facts (README "Storage"): cloud-disk growth of the same type is online, a reduction needs
// MySQL 5.7/8.0 on ESSD and restarts, cloud disks never go back to local disks, and a read-only
// instance keeps at least its primary's storage.
func TestStorageChanges(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.sim.ResetStats()
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200"})
	if s := e.status(id); s != statusRunning || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("online growth: status %s, restarts %v", s, e.sim.Stats().Restarts)
	}
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200", "DBInstanceStorageType": "local_ssd"}, 400, "InvalidParameter")
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "100"})
	e.settle()
	if a := e.attr(id); a["DBInstanceStorage"].(float64) != 100 || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("reduction: %v, restarts %v", a["DBInstanceStorage"], e.sim.Stats().Restarts)
	}
	ssd := e.create(map[string]string{"DBInstanceStorageType": "cloud_ssd"})
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": ssd, "DBInstanceStorage": "100"})
	e.settle()
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": ssd, "DBInstanceStorage": "50"}, 400, "InvalidParameter")
}
