package simulator

import (
	"net/http"
	"testing"
	"time"
)

// crossOn turns cross-region backup on for id (to cn-shanghai, keeping copies days days) and
// makes one set, copied once it completes.
func crossOn(e *env, id, days string) {
	e.t.Helper()
	e.c.ok("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1",
		"CrossBackupRegion": "cn-shanghai", "Retention": days})
	e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})
	e.clock.Add(restartD)
}

// Issue 46 §2: copies are made on the clock, a shorter retention deletes the older ones at once,
// and the destination is checked against DescribeAvailableCrossRegion.
func TestCrossRegionRetention(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1",
		"CrossBackupRegion": DefaultRegion}, http.StatusBadRequest, "InvalidCrossBackupRegion")
	e.c.fails("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1",
		"CrossBackupRegion": "cn-shanghai", "Retention": "1826"}, http.StatusBadRequest, "InvalidParameter")
	crossOn(e, id, "30")
	if n := e.sim.CrossRegionBackups(id); n != 1 {
		t.Fatalf("after one set: %d copies, want 1", n)
	}
	e.sim.AdvanceClock(10 * 24 * time.Hour)
	kept := e.sim.CrossRegionBackups(id)
	e.c.ok("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1",
		"CrossBackupRegion": "cn-shanghai", "Retention": "7"})
	if n := e.sim.CrossRegionBackups(id); n >= kept || n == 0 {
		t.Fatalf("retention 30 -> 7 days: %d copies of %d kept, want the older ones gone and the recent ones kept", n, kept)
	}
}

// Issue 46 §2: releasing a cloud-disk instance deletes its copies; one on local disks keeps them.
func TestCrossRegionRelease(t *testing.T) {
	e := newEnv(t)
	cloud := e.create(map[string]string{"VSwitchId": "vsw-2"})
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7", "VSwitchId": "vsw-3"})
	crossOn(e, cloud, "30")
	crossOn(e, local, "30")
	for _, id := range []string{cloud, local} {
		e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
	}
	e.clock.Add(deleteD)
	if n := e.sim.CrossRegionBackups(cloud); n != 0 {
		t.Errorf("released cloud-disk instance: %d copies kept, want none", n)
	}
	if n := e.sim.CrossRegionBackups(local); n != 1 {
		t.Errorf("released local-disk instance: %d copies kept, want 1", n)
	}
	from, to := e.clock.Now().Add(-time.Hour).Format(crossTimeLayout), e.clock.Now().Format(crossTimeLayout)
	list := e.c.ok("DescribeCrossRegionBackups", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": local, "StartTime": from, "EndTime": to})
	if list["TotalRecordCount"].(float64) != 1 {
		t.Errorf("DescribeCrossRegionBackups of the released local-disk instance: %v", list)
	}
}
