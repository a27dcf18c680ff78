package simulator

import (
	"net/http"
	"testing"
	"time"
)

func autoScaleParams(id, threshold, upper string) map[string]string {
	return map[string]string{"DBInstanceId": id, "StorageAutoScale": "Enable", "StorageThreshold": threshold, "StorageUpperBound": upper}
}

func (e *env) autoScaleConfig(id string) map[string]any {
	e.t.Helper()
	body := e.c.ok("DescribeAutoScalingConfig", map[string]string{"InstanceId": id})
	return body["Data"].(map[string]any)["Storage"].(map[string]any)
}

func (e *env) storage(id string) float64 {
	e.t.Helper()
	return e.attr(id)["DBInstanceStorage"].(float64)
}

// ModifyDasInstanceConfig's documented ranges, and DAS reading the configuration back.
func TestModifyDasInstanceConfigRangesAndReadBack(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil) // 100 GB cloud_essd, High-availability
	if got := e.autoScaleConfig(id); got["Upgrade"] != false {
		t.Fatalf("a new instance has autoscaling off: %v", got)
	}
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(id, "15", "500"), http.StatusBadRequest, "InvalidParameter")
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(id, "20", "95"), http.StatusBadRequest, "InvalidParameter")
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(id, "20", "32005"), http.StatusBadRequest, "InvalidParameter")
	e.c.fails("ModifyDasInstanceConfig", map[string]string{"DBInstanceId": id, "StorageAutoScale": "Enable", "StorageUpperBound": "500"}, http.StatusBadRequest, "MissingParameter")
	e.c.ok("ModifyDasInstanceConfig", autoScaleParams(id, "30", "500"))
	got := e.autoScaleConfig(id)
	if got["Upgrade"] != true || got["MaxStorage"] != float64(500) || got["DiskUsageUpperThreshold"] != float64(70) {
		t.Fatalf("read back: %v", got)
	}
	e.c.ok("ModifyDasInstanceConfig", map[string]string{"DBInstanceId": id, "StorageAutoScale": "Disable"})
	if got := e.autoScaleConfig(id); got["Upgrade"] != false {
		t.Fatalf("after Disable: %v", got)
	}
	ssd := e.create(map[string]string{"DBInstanceStorageType": "cloud_ssd"})
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(ssd, "30", "6005"), http.StatusBadRequest, "InvalidParameter")
	e.c.ok("ModifyDasInstanceConfig", autoScaleParams(ssd, "30", "6000"))
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1"})
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(basic, "30", "500"), http.StatusBadRequest, "OperationDenied")
}

// The cloud grows the disk once free space has stayed at or below the threshold for the check
// delay: by max(15%, 5 GB), up to the upper bound, online, and a smaller read-only instance first.
func TestAutoScaleGrowsDiskOnTheClock(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": id, "EngineVersion": "8.0", "DBInstanceClass": "mysqlro.n2.medium.1c",
		"DBInstanceStorage": "100", "PayType": "Postpaid", "ZoneId": "cn-hangzhou-i",
	})["DBInstanceId"].(string)
	e.clock.Add(createD)
	e.c.fails("ModifyDasInstanceConfig", autoScaleParams(ro, "30", "500"), http.StatusBadRequest, "OperationDenied")
	e.c.ok("ModifyDasInstanceConfig", autoScaleParams(id, "30", "130"))
	if err := e.sim.SetDiskUsage(id, 69); err != nil { // 31% free: above the threshold
		t.Fatal(err)
	}
	e.clock.Add(2 * autoScaleCheckDelay)
	if s := e.storage(id); s != 100 {
		t.Fatalf("grew with 31%% free: %v GB", s)
	}
	if err := e.sim.SetDiskUsage(id, 70); err != nil { // 30% free: at the threshold
		t.Fatal(err)
	}
	e.clock.Add(autoScaleCheckDelay / 2)
	if s := e.storage(id); s != 100 {
		t.Fatalf("grew before the check delay: %v GB", s)
	}
	e.clock.Add(autoScaleCheckDelay)
	if s, r := e.storage(id), e.storage(ro); s != 115 || r != 115 {
		t.Fatalf("after one growth: primary %v GB, read-only %v GB; want 115 and 115", s, r)
	}
	if err := e.sim.SetDiskUsage(id, 110); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		e.clock.Add(2 * autoScaleCheckDelay)
		e.storage(id)
	}
	if s := e.storage(id); s != 130 {
		t.Fatalf("the upper bound 130 GB is the limit: %v GB", s)
	}
	if n := e.sim.AutoScaleGrowths(id); n != 2 {
		t.Fatalf("growths: %d, want 2 (115, then 130)", n)
	}
	if n := e.sim.Stats().Restarts[id]; n != 0 || e.status(id) != statusRunning {
		t.Fatalf("growth is online: %d restarts, status %s", n, e.status(id))
	}
}

// A deferred order that names no DBInstanceStorage keeps the disk autoscaling grew before the
// window; one that names the old size sets it (README "Maintenance windows", an assumption).
func TestDeferredOrderWithoutStorageKeepsTheGrowth(t *testing.T) {
	for _, named := range []bool{false, true} {
		e := newEnv(t)
		id := e.create(nil)
		e.c.ok("ModifyDasInstanceConfig", autoScaleParams(id, "30", "500"))
		order := map[string]string{"DBInstanceClass": "mysql.x4.large.2c", "DBInstanceStorage": ""}
		if named {
			order["DBInstanceStorage"] = "100"
		}
		if a := e.deferSpec(id, order); a.status != http.StatusOK {
			t.Fatal(a.raw)
		}
		if err := e.sim.SetDiskUsage(id, 75); err != nil {
			t.Fatal(err)
		}
		e.clock.Add(2 * autoScaleCheckDelay)
		if err := e.sim.SetDiskUsage(id, 10); err != nil { // no further growth
			t.Fatal(err)
		}
		e.sim.AdvanceClock(8 * time.Hour)
		e.settle()
		want := 115.0
		if named {
			want = 100
		}
		if a := e.attr(id); a["DBInstanceClass"] != "mysql.x4.large.2c" || e.storage(id) != want {
			t.Errorf("storage named %v: after the window %v with %v GB, want mysql.x4.large.2c with %v GB", named, a["DBInstanceClass"], e.storage(id), want)
		}
	}
}
