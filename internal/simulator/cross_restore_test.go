package simulator

import (
	"net/http"
	"testing"
	"time"
)

// Issue 46 §2: CreateDdrInstance restores a cross-region copy, of a released local-disk instance
// too, to a new instance in the copy's region; a wrong region, set or restore type is refused.
func TestCreateDdrInstance(t *testing.T) {
	e := newEnv(t)
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7", "VSwitchId": "vsw-3"})
	crossOn(e, local, "30")
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": local})
	e.clock.Add(deleteD)
	from, to := e.clock.Now().Add(-2*time.Hour).Format(crossTimeLayout), e.clock.Now().Format(crossTimeLayout)
	list := e.c.ok("DescribeCrossRegionBackups", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": local, "StartTime": from, "EndTime": to})
	set := itoa(int64(list["Items"].(map[string]any)["Item"].([]any)[0].(map[string]any)["CrossBackupId"].(float64)))
	req := func(change map[string]string) map[string]string {
		p := map[string]string{"RegionId": "cn-shanghai", "SourceRegion": DefaultRegion, "SourceDBInstanceName": local, "BackupSetId": set,
			"RestoreType": "0", "Engine": "MySQL", "EngineVersion": "5.7", "DBInstanceClass": "mysql.n2.medium.2c",
			"DBInstanceStorage": "100", "DBInstanceStorageType": "local_ssd", "PayType": "Postpaid"}
		for k, v := range change {
			p[k] = v
		}
		return p
	}
	e.c.fails("CreateDdrInstance", req(map[string]string{"RegionId": "cn-qingdao"}), http.StatusNotFound, "InvalidBackupSetID.NotFound")
	e.c.fails("CreateDdrInstance", req(map[string]string{"SourceRegion": "cn-beijing"}), http.StatusNotFound, "InvalidBackupSetID.NotFound")
	e.c.fails("CreateDdrInstance", req(map[string]string{"SourceRegion": "eu-west-1"}), http.StatusBadRequest, "InvalidSourceRegion.NotFound")
	e.c.fails("CreateDdrInstance", req(map[string]string{"RegionId": "eu-west-1"}), http.StatusBadRequest, "InvalidRegionId.NotFound")
	e.c.fails("CreateDdrInstance", req(map[string]string{"RestoreType": "1"}), http.StatusBadRequest, "InvalidParameter")
	e.c.fails("CreateDdrInstance", req(map[string]string{"EngineVersion": "8.0"}), http.StatusBadRequest, "InvalidParameter")
	id := e.c.ok("CreateDdrInstance", req(nil))["DBInstanceId"].(string)
	e.clock.Add(createD)
	attr := e.c.ok("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id})
	got := attr["Items"].(map[string]any)["DBInstanceAttribute"].([]any)[0].(map[string]any)
	if got["RegionId"] != "cn-shanghai" || got["DBInstanceStatus"] != "Running" || got["EngineVersion"] != "5.7" {
		t.Errorf("restored instance: region %v, status %v, version %v", got["RegionId"], got["DBInstanceStatus"], got["EngineVersion"])
	}
	// Instances are listed by region; the copies are asked for in the source's region.
	for region, want := range map[string]float64{"cn-shanghai": 1, DefaultRegion: 0} {
		if n := e.c.ok("DescribeDBInstances", map[string]string{"RegionId": region, "DBInstanceId": id})["TotalRecordCount"]; n != want {
			t.Errorf("DescribeDBInstances in %s lists %v of the restored instance, want %v", region, n, want)
		}
	}
	e.c.fails("DescribeCrossRegionBackups", map[string]string{"RegionId": "cn-shanghai", "DBInstanceId": local, "StartTime": from, "EndTime": to},
		http.StatusNotFound, "InvalidDBInstanceId.NotFound")
}
