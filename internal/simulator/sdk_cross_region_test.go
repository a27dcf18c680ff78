package simulator

import (
	"strconv"
	"time"

	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
)

func init() {
	modelFields["ModifyInstanceCrossBackupPolicy"] = []string{"DBInstanceId", "RegionId", "CrossBackupRegion", "BackupEnabled",
		"LogBackupEnabled", "CrossBackupType", "RetentType", "Retention"}
	modelFields["DescribeInstanceCrossBackupPolicy"] = []string{"DBInstanceId", "BackupEnabled", "LogBackupEnabled", "CrossBackupRegion",
		"Retention", "RetentType", "CrossBackupType", "BackupEnabledTime", "LockMode", "DBInstanceStatus"}
	modelFields["DescribeAvailableCrossRegion"] = []string{"Regions.Region"}
	modelFields["DescribeCrossRegionBackups"] = []string{"TotalRecordCount", "PageNumber", "PageRecordCount", "Items.Item[].CrossBackupId",
		"Items.Item[].CrossBackupRegion", "Items.Item[].BackupStartTime", "Items.Item[].BackupEndTime", "Items.Item[].ConsistentTime",
		"Items.Item[].CrossBackupSetSize", "Items.Item[].RestoreRegions"}
	modelFields["CreateDdrInstance"] = []string{"DBInstanceId", "OrderId", "ConnectionString", "Port"}
}

// sdkCrossRegion lists the destinations, turns cross-region backup on, makes a set and finds its
// copy in the destination region.
func (e *sdkEnv) sdkCrossRegion(id string) {
	e.t.Helper()
	regions := rds.CreateDescribeAvailableCrossRegionRequest()
	regions.RegionId = DefaultRegion
	offered := rds.CreateDescribeAvailableCrossRegionResponse()
	e.do(regions, offered)
	if len(offered.Regions.Region) == 0 {
		e.t.Fatalf("DescribeAvailableCrossRegion: %+v", offered.Regions)
	}
	on := rds.CreateModifyInstanceCrossBackupPolicyRequest()
	on.DBInstanceId, on.CrossBackupRegion, on.BackupEnabled, on.LogBackupEnabled = id, "cn-shanghai", "1", "1"
	on.CrossBackupType, on.RetentType, on.Retention = "1", requests.NewInteger(1), requests.NewInteger(30)
	done := rds.CreateModifyInstanceCrossBackupPolicyResponse()
	e.do(on, done)
	if done.CrossBackupRegion != "cn-shanghai" || done.Retention != 30 {
		e.t.Fatalf("ModifyInstanceCrossBackupPolicy: %+v", done)
	}
	read := rds.CreateDescribeInstanceCrossBackupPolicyRequest()
	read.DBInstanceId = id
	policy := rds.CreateDescribeInstanceCrossBackupPolicyResponse()
	e.do(read, policy)
	if policy.BackupEnabled != "Enable" || policy.LogBackupEnabled != "Enable" || policy.Retention != 30 || policy.CrossBackupRegion != "cn-shanghai" {
		e.t.Fatalf("DescribeInstanceCrossBackupPolicy: %+v", policy)
	}
	backup := rds.CreateCreateBackupRequest()
	backup.DBInstanceId, backup.BackupMethod = id, "Physical"
	e.do(backup, rds.CreateCreateBackupResponse())
	e.clock.Add(restartD)
	list := rds.CreateDescribeCrossRegionBackupsRequest()
	list.DBInstanceId, list.CrossBackupRegion = id, "cn-shanghai"
	list.StartTime = e.clock.Now().Add(-time.Hour).Format(crossTimeLayout)
	list.EndTime = e.clock.Now().Format(crossTimeLayout)
	copies := rds.CreateDescribeCrossRegionBackupsResponse()
	e.do(list, copies)
	if copies.TotalRecordCount != 1 || len(copies.Items.Item) != 1 || copies.Items.Item[0].CrossBackupRegion != "cn-shanghai" {
		e.t.Fatalf("DescribeCrossRegionBackups: %+v", copies.Items)
	}
	restore := rds.CreateCreateDdrInstanceRequest()
	restore.RegionId, restore.SourceRegion, restore.SourceDBInstanceName = "cn-shanghai", DefaultRegion, id
	restore.BackupSetId, restore.RestoreType = strconv.Itoa(copies.Items.Item[0].CrossBackupId), "0"
	restore.Engine, restore.EngineVersion, restore.DBInstanceClass = "MySQL", copies.Items.Item[0].EngineVersion, "mysql.n2.medium.2c"
	restore.DBInstanceStorage, restore.DBInstanceStorageType, restore.PayType = requests.NewInteger(100), "cloud_essd", "Postpaid"
	created := rds.CreateCreateDdrInstanceResponse()
	e.do(restore, created)
	if created.DBInstanceId == "" || created.DBInstanceId == id {
		e.t.Fatalf("CreateDdrInstance: %+v", created)
	}
}
