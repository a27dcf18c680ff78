package simulator

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/responses"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/das"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
)

// modelFields are answer fields the rds-20140815 models and the API reference examples carry and
// that a client may read, per action, as paths ("Items[].Uid": every element of Items has Uid).
// The classic SDK decodes a missing field as its zero value, so decoding alone cannot see their
// absence (issue 47 §1 item 3).
var modelFields = map[string][]string{
	"TransformDBInstancePayType":           {"DBInstanceId", "OrderId", "ChargeType"},
	"MigrateToOtherZone":                   {"DBInstanceId", "OrderId"},
	"DescribeDBInstanceTDE":                {"TDEStatus"},
	"DescribeBackupPolicy":                 {"EnablePitrProtection", "BackupRetentionPeriod", "PreferredBackupTime", "PreferredBackupPeriod", "EnableBackupLog", "LocalLogRetentionHours", "CompressType"},
	"ModifyBackupPolicy":                   {"DBInstanceID", "CompressType", "EnableBackupLog", "LocalLogRetentionHours", "LocalLogRetentionSpace", "HighSpaceUsageProtection", "LogBackupLocalRetentionNumber"},
	"DescribeBackups":                      {"Items.Backup[].HostInstanceID", "Items.Backup[].IsAvail", "Items.Backup[].StorageClass", "Items.Backup[].Checksum", "Items.Backup[].BackupDownloadURL", "Items.Backup[].BackupIntranetDownloadURL", "Items.Backup[].BackupId", "Items.Backup[].BackupStatus"},
	"DescribeHistoryTasks":                 {"Items[].TaskId", "Items[].Status", "Items[].StartTime", "Items[].TaskType", "Items[].TaskDetail", "Items[].InstanceName", "Items[].InstanceType", "Items[].Progress", "Items[].Uid", "Items[].CallerUid", "TotalCount"},
	"UpgradeDBInstanceKernelVersion":       {"DBInstanceName", "TaskId", "TargetMinorVersion"},
	"UpgradeDBInstanceEngineVersion":       {"TaskId"},
	"CreateBackup":                         {"BackupJobId"},
	"DescribeDBInstanceHAConfig":           {"HostInstanceInfos.NodeInfo[].NodeId", "HostInstanceInfos.NodeInfo[].NodeType"},
	"DescribeDBInstanceSSL":                {"RequireUpdate", "SSLEnabled"},
	"ListTagResources":                     {"TagResources.TagResource[].ResourceId", "TagResources.TagResource[].TagKey", "TagResources.TagResource[].TagValue"},
	"DescribeAccounts":                     {"Accounts.DBInstanceAccount[].AccountName", "Accounts.DBInstanceAccount[].AccountStatus", "Accounts.DBInstanceAccount[].AccountType"},
	"DescribeDatabases":                    {"Databases.Database[].DBName", "Databases.Database[].DBStatus", "Databases.Database[].CharacterSetName"},
	"DescribeInstanceAutoRenewalAttribute": {"Items.Item[].DBInstanceId", "Items.Item[].AutoRenew", "Items.Item[].Duration"},
	"RenewInstance":                        {"OrderId"},
	"DescribeDetachedBackups": {"PageNumber", "PageRecordCount", "TotalRecordCount", "TotalBackupSize", "Items.Backup[].BackupId",
		"Items.Backup[].DBInstanceId", "Items.Backup[].BackupStatus", "Items.Backup[].BackupMode", "Items.Backup[].BackupStartTime",
		"Items.Backup[].BackupEndTime", "Items.Backup[].BackupSize", "Items.Backup[].StoreStatus"},
	"ListResourceGroups": {"TotalCount", "PageNumber", "PageSize", "ResourceGroups.ResourceGroup[].Id", "ResourceGroups.ResourceGroup[].Name",
		"ResourceGroups.ResourceGroup[].DisplayName", "ResourceGroups.ResourceGroup[].Status", "ResourceGroups.ResourceGroup[].AccountId",
		"ResourceGroups.ResourceGroup[].CreateDate"},
	"ModifySqlLogConfig": {"Code", "Success", "Message"},
	"DescribeSqlLogConfig": {"Code", "Success", "Data.SqlLogEnable", "Data.RequestEnable", "Data.Retention", "Data.HotRetention",
		"Data.ColdRetention", "Data.Version", "Data.SqlLogVisibleTime"},
	"DescribeDBMiniEngineVersions": {"TotalCount", "PageNumbers", "MaxRecordsPerPage", "MinorVersionItems[].Engine",
		"MinorVersionItems[].EngineVersion", "MinorVersionItems[].MinorVersion", "MinorVersionItems[].StatusDesc",
		"MinorVersionItems[].ReleaseType", "MinorVersionItems[].IsHotfixVersion", "MinorVersionItems[].ExpireStatus"},
	"ListClasses": {"RegionId", "Items[].ClassCode", "Items[].ClassGroup", "Items[].Cpu", "Items[].MemoryClass",
		"Items[].MaxConnections", "Items[].MaxIOPS", "Items[].MaxIOMBPS", "Items[].InstructionSetArch", "Items[].ReferencePrice"},
	"DescribeAvailableZones": {"AvailableZones[].RegionId", "AvailableZones[].ZoneId", "AvailableZones[].SupportedEngines[].Engine",
		"AvailableZones[].SupportedEngines[].SupportedEngineVersions[].Version",
		"AvailableZones[].SupportedEngines[].SupportedEngineVersions[].SupportedCategorys[].Category",
		"AvailableZones[].SupportedEngines[].SupportedEngineVersions[].SupportedCategorys[].SupportedStorageTypes[].StorageType"},
}

// tdeModelFields: DescribeDBInstanceTDE once TDE is on also carries TDEMode.
var tdeModelFields = []string{"TDEStatus", "TDEMode"}

// missingFields lists the paths of want that the JSON answer lacks. An array that is empty counts
// as missing: the test must make the element exist to check it.
func missingFields(body any, want []string) []string {
	var out []string
	for _, path := range want {
		if !hasPath(body, strings.Split(path, ".")) {
			out = append(out, path)
		}
	}
	return out
}

func hasPath(v any, parts []string) bool {
	if len(parts) == 0 {
		return true
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	name, each := strings.CutSuffix(parts[0], "[]")
	next, ok := obj[name]
	if !ok || !each {
		return ok && hasPath(next, parts[1:])
	}
	items, ok := next.([]any)
	if !ok || len(items) == 0 {
		return false
	}
	for _, it := range items {
		if !hasPath(it, parts[1:]) {
			return false
		}
	}
	return true
}

// clientActions lists the RDS (and DAS) actions internal/rdsapi sends, read from its source.
func clientActions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../rdsapi/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("internal/rdsapi sources: %v", err)
	}
	call := regexp.MustCompile(`c\.call(?:WithBody)?\(ctx, "([A-Za-z]+)"`)
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllSubmatch(src, -1) {
			out = append(out, string(m[1]))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// classicSDKDay2 drives the day-2 actions (accounts, parameters, backups, maintenance, upgrades,
// zone moves, SSL, TDE, tags, billing, nodes, storage autoscaling) with the typed SDK on a
// simulator whose clock the test moves (near the real time: the SDK signs with the real clock).
func classicSDKDay2(t *testing.T, format string, driven map[string]bool) {
	clock := &fakeClock{t: time.Now().UTC().Truncate(time.Second)}
	sim, srv := NewTestServer(t, Options{CreateDuration: createD, RestartDuration: restartD, DeleteDuration: deleteD,
		FlagLag: lagD, Now: clock.Now})
	client, err := rds.NewClientWithAccessKey(DefaultRegion, DefaultAccessKeyID, DefaultAccessKeySecret)
	if err != nil {
		t.Fatal(err)
	}
	e := &sdkEnv{t: t, sim: sim, client: client, host: mustHost(t, srv.URL), format: format, driven: driven, clock: clock}
	primary := e.sdkCreate("8.0", "rds_20230630")
	e.sdkAccounts(primary)
	e.sdkParameters(primary)
	e.sdkDiscovery()
	e.sdkParameterGroups(primary)
	e.sdkProxy(primary)
	e.sdkMonitor(primary)
	e.sdkHASwitch(primary)
	e.sdkHASync(primary)
	e.sdkEndpoints(primary)
	backupID := e.sdkBackups(primary)
	e.sdkMaintenance(primary)
	e.sdkSecurity(primary)
	e.sdkAccessLists(primary)
	e.sdkTagsAndNodes(primary)
	e.sdkAuditAndGroups(primary)
	e.sdkCrossRegion(primary)
	e.sdkZoneMove(primary)
	older := e.sdkCreate("5.7", "")
	e.sdkUpgradeAndBilling(older)
	e.sdkDeleteBackup(primary, backupID)
	del := rds.CreateDeleteDBInstanceRequest()
	del.DBInstanceId = primary
	e.do(del, rds.CreateDeleteDBInstanceResponse())
	e.sdkReleaseKeeping(older)
}

// settle moves the clock past a restart and the flag lag, then expects id Running. The clock starts at the
// real time (the SDK signs with it), so a task waiting for the default maintenance window can start during one
// move when the test runs inside that window: a second move lets its restart end too.
func (e *sdkEnv) settle(id string) {
	e.t.Helper()
	var a rds.DBInstanceAttribute
	for range 2 {
		e.clock.Add(2*restartD + lagD)
		if a = e.attribute(id); a.DBInstanceStatus == statusRunning {
			return
		}
	}
	e.t.Fatalf("%s still %s", id, a.DBInstanceStatus)
}

func (e *sdkEnv) sdkCreate(version, minor string) string {
	e.t.Helper()
	create := rds.CreateCreateDBInstanceRequest()
	create.RegionId, create.ZoneId, create.Engine, create.EngineVersion = DefaultRegion, "cn-hangzhou-i", "MySQL", version
	create.DBInstanceClass, create.DBInstanceStorage, create.DBInstanceStorageType = "mysql.x4.medium.2c", requests.NewInteger(100), "cloud_essd"
	create.DBInstanceNetType, create.SecurityIPList, create.PayType, create.Category = "Intranet", "10.0.0.0/8", "Postpaid", "HighAvailability"
	create.InstanceNetworkType, create.VPCId, create.VSwitchId = "VPC", "vpc-sdk", "vsw-sdk-i"
	create.TargetMinorVersion = minor
	created := rds.CreateCreateDBInstanceResponse()
	e.do(create, created)
	e.clock.Add(createD)
	e.settle(created.DBInstanceId)
	// A window closed for hours: the default 18:00Z-22:00Z opened during a run begun at 17:59, and a task
	// waiting for it started under a later call (OperationDenied.DBInstanceStatus at 18:00:12).
	window := rds.CreateModifyDBInstanceMaintainTimeRequest()
	window.DBInstanceId, window.MaintainTime = created.DBInstanceId, e.clock.Now().Add(6*time.Hour).Format("15")+":00Z-"+e.clock.Now().Add(7*time.Hour).Format("15")+":00Z"
	e.do(window, rds.CreateModifyDBInstanceMaintainTimeResponse())
	return created.DBInstanceId
}

func (e *sdkEnv) sdkAccounts(id string) {
	e.t.Helper()
	acc := rds.CreateCreateAccountRequest()
	acc.DBInstanceId, acc.AccountName, acc.AccountPassword, acc.AccountType = id, "app", "Sdk-pass-1234", "Normal"
	e.do(acc, rds.CreateCreateAccountResponse())
	db := rds.CreateCreateDatabaseRequest()
	db.DBInstanceId, db.DBName, db.CharacterSetName = id, "orders", "utf8mb4"
	e.do(db, rds.CreateCreateDatabaseResponse())
	e.clock.Add(restartD)
	accounts := rds.CreateDescribeAccountsRequest()
	accounts.DBInstanceId = id
	e.do(accounts, rds.CreateDescribeAccountsResponse())
	dbs := rds.CreateDescribeDatabasesRequest()
	dbs.DBInstanceId = id
	e.do(dbs, rds.CreateDescribeDatabasesResponse())
	desc := rds.CreateModifyAccountDescriptionRequest()
	desc.DBInstanceId, desc.AccountName, desc.AccountDescription = id, "app", "the application"
	e.do(desc, rds.CreateModifyAccountDescriptionResponse())
	reset := rds.CreateResetAccountPasswordRequest()
	reset.DBInstanceId, reset.AccountName, reset.AccountPassword = id, "app", "Sdk-pass-5678"
	e.do(reset, rds.CreateResetAccountPasswordResponse())
	dbDesc := rds.CreateModifyDBDescriptionRequest()
	dbDesc.DBInstanceId, dbDesc.DBName, dbDesc.DBDescription = id, "orders", "orders of the shop"
	e.do(dbDesc, rds.CreateModifyDBDescriptionResponse())
	grant := rds.CreateGrantAccountPrivilegeRequest()
	grant.DBInstanceId, grant.AccountName, grant.DBName, grant.AccountPrivilege = id, "app", "orders", "ReadWrite"
	e.do(grant, rds.CreateGrantAccountPrivilegeResponse())
	revoke := rds.CreateRevokeAccountPrivilegeRequest()
	revoke.DBInstanceId, revoke.AccountName, revoke.DBName = id, "app", "orders"
	e.do(revoke, rds.CreateRevokeAccountPrivilegeResponse())
	dropDB := rds.CreateDeleteDatabaseRequest()
	dropDB.DBInstanceId, dropDB.DBName = id, "orders"
	e.do(dropDB, rds.CreateDeleteDatabaseResponse())
	dropAcc := rds.CreateDeleteAccountRequest()
	dropAcc.DBInstanceId, dropAcc.AccountName = id, "app"
	e.do(dropAcc, rds.CreateDeleteAccountResponse())
}

func (e *sdkEnv) sdkParameters(id string) {
	e.t.Helper()
	regions := rds.CreateDescribeRegionsRequest()
	e.do(regions, rds.CreateDescribeRegionsResponse())
	templates := rds.CreateDescribeParameterTemplatesRequest()
	templates.Engine, templates.EngineVersion, templates.Category = "MySQL", "8.0", "HighAvailability"
	e.do(templates, rds.CreateDescribeParameterTemplatesResponse())
	params := rds.CreateDescribeParametersRequest()
	params.DBInstanceId = id
	e.do(params, rds.CreateDescribeParametersResponse())
	modify := rds.CreateModifyParameterRequest()
	modify.DBInstanceId, modify.Parameters = id, `{"innodb_lock_wait_timeout":"60"}`
	e.do(modify, rds.CreateModifyParameterResponse())
}

// sdkDiscovery reads what the region offers: zones of an engine and the details of its classes.
func (e *sdkEnv) sdkDiscovery() {
	e.t.Helper()
	zones := rds.CreateDescribeAvailableZonesRequest()
	zones.RegionId, zones.Engine, zones.EngineVersion, zones.CommodityCode = DefaultRegion, "MySQL", "8.0", "bards"
	offered := rds.CreateDescribeAvailableZonesResponse()
	e.do(zones, offered)
	if len(offered.AvailableZones) == 0 || len(offered.AvailableZones[0].SupportedEngines) != 1 ||
		offered.AvailableZones[0].SupportedEngines[0].SupportedEngineVersions[0].Version != "8.0" {
		e.t.Fatalf("DescribeAvailableZones: %+v", offered.AvailableZones)
	}
	classes := rds.CreateListClassesRequest()
	classes.RegionId, classes.CommodityCode, classes.OrderType = DefaultRegion, "bards", "BUY"
	classes.QueryParams["EngineType"] = "MySQL" // a parameter the classic SDK does not model
	listed := rds.CreateListClassesResponse()
	e.do(classes, listed)
	if len(listed.Items) == 0 || listed.RegionId != DefaultRegion || listed.Items[0].Cpu == "" || listed.Items[0].MaxIOMBPS == "" {
		e.t.Fatalf("ListClasses: %+v", listed)
	}
}

// sdkParameterGroups creates a group, changes it, lists the region's groups, applies it to the instance, reads and
// deletes it.
func (e *sdkEnv) sdkParameterGroups(id string) {
	e.t.Helper()
	create := rds.CreateCreateParameterGroupRequest()
	create.ParameterGroupName, create.Engine, create.EngineVersion = "fleet_default", "mysql", "8.0"
	create.Parameters = `{"wait_timeout":"3600","back_log":"4000"}`
	created := rds.CreateCreateParameterGroupResponse()
	e.do(create, created)
	modify := rds.CreateModifyParameterGroupRequest()
	modify.ParameterGroupId, modify.ModifyMode, modify.Parameters = created.ParameterGroupId, "Individual", `{"wait_timeout":"7200"}`
	e.do(modify, rds.CreateModifyParameterGroupResponse())
	list := rds.CreateDescribeParameterGroupsRequest()
	list.RegionId, list.EnableDetail = DefaultRegion, requests.NewBoolean(true)
	listed := rds.CreateDescribeParameterGroupsResponse()
	e.do(list, listed)
	if g := listed.ParameterGroups.ParameterGroup; len(g) != 1 || g[0].ParameterGroupId != created.ParameterGroupId ||
		g[0].ParameterGroupName != "fleet_default" || len(g[0].ParamDetail.ParameterDetail) != 1 || g[0].ParamCounts != 1 {
		e.t.Fatalf("DescribeParameterGroups: %+v", listed)
	}
	apply := rds.CreateModifyParameterRequest()
	apply.DBInstanceId, apply.ParameterGroupId = id, created.ParameterGroupId
	e.do(apply, rds.CreateModifyParameterResponse())
	describe := rds.CreateDescribeParameterGroupRequest()
	describe.ParameterGroupId = created.ParameterGroupId
	described := rds.CreateDescribeParameterGroupResponse()
	e.do(describe, described)
	if g := described.ParamGroup.ParameterGroup; len(g) != 1 || len(g[0].ParamDetail.ParameterDetail) != 1 || g[0].ForceRestart != 0 ||
		len(described.RelatedCustinsInfo.RelatedCustinsInfoItem) != 1 {
		e.t.Fatalf("DescribeParameterGroup: %+v", described)
	}
	del := rds.CreateDeleteParameterGroupRequest()
	del.ParameterGroupId = created.ParameterGroupId
	e.do(del, rds.CreateDeleteParameterGroupResponse())
}

// sdkMonitor sets the monitoring period and reads it back (Period a string both ways).
func (e *sdkEnv) sdkMonitor(id string) {
	e.t.Helper()
	modify := rds.CreateModifyDBInstanceMonitorRequest()
	modify.DBInstanceId, modify.Period = id, "60"
	e.do(modify, rds.CreateModifyDBInstanceMonitorResponse())
	describe := rds.CreateDescribeDBInstanceMonitorRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeDBInstanceMonitorResponse()
	e.do(describe, described)
	if described.Period != "60" {
		e.t.Fatalf("DescribeDBInstanceMonitor: %+v", described)
	}
}

// sdkEndpoints allocates a public endpoint, changes it and the internal one, lists them and releases the public one.
func (e *sdkEnv) sdkEndpoints(id string) {
	e.t.Helper()
	allocate := rds.CreateAllocateInstancePublicConnectionRequest()
	allocate.DBInstanceId, allocate.ConnectionStringPrefix, allocate.Port = id, "sdk-public", "3307"
	allocated := rds.CreateAllocateInstancePublicConnectionResponse()
	e.do(allocate, allocated)
	modify := rds.CreateModifyDBInstanceConnectionStringRequest()
	modify.DBInstanceId, modify.CurrentConnectionString = id, allocated.ConnectionString
	modify.ConnectionStringPrefix, modify.Port = "sdk-public-2", "3308"
	e.do(modify, rds.CreateModifyDBInstanceConnectionStringResponse())
	describe := rds.CreateDescribeDBInstanceNetInfoRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeDBInstanceNetInfoResponse()
	e.do(describe, described)
	infos := described.DBInstanceNetInfos.DBInstanceNetInfo
	if len(infos) != 2 || infos[1].IPType != "Public" || infos[1].Port != "3308" || infos[1].ConnectionString != "sdk-public-2.mysql.rds.aliyuncs.com" ||
		infos[0].ConnectionString != e.attribute(id).ConnectionString || described.InstanceNetworkType != "VPC" {
		e.t.Fatalf("DescribeDBInstanceNetInfo: %+v", described)
	}
	release := rds.CreateReleaseInstancePublicConnectionRequest()
	release.DBInstanceId, release.CurrentConnectionString = id, infos[1].ConnectionString
	e.do(release, rds.CreateReleaseInstancePublicConnectionResponse())
}

// sdkHASwitch turns automatic switchover off until a time and reads it back.
func (e *sdkEnv) sdkHASwitch(id string) {
	e.t.Helper()
	until := e.clock.Now().UTC().Add(48 * time.Hour).Format("2006-01-02T15:04:05Z")
	modify := rds.CreateModifyHASwitchConfigRequest()
	modify.DBInstanceId, modify.HAConfig, modify.ManualHATime = id, "Manual", until
	e.do(modify, rds.CreateModifyHASwitchConfigResponse())
	describe := rds.CreateDescribeHASwitchConfigRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeHASwitchConfigResponse()
	e.do(describe, described)
	if described.HAConfig != "Manual" || described.ManualHATime != until {
		e.t.Fatalf("DescribeHASwitchConfig: %+v", described)
	}
}

// sdkHASync sets the replication mode (the id goes as DbInstanceId) and reads it back.
func (e *sdkEnv) sdkHASync(id string) {
	e.t.Helper()
	modify := rds.CreateModifyDBInstanceHAConfigRequest()
	modify.DbInstanceId, modify.SyncMode, modify.HAMode = id, "Async", "RPO"
	e.do(modify, rds.CreateModifyDBInstanceHAConfigResponse())
	describe := rds.CreateDescribeDBInstanceHAConfigRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeDBInstanceHAConfigResponse()
	e.do(describe, described)
	if described.SyncMode != "Async" || described.HAMode != "RPO" {
		e.t.Fatalf("DescribeDBInstanceHAConfig after ModifyDBInstanceHAConfig: %+v", described)
	}
}

func (e *sdkEnv) sdkBackups(id string) string {
	e.t.Helper()
	policy := rds.CreateDescribeBackupPolicyRequest()
	policy.DBInstanceId = id
	e.do(policy, rds.CreateDescribeBackupPolicyResponse())
	data := rds.CreateModifyBackupPolicyRequest()
	data.DBInstanceId, data.BackupPolicyMode, data.PreferredBackupTime = id, "DataBackupPolicy", "02:00Z-03:00Z"
	data.PreferredBackupPeriod, data.BackupRetentionPeriod = "Monday,Wednesday,Friday", "14"
	e.do(data, rds.CreateModifyBackupPolicyResponse())
	logs := rds.CreateModifyBackupPolicyRequest()
	logs.DBInstanceId, logs.BackupPolicyMode, logs.EnableBackupLog, logs.LocalLogRetentionHours = id, "LogBackupPolicy", "1", "24"
	logs.LocalLogRetentionSpace, logs.HighSpaceUsageProtection, logs.LogBackupRetentionPeriod = "30", "Enable", "7"
	logs.LogBackupLocalRetentionNumber = requests.NewInteger(60)
	e.do(logs, rds.CreateModifyBackupPolicyResponse())
	backup := rds.CreateCreateBackupRequest()
	backup.DBInstanceId, backup.BackupMethod = id, "Physical"
	job := rds.CreateCreateBackupResponse()
	e.do(backup, job)
	tasks := rds.CreateDescribeBackupTasksRequest()
	tasks.DBInstanceId, tasks.BackupJobId = id, requests.Integer(job.BackupJobId)
	e.do(tasks, rds.CreateDescribeBackupTasksResponse())
	e.clock.Add(restartD)
	list := rds.CreateDescribeBackupsRequest()
	list.DBInstanceId = id
	listed := rds.CreateDescribeBackupsResponse()
	e.do(list, listed)
	if len(listed.Items.Backup) != 1 {
		e.t.Fatalf("DescribeBackups: %+v", listed.Items)
	}
	return listed.Items.Backup[0].BackupId
}

// sdkDeleteBackup deletes the set once the retention lets it go (data kept 14 days, logs 7): the
// cloud's clock moves 8 days on, while signatures are still checked against the real one.
func (e *sdkEnv) sdkDeleteBackup(id, backupID string) {
	e.t.Helper()
	e.sim.AdvanceClock(8 * 24 * time.Hour)
	del := rds.CreateDeleteBackupRequest()
	del.DBInstanceId, del.BackupId = id, backupID
	e.do(del, rds.CreateDeleteBackupResponse())
}

func (e *sdkEnv) sdkMaintenance(id string) {
	e.t.Helper()
	window := rds.CreateModifyDBInstanceMaintainTimeRequest()
	// The window starts at least an hour ahead whatever the minute now: with one hour ahead, a run at
	// HH:59 opened it seconds later and the scheduled upgrade met the zone move (a flake at 16:00).
	window.DBInstanceId, window.MaintainTime = id, e.clock.Now().Add(2*time.Hour).Format("15")+":00Z-"+e.clock.Now().Add(3*time.Hour).Format("15")+":00Z"
	e.do(window, rds.CreateModifyDBInstanceMaintainTimeResponse())
	minors := rds.CreateDescribeDBMiniEngineVersionsRequest()
	minors.Engine, minors.EngineVersion = "MySQL", "8.0"
	released := rds.CreateDescribeDBMiniEngineVersionsResponse()
	e.do(minors, released)
	if released.TotalCount != len(released.MinorVersionItems) || released.PageNumbers != 1 ||
		!slices.ContainsFunc(released.MinorVersionItems, func(m rds.MinorVersionItemsItem) bool { return m.MinorVersion == "rds_20250630" }) {
		e.t.Fatalf("DescribeDBMiniEngineVersions: %+v", released)
	}
	manual := rds.CreateModifyDBInstanceAutoUpgradeMinorVersionRequest()
	manual.DBInstanceId, manual.AutoUpgradeMinorVersion = id, "Manual"
	e.do(manual, rds.CreateModifyDBInstanceAutoUpgradeMinorVersionResponse())
	kernel := rds.CreateUpgradeDBInstanceKernelVersionRequest()
	kernel.DBInstanceId, kernel.UpgradeTime, kernel.TargetMinorVersion = id, "MaintainTime", "rds_20250630"
	e.do(kernel, rds.CreateUpgradeDBInstanceKernelVersionResponse())
	history := rds.CreateDescribeHistoryTasksRequest()
	history.InstanceId, history.Status = id, taskScheduled
	history.FromStartTime = e.clock.Now().Add(-24 * time.Hour).Format(timestampLayout)
	history.ToStartTime = e.clock.Now().Add(24 * time.Hour).Format(timestampLayout)
	tasks := rds.CreateDescribeHistoryTasksResponse()
	e.do(history, tasks)
	if len(tasks.Items) != 1 || tasks.Items[0].TaskType != taskTypeUpgradeKernel {
		e.t.Fatalf("DescribeHistoryTasks: %+v", tasks.Items)
	}
}

func (e *sdkEnv) sdkSecurity(id string) {
	e.t.Helper()
	ssl := rds.CreateDescribeDBInstanceSSLRequest()
	ssl.DBInstanceId = id
	e.do(ssl, rds.CreateDescribeDBInstanceSSLResponse())
	on := rds.CreateModifyDBInstanceSSLRequest()
	on.DBInstanceId, on.ConnectionString, on.SSLEnabled = id, e.attribute(id).ConnectionString, requests.NewInteger(1)
	e.do(on, rds.CreateModifyDBInstanceSSLResponse())
	e.settle(id)
	tde := rds.CreateModifyDBInstanceTDERequest()
	tde.DBInstanceId, tde.TDEStatus = id, "Enabled"
	e.do(tde, rds.CreateModifyDBInstanceTDEResponse())
	e.settle(id)
	read := rds.CreateDescribeDBInstanceTDERequest()
	read.DBInstanceId = id
	got := rds.CreateDescribeDBInstanceTDEResponse()
	e.do(read, got)
	e.requireFields("DescribeDBInstanceTDE", got, tdeModelFields)
	if got.TDEStatus != "Enabled" || got.TDEMode != "Aliyun_Generate_Key" {
		e.t.Fatalf("DescribeDBInstanceTDE: %+v", got)
	}
}

func (e *sdkEnv) sdkTagsAndNodes(id string) {
	e.t.Helper()
	tag := rds.CreateTagResourcesRequest()
	tag.ResourceType, tag.ResourceId = "INSTANCE", &[]string{id}
	tag.Tag = &[]rds.TagResourcesTag{{Key: "team", Value: "db"}}
	e.do(tag, rds.CreateTagResourcesResponse())
	list := rds.CreateListTagResourcesRequest()
	list.ResourceType, list.ResourceId = "INSTANCE", &[]string{id}
	e.do(list, rds.CreateListTagResourcesResponse())
	untag := rds.CreateUntagResourcesRequest()
	untag.ResourceType, untag.ResourceId, untag.TagKey = "INSTANCE", &[]string{id}, &[]string{"team"}
	e.do(untag, rds.CreateUntagResourcesResponse())
	group := rds.CreateModifyResourceGroupRequest()
	group.DBInstanceId, group.ResourceGroupId = id, "rg-acfmsdk1"
	e.do(group, rds.CreateModifyResourceGroupResponse())

	ha := rds.CreateDescribeDBInstanceHAConfigRequest()
	ha.DBInstanceId = id
	nodes := rds.CreateDescribeDBInstanceHAConfigResponse()
	e.do(ha, nodes)
	var slave string
	for _, n := range nodes.HostInstanceInfos.NodeInfo {
		if n.NodeType == "Slave" {
			slave = n.NodeId
		}
	}
	switchHA := rds.CreateSwitchDBInstanceHARequest()
	switchHA.DBInstanceId, switchHA.NodeId = id, slave
	e.do(switchHA, rds.CreateSwitchDBInstanceHAResponse())
	e.settle(id)

	scale := rds.CreateModifyDasInstanceConfigRequest()
	scale.DBInstanceId, scale.StorageAutoScale, scale.StorageThreshold, scale.StorageUpperBound = id, "Enable", requests.NewInteger(30), requests.NewInteger(500)
	e.do(scale, rds.CreateModifyDasInstanceConfigResponse())
	config := das.CreateDescribeAutoScalingConfigRequest()
	config.InstanceId = id
	got := das.CreateDescribeAutoScalingConfigResponse()
	e.do(config, got)
	if !got.Data.Storage.Upgrade || got.Data.Storage.MaxStorage != 500 {
		e.t.Fatalf("DescribeAutoScalingConfig: %+v", got.Data.Storage)
	}
}

func (e *sdkEnv) sdkZoneMove(id string) {
	e.t.Helper()
	move := rds.CreateMigrateToOtherZoneRequest()
	move.DBInstanceId, move.ZoneId, move.ZoneIdSlave1, move.VPCId, move.VSwitchId = id, "cn-hangzhou-j", "cn-hangzhou-k", "vpc-sdk", "vsw-sdk-j"
	move.EffectiveTime = "Immediate"
	moved := rds.CreateMigrateToOtherZoneResponse()
	e.do(move, moved)
	e.clock.Add(restartD)
	e.settle(id)
	if moved.OrderId == 0 || e.attribute(id).ZoneId != "cn-hangzhou-j" {
		e.t.Fatalf("MigrateToOtherZone: %+v", moved)
	}
}

func (e *sdkEnv) sdkUpgradeAndBilling(id string) {
	e.t.Helper()
	upgrade := rds.CreateUpgradeDBInstanceEngineVersionRequest()
	upgrade.DBInstanceId, upgrade.EngineVersion = id, "8.0"
	e.do(upgrade, rds.CreateUpgradeDBInstanceEngineVersionResponse())
	e.settle(id)
	prepaid := rds.CreateTransformDBInstancePayTypeRequest()
	prepaid.DBInstanceId, prepaid.PayType, prepaid.Period, prepaid.UsedTime = id, "Prepaid", "Month", requests.NewInteger(1)
	order := rds.CreateTransformDBInstancePayTypeResponse()
	e.do(prepaid, order)
	if order.OrderId == 0 || order.ChargeType != "PREPAY" {
		e.t.Fatalf("TransformDBInstancePayType: %+v", order)
	}
	manualRenew := rds.CreateRenewInstanceRequest()
	manualRenew.DBInstanceId, manualRenew.Period, manualRenew.AutoPay = id, requests.NewInteger(1), "true"
	renewed := rds.CreateRenewInstanceResponse()
	e.do(manualRenew, renewed)
	if renewed.OrderId == 0 {
		e.t.Fatalf("RenewInstance: %+v", renewed)
	}
	renew := rds.CreateModifyInstanceAutoRenewalAttributeRequest()
	renew.DBInstanceId, renew.AutoRenew, renew.Duration = id, "True", "3"
	e.do(renew, rds.CreateModifyInstanceAutoRenewalAttributeResponse())
	read := rds.CreateDescribeInstanceAutoRenewalAttributeRequest()
	read.DBInstanceId = id
	e.do(read, rds.CreateDescribeInstanceAutoRenewalAttributeResponse())
	back := rds.CreateTransformDBInstancePayTypeRequest()
	back.DBInstanceId, back.PayType = id, "Postpaid"
	e.do(back, rds.CreateTransformDBInstancePayTypeResponse())
}

// requireFields fails on every path of want the JSON answer lacks.
func (e *sdkEnv) requireFields(action string, resp responses.AcsResponse, want []string) {
	e.t.Helper()
	if e.format != "JSON" {
		return
	}
	var body any
	if err := json.NewDecoder(bytes.NewReader(resp.GetHttpContentBytes())).Decode(&body); err != nil {
		e.t.Fatalf("%s: %v", action, err)
	}
	for _, path := range missingFields(body, want) {
		e.t.Errorf("%s: the answer lacks %s, which the action's response model and the reference example carry", action, path)
	}
}
