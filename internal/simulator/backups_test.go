package simulator

import (
	"net/http"
	"testing"
	"time"
)

func dataPolicyParams(id string, extra ...string) map[string]string {
	p := map[string]string{"DBInstanceId": id, "BackupPolicyMode": "DataBackupPolicy", "PreferredBackupTime": "03:00Z-04:00Z",
		"PreferredBackupPeriod": "Monday,Friday", "BackupRetentionPeriod": "30"}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	return p
}

func logPolicyParams(id string, extra ...string) map[string]string {
	p := map[string]string{"DBInstanceId": id, "BackupPolicyMode": "LogBackupPolicy", "EnableBackupLog": "1",
		"LocalLogRetentionHours": "24", "LocalLogRetentionSpace": "30", "HighSpaceUsageProtection": "Enable"}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	return p
}

func (e *env) policy(id string) map[string]any {
	e.t.Helper()
	return e.c.ok("DescribeBackupPolicy", map[string]string{"DBInstanceId": id})
}

// Each mode changes only its own fields; the defaults show before any change; a new cloud-disk
// instance keeps its latest set when released.
func TestBackupPolicyModes(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	p := e.policy(id)
	if p["PreferredBackupTime"] != "02:00Z-03:00Z" || jsonNum(p["BackupRetentionPeriod"]) != "7" || p["EnableBackupLog"] != "1" || p["ReleasedKeepPolicy"] != "Lastest" {
		t.Fatalf("defaults: %v", p)
	}
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "Category", "Flash", "ArchiveBackupRetentionPeriod", "365", "ArchiveBackupKeepPolicy", "ByWeek", "ArchiveBackupKeepCount", "2"))
	p = e.policy(id)
	if p["PreferredBackupPeriod"] != "Monday,Friday" || jsonNum(p["BackupRetentionPeriod"]) != "30" || p["Category"] != "Flash" ||
		p["ArchiveBackupRetentionPeriod"] != "365" || p["ArchiveBackupKeepCount"] != "2" || jsonNum(p["LocalLogRetentionHours"]) != "18" {
		t.Fatalf("after the data call: %v", p)
	}
	e.c.ok("ModifyBackupPolicy", logPolicyParams(id, "EnableBackupLog", "False", "LocalLogRetentionHours", "0", "LogBackupRetentionPeriod", "30"))
	p = e.policy(id)
	if p["EnableBackupLog"] != "0" || p["BackupLog"] != "Disabled" || jsonNum(p["LocalLogRetentionHours"]) != "0" || jsonNum(p["LogBackupRetentionPeriod"]) != "30" || p["Category"] != "Flash" {
		t.Fatalf("after the log call: %v", p)
	}
	if p["PreferredNextBackupTime"] != "2026-03-02T03:00Z" { // 2026-03-01 is a Sunday; next Monday 03:00Z
		t.Fatalf("next backup %v", p["PreferredNextBackupTime"])
	}
}

// Ranges, the two-day period, the one-hour window, log retention not above data retention (in
// both orders), edition and version rules: each refused with InvalidParameter or MissingParameter,
// and nothing changes.
func TestBackupPolicyRules(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7"})
	for _, tc := range []struct {
		p    map[string]string
		code string
	}{
		{dataPolicyParams(id, "PreferredBackupPeriod", "Monday"), "InvalidParameter"},
		{dataPolicyParams(id, "PreferredBackupPeriod", "Monday,monday"), "InvalidParameter"},
		{dataPolicyParams(id, "PreferredBackupPeriod", "Monday,Funday"), "InvalidParameter"},
		{dataPolicyParams(id, "PreferredBackupTime", "03:00Z-05:00Z"), "InvalidParameter"},
		{dataPolicyParams(id, "PreferredBackupTime", "3:00-4:00"), "InvalidParameter"},
		{dataPolicyParams(id, "BackupRetentionPeriod", "6"), "InvalidParameter"},
		{dataPolicyParams(id, "BackupRetentionPeriod", "731"), "InvalidParameter"},
		{dataPolicyParams(id, "BackupRetentionPeriod", ""), "MissingParameter"},
		{dataPolicyParams(id, "BackupInterval", "45"), "InvalidParameter"},
		{dataPolicyParams(id, "Category", "Flash", "BackupInterval", "30"), "InvalidParameter"},
		{dataPolicyParams(id, "CompressType", "4"), "InvalidParameter"}, // 8.0 has 8, not 4
		{dataPolicyParams(id, "ArchiveBackupRetentionPeriod", "20"), "InvalidParameter"},
		{dataPolicyParams(id, "ArchiveBackupKeepPolicy", "ByWeek", "ArchiveBackupKeepCount", "8"), "InvalidParameter"},
		{dataPolicyParams(id, "ReleasedKeepPolicy", "None"), "InvalidParameter"},
		{dataPolicyParams(id, "BackupRetentionPeriod", "8", "LogBackupRetentionPeriod", "9"), "InvalidParameter"},
		{dataPolicyParams(local, "Category", "Flash"), "InvalidParameter"},
		{dataPolicyParams(local, "BackupInterval", "30"), "InvalidParameter"},
		{logPolicyParams(id, "LocalLogRetentionHours", "169"), "InvalidParameter"},
		{logPolicyParams(id, "LocalLogRetentionSpace", "51"), "InvalidParameter"},
		{logPolicyParams(id, "HighSpaceUsageProtection", ""), "MissingParameter"},
		{logPolicyParams(id, "EnableBackupLog", "maybe"), "InvalidParameter"},
		{logPolicyParams(id, "LogBackupRetentionPeriod", "8"), "InvalidParameter"}, // data keeps 7 days
		{logPolicyParams(id, "LogBackupLocalRetentionNumber", "5"), "InvalidParameter"},
	} {
		e.c.fails("ModifyBackupPolicy", tc.p, http.StatusBadRequest, tc.code)
	}
	if p := e.policy(id); p["PreferredBackupTime"] != "02:00Z-03:00Z" || jsonNum(p["LogBackupRetentionPeriod"]) != "7" {
		t.Fatalf("a refused call changed the policy: %v", p)
	}
	// The compress type of 5.7 and a local disk's own released-keep choice are accepted there.
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(local, "CompressType", "4", "ReleasedKeepPolicy", "All"))
	// Lowering the data retention below the log retention is refused; lowering the log first works.
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "30", "LogBackupRetentionPeriod", "30"))
	e.c.fails("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "7"), http.StatusBadRequest, "InvalidParameter")
	e.c.ok("ModifyBackupPolicy", logPolicyParams(id, "LogBackupRetentionPeriod", "7"))
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "7"))
	// A restarting instance refuses policy writes.
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": id})
	e.c.fails("ModifyBackupPolicy", dataPolicyParams(id), http.StatusForbidden, "IncorrectDBInstanceState")
}

func backupItems(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, item := range body["Items"].(map[string]any)["Backup"].([]any) {
		out = append(out, item.(map[string]any))
	}
	return out
}

// A backup runs for the simulator's restart duration; one at a time; it is then listed (with time
// filters), restorable by CloneDBInstance, and deletable only once Alibaba's retention rule allows.
func TestCreateBackupLifecycle(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	job := e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})["BackupJobId"].(string)
	e.c.fails("CreateBackup", map[string]string{"DBInstanceId": id}, http.StatusForbidden, "BackupJobExists")
	if n := len(backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id}))); n != 0 {
		t.Fatalf("%d sets listed while the job runs", n)
	}
	tasks := e.c.ok("DescribeBackupTasks", map[string]string{"DBInstanceId": id, "BackupJobId": job})["Items"].(map[string]any)["BackupJob"].([]any)
	if len(tasks) != 1 || tasks[0].(map[string]any)["BackupStatus"] != "Uploading" {
		t.Fatalf("tasks %v", tasks)
	}
	e.clock.Add(restartD)
	tasks = e.c.ok("DescribeBackupTasks", map[string]string{"DBInstanceId": id, "BackupJobId": job})["Items"].(map[string]any)["BackupJob"].([]any)
	backupID, _ := tasks[0].(map[string]any)["BackupId"].(string)
	items := backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "StartTime": "2026-03-01T09:00Z", "EndTime": "2026-03-01T11:00Z"}))
	if backupID == "" || len(items) != 1 || items[0]["BackupId"] != backupID || items[0]["BackupMode"] != "Manual" || items[0]["StoreStatus"] != "Disabled" {
		t.Fatalf("set %q, items %v", backupID, items)
	}
	if n := len(backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "StartTime": "2026-03-01T10:01Z"}))); n != 0 {
		t.Fatalf("the time filter kept %d sets", n)
	}
	e.c.fails("DescribeBackups", map[string]string{"DBInstanceId": id, "StartTime": "yesterday"}, http.StatusBadRequest, "InvalidParameter")
	clone := e.c.ok("CloneDBInstance", map[string]string{"DBInstanceId": id, "BackupId": backupID, "PayType": "Postpaid"})
	if clone["DBInstanceId"] == "" {
		t.Fatalf("clone %v", clone)
	}
	other := e.create(nil)
	e.c.fails("CloneDBInstance", map[string]string{"DBInstanceId": other, "BackupId": backupID, "PayType": "Postpaid"}, http.StatusBadRequest, "InvalidParameter")
	// Log backups on and kept as long as data backups: the set cannot be deleted.
	e.c.fails("DeleteBackup", map[string]string{"DBInstanceId": id, "BackupId": backupID}, http.StatusForbidden, "OperationDenied.BackupRetention")
	e.c.ok("ModifyBackupPolicy", logPolicyParams(id, "EnableBackupLog", "0"))
	e.clock.Add(8 * 24 * time.Hour)
	if got := backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "BackupMode": "Manual"})); len(got) != 0 {
		t.Fatalf("a set older than the 7-day retention is still listed: %v", got)
	}
	e.c.fails("DeleteBackup", map[string]string{"DBInstanceId": id, "BackupId": backupID}, http.StatusNotFound, "InvalidBackupId.NotFound")
}

// A set older than 7 days with log backups off is deletable (StoreStatus Enabled) while the data
// retention still keeps it; Basic Edition refuses DeleteBackup.
func TestDeleteBackupRules(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id))
	e.c.ok("ModifyBackupPolicy", logPolicyParams(id, "EnableBackupLog", "0"))
	e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})
	e.clock.Add(8 * 24 * time.Hour)
	items := backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "BackupMode": "Manual"}))
	if len(items) != 1 || items[0]["StoreStatus"] != "Enabled" {
		t.Fatalf("items %v", items)
	}
	e.c.ok("DeleteBackup", map[string]string{"DBInstanceId": id, "BackupId": items[0]["BackupId"].(string)})
	if n := len(backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "BackupMode": "Manual"}))); n != 0 {
		t.Fatalf("%d sets after the delete", n)
	}
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1"})
	e.c.fails("DeleteBackup", map[string]string{"DBInstanceId": basic, "BackupId": "1"}, http.StatusForbidden, "IncorrectDBInstanceType")
}

// At most 20 backup sets a day (UTC); the next day the count starts again. Method and strategy
// rules are checked before anything starts.
func TestCreateBackupLimits(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	for i := 0; i < 20; i++ {
		e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})
		e.clock.Add(restartD)
	}
	e.c.fails("CreateBackup", map[string]string{"DBInstanceId": id}, http.StatusForbidden, "BackupQuota.Exceeded")
	e.clock.Add(14 * time.Hour) // past midnight UTC
	e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})
	e.clock.Add(restartD)
	for _, p := range []map[string]string{
		{"DBInstanceId": id, "BackupMethod": "Logical"}, // no databases
		{"DBInstanceId": id, "BackupMethod": "Physical", "BackupStrategy": "db", "DBName": "orders"},
		{"DBInstanceId": id, "BackupMethod": "Tape"},
	} {
		e.c.fails("CreateBackup", p, http.StatusBadRequest, "InvalidParameter")
	}
	e.c.fails("CreateBackup", map[string]string{"DBInstanceId": id, "BackupMethod": "Logical", "BackupStrategy": "db"}, http.StatusBadRequest, "MissingParameter")
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7"})
	e.c.fails("CreateBackup", map[string]string{"DBInstanceId": local, "BackupMethod": "Snapshot"}, http.StatusBadRequest, "InvalidParameter")
	if got := e.sim.Stats().Requests["CreateBackup"]; got != 27 {
		t.Fatalf("CreateBackup requests = %d", got)
	}
}

// DeleteDBInstance's ReleasedKeepPolicy: a cloud-disk instance created after 2024-02-01 keeps its
// latest set whatever is asked, so another value is refused; a local-disk instance may choose.
func TestDeleteKeepingBackups(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": id, "ReleasedKeepPolicy": "None"}, http.StatusBadRequest, "InvalidParameter")
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id, "ReleasedKeepPolicy": "Lastest"})
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7"})
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": local, "ReleasedKeepPolicy": "All"})
}

// Issue 41, item 5: the set a release keeps is listed by DescribeDetachedBackups (the released id
// is unknown to DescribeBackups); with None nothing is kept.
func TestReleasedInstanceBackupsAreListed(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	local := e.create(map[string]string{"DBInstanceStorageType": "local_ssd", "EngineVersion": "5.7"})
	for _, in := range []string{id, local} {
		for range 2 {
			e.c.ok("CreateBackup", map[string]string{"DBInstanceId": in})
			e.clock.Add(restartD)
		}
	}
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": local, "ReleasedKeepPolicy": "None"})
	e.clock.Add(deleteD)
	e.c.fails("DescribeBackups", map[string]string{"DBInstanceId": id}, http.StatusNotFound, "InvalidDBInstanceId.NotFound")
	kept := backupItems(e.c.ok("DescribeDetachedBackups", map[string]string{"Region": "cn-hangzhou", "DBInstanceId": id}))
	if len(kept) != 1 || kept[0]["DBInstanceId"] != id {
		t.Fatalf("kept sets of %s (Lastest, a cloud-disk instance): %v", id, kept)
	}
	if none := backupItems(e.c.ok("DescribeDetachedBackups", map[string]string{"Region": "cn-hangzhou", "DBInstanceId": local})); len(none) != 0 {
		t.Fatalf("a release with None kept %v", none)
	}
	e.c.fails("DescribeDetachedBackups", map[string]string{"DBInstanceId": id}, http.StatusBadRequest, "MissingParameter")
}
