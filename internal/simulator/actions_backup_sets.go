package simulator

import (
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"time"
)

// On-demand backups and backup sets (README "Backups"): CreateBackup starts a job that runs for
// RestartDuration on the simulator's clock, then is a backup set that DescribeBackups lists,
// CloneDBInstance restores and DeleteBackup may delete once Alibaba's retention rules allow.

// createBackup: CreateBackup on a Running primary with no backup in progress, at most 20 a day.
func (s *Simulator) createBackup(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, true)
	if e != nil {
		return nil, e
	}
	method, e := c.p.oneOf("BackupMethod", "Physical", "Physical", "Logical", "Snapshot")
	if e != nil {
		return nil, e
	}
	strategy, e := c.p.oneOf("BackupStrategy", "instance", "instance", "db")
	if e != nil {
		return nil, e
	}
	if e := backupShape(in, method, strategy, strings.TrimSpace(c.p.get("DBName"))); e != nil {
		return nil, e
	}
	today := 0
	for _, b := range in.Backups {
		if !b.done(c.now) {
			return nil, newErr(403, "BackupJobExists", "A backup task of %s is in progress (job %d); wait until it has finished.", in.ID, b.JobID)
		}
		if b.Mode == "Manual" && b.Start.Truncate(24*time.Hour).Equal(c.now.Truncate(24*time.Hour)) {
			today++
		}
	}
	if today >= maxBackupsPerDay {
		return nil, newErr(403, "BackupQuota.Exceeded", "%s already has %d backup sets created today (UTC); at most %d a day.", in.ID, today, maxBackupsPerDay)
	}
	s.state.NextBackup++
	b := &backupSet{
		ID: firstBackupID + s.state.NextBackup, JobID: s.state.NextBackup, Method: method, Strategy: strategy,
		DBNames: strings.TrimSpace(c.p.get("DBName")), Mode: "Manual", Start: c.now, End: c.now.Add(s.opts.RestartDuration),
	}
	in.Backups = append(in.Backups, b)
	c.dirty = true
	return map[string]any{"BackupJobId": itoa(b.JobID)}, nil
}

// backupShape checks the method against the storage and the database list against the strategy.
func backupShape(in *instance, method, strategy, dbNames string) *apiError {
	if method == "Snapshot" && !in.cloudDisk() {
		return errInvalid("BackupMethod", "Snapshot backups need cloud disks; %s uses %s", in.ID, in.StorageType)
	}
	if method != "Logical" && strategy == "db" {
		return errInvalid("BackupStrategy", "db (single-database) backups are logical backups on MySQL; set BackupMethod=Logical")
	}
	if strategy == "db" && dbNames == "" {
		return errMissing("DBName")
	}
	for _, name := range strings.Split(dbNames, ",") {
		if name = strings.TrimSpace(name); name != "" {
			if _, ok := in.Databases[name]; !ok {
				return errDatabaseNotFound(in, name)
			}
		}
	}
	if method == "Logical" && len(in.Databases) == 0 {
		return errInvalid("BackupMethod", "a logical backup needs databases; %s has none", in.ID)
	}
	return nil
}

// liveBackups are the sets still within the data retention (older ones have expired).
func (s *Simulator) liveBackups(in *instance, now time.Time) []*backupSet {
	keep := time.Duration(in.policy().Retention) * 24 * time.Hour
	var out []*backupSet
	for _, b := range in.Backups {
		if now.Sub(b.Start) <= keep {
			out = append(out, b)
		}
	}
	return out
}

// deletable is StoreStatus: whether DeleteBackup may delete the set now. Without log backups, sets
// older than 7 days; with log backups kept shorter than data backups, sets older than the log
// retention.
func deletable(p *backupPolicy, b *backupSet, now time.Time) bool {
	age := now.Sub(b.Start)
	if !p.LogEnabled {
		return age > 7*24*time.Hour
	}
	return p.LogRetention < p.Retention && age > time.Duration(p.LogRetention)*24*time.Hour
}

// describeBackups: DescribeBackups with BackupId, BackupStatus, BackupMode and a StartTime-EndTime
// window on the backup's start ("yyyy-MM-ddTHH:mmZ"), paged by PageSize 30-100.
func (s *Simulator) describeBackups(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, false)
	if e != nil {
		return nil, e
	}
	from, to, e := backupWindow(c.p)
	if e != nil {
		return nil, e
	}
	size, number, e := pageParams(c.p, 30, 100)
	if e != nil {
		return nil, e
	}
	id, status, mode := strings.TrimSpace(c.p.get("BackupId")), c.p.get("BackupStatus"), c.p.get("BackupMode")
	var items []map[string]any
	for _, b := range s.liveBackups(in, c.now) {
		if !b.done(c.now) || (id != "" && id != strconv.FormatInt(b.ID, 10)) || (status != "" && status != "Success") ||
			(mode != "" && mode != b.Mode) || b.Start.Before(from) || (!to.IsZero() && b.Start.After(to)) {
			continue
		}
		items = append(items, s.backupItem(in, b, c.now))
	}
	return map[string]any{
		"Items": map[string]any{"Backup": pageOf(items, size, number)}, "PageNumber": itoa(number),
		"PageRecordCount": itoa(int64(len(pageOf(items, size, number)))), "TotalRecordCount": itoa(int64(len(items))),
		"TotalBackupSize": int64(len(items)) * backupSetSizeBytes,
	}, nil
}

func backupWindow(p params) (from, to time.Time, e *apiError) {
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{"StartTime", &from}, {"EndTime", &to}} {
		if v := strings.TrimSpace(p.get(f.name)); v != "" {
			t, err := time.Parse(apiMinuteLayout, v)
			if err != nil {
				return from, to, errInvalid(f.name, "%q is not a UTC time yyyy-MM-ddTHH:mmZ", truncate(v))
			}
			*f.t = t
		}
	}
	if !to.IsZero() && to.Before(from) {
		return from, to, errInvalid("EndTime", "EndTime is before StartTime")
	}
	return from, to, nil
}

func (s *Simulator) backupItem(in *instance, b *backupSet, now time.Time) map[string]any {
	scale, store := "DBInstance", "Disabled"
	if b.Strategy == "db" {
		scale = "Database"
	}
	if deletable(in.policy(), b, now) {
		store = "Enabled"
	}
	id := strconv.FormatInt(b.ID, 10)
	return map[string]any{
		"BackupId": id, "DBInstanceId": in.ID, "BackupStatus": "Success",
		"BackupStartTime": b.Start.Format(apiMinuteLayout), "BackupEndTime": b.End.Format(apiMinuteLayout),
		"BackupType": "FullBackup", "BackupMode": b.Mode, "BackupMethod": b.Method, "BackupScale": scale,
		"BackupDBNames": b.DBNames, "BackupSize": backupSetSizeBytes, "BackupInitiator": initiator(b), "StoreStatus": store,
		"ConsistentTime": b.End.Unix(), "Engine": in.Engine, "EngineVersion": in.EngineVersion,
		"HostInstanceID": backupHost(in), "IsAvail": 1, "StorageClass": "0", "Checksum": strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(id))), 10),
		"BackupDownloadURL":         fmt.Sprintf("https://rdsbak-%s.oss-%s.aliyuncs.com/%s/%s.tar.gz", in.RegionID, in.RegionID, in.ID, id),
		"BackupIntranetDownloadURL": fmt.Sprintf("https://rdsbak-%s.oss-%s-internal.aliyuncs.com/%s/%s.tar.gz", in.RegionID, in.RegionID, in.ID, id),
	}
}

// backupHost is the node a backup is taken on: the secondary where there is one (the API
// reference's HostInstanceID is a node id, as DescribeDBInstanceHAConfig's NodeId).
func backupHost(in *instance) string {
	if nodes := nodesOf(in); nodes.Slave != "" {
		return nodes.Slave
	}
	return nodesOf(in).Master
}

// describeBackupTasks: DescribeBackupTasks, the jobs of the last 24 hours (BackupJobId filter).
func (s *Simulator) describeBackupTasks(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, false)
	if e != nil {
		return nil, e
	}
	only := strings.TrimSpace(c.p.get("BackupJobId"))
	jobs := []map[string]any{}
	for _, b := range in.Backups {
		if c.now.Sub(b.Start) > 24*time.Hour || (only != "" && only != itoa(b.JobID)) {
			continue
		}
		job := map[string]any{"BackupJobId": itoa(b.JobID), "JobMode": b.Mode, "TaskAction": "NormalBackupTask",
			"BackupStatus": "Uploading", "BackupProgressStatus": "Uploading", "Process": "50"}
		if b.done(c.now) {
			job["BackupStatus"], job["BackupProgressStatus"], job["Process"], job["BackupId"] = "Finished", "Finished", "100", strconv.FormatInt(b.ID, 10)
		}
		jobs = append(jobs, job)
	}
	return map[string]any{"Items": map[string]any{"BackupJob": jobs}}, nil
}

// deleteBackup: DeleteBackup of one set (the simulator does not take a list), on a Running
// High-availability instance, when its StoreStatus is Enabled.
func (s *Simulator) deleteBackup(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, true)
	if e != nil {
		return nil, e
	}
	id, e := c.p.required("BackupId")
	if e != nil {
		return nil, e
	}
	if in.Category != "HighAvailability" {
		return nil, newErr(403, "IncorrectDBInstanceType", "DeleteBackup supports High-availability Edition instances only; %s is %s.", in.ID, in.Category)
	}
	live := s.liveBackups(in, c.now)
	for _, b := range live {
		if strconv.FormatInt(b.ID, 10) != id || !b.done(c.now) {
			continue
		}
		if !deletable(in.policy(), b, c.now) {
			return nil, newErr(403, "OperationDenied.BackupRetention", "Backup set %s of %s cannot be deleted yet: without log backups a set can be deleted after 7 days, with log backups only once it is older than the log backup retention, which must be shorter than the data backup retention.", id, in.ID)
		}
		in.Backups = slicesDelete(in.Backups, b)
		s.recordDeleted(in.ID, DeletedBackupSet, id)
		c.dirty = true
		return map[string]any{}, nil
	}
	return nil, newErr(404, "InvalidBackupId.NotFound", "The backup set %q does not exist on %s.", truncate(id), in.ID)
}

func slicesDelete(list []*backupSet, gone *backupSet) []*backupSet {
	out := list[:0]
	for _, b := range list {
		if b != gone {
			out = append(out, b)
		}
	}
	return out
}

// checkCloneBackup refuses a BackupId the simulator made for another instance, or one that is not
// finished. Ids it did not make are accepted (assumption BK6).
func (s *Simulator) checkCloneBackup(src *instance, backupID string, now time.Time) *apiError {
	s.runAutomaticBackups(src, now)
	for _, in := range s.state.Instances {
		for _, b := range in.Backups {
			if strconv.FormatInt(b.ID, 10) != backupID {
				continue
			}
			if in != src {
				return errInvalid("BackupId", "backup set %s belongs to %s, not to the source %s", backupID, in.ID, src.ID)
			}
			if !b.done(now) {
				return errInvalid("BackupId", "backup set %s of %s is still being made", backupID, src.ID)
			}
		}
	}
	return nil
}
