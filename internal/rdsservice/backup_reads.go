package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// On-demand backups: the checks of rds_backup (rows in ruletable.go), creating a backup and waiting
// for its set, listing sets, and deciding whether a destroy can delete one.

// BackupRequest is what rds_backup asks CreateBackup for.
type BackupRequest struct {
	Method   string
	Strategy string
	DBNames  []string
	// Unknown names the attributes the plan does not know yet.
	Unknown map[string]bool
}

// BackupInstanceState is what the plan knows of the instance beyond its facts: its status, its
// databases, a backup job in progress and the sets made today (UTC).
type BackupInstanceState struct {
	Known      bool
	Status     string
	Databases  []string
	JobRunning string
	SetsToday  int
}

// CheckBackup evaluates the rds_backup rows its known values decide: the request's shape always,
// the instance's facts and state when known.
func CheckBackup(req BackupRequest, f BackupFacts, st BackupInstanceState) []Problem {
	var out []Problem
	add := func(id RuleID, value string, args ...any) {
		out = append(out, problem(id, value, append([]any{value}, args...)...))
	}
	methodKnown, strategyKnown := !req.Unknown[AttrBackupMethod], !req.Unknown[AttrBackupStrategy]
	if methodKnown && !slices.Contains([]string{rdsapi.BackupMethodPhysical, rdsapi.BackupMethodLogical, rdsapi.BackupMethodSnapshot}, req.Method) {
		add(RuleBackupMethodValue, req.Method)
	}
	if strategyKnown && req.Strategy != rdsapi.BackupStrategyInstance && req.Strategy != rdsapi.BackupStrategyDB {
		add(RuleBackupStrategyValue, req.Strategy)
	}
	if strategyKnown && !req.Unknown[AttrBackupDBNames] && (req.Strategy == rdsapi.BackupStrategyDB) != (len(req.DBNames) > 0) {
		add(RuleBackupStrategyDBNames, req.Strategy)
	}
	if methodKnown && strategyKnown && req.Strategy == rdsapi.BackupStrategyDB && req.Method != rdsapi.BackupMethodLogical {
		add(RuleBackupDBNamesLogical, req.Method)
	}
	if !f.Known {
		return out
	}
	if f.ReadOnly {
		return append(out, problem(RuleBackupOnReadOnly, f.InstanceID, f.InstanceID))
	}
	if methodKnown && req.Method == rdsapi.BackupMethodSnapshot && !f.CloudDisk() {
		add(RuleBackupSnapshotNoCloud, req.Method, f.InstanceID, f.StorageType)
	}
	return append(out, checkBackupState(req, f, st)...)
}

// checkBackupState checks the instance as it is now: databases, a job in progress, today's sets.
func checkBackupState(req BackupRequest, f BackupFacts, st BackupInstanceState) []Problem {
	if !st.Known {
		return nil
	}
	var out []Problem
	if !req.Unknown[AttrBackupMethod] && req.Method == rdsapi.BackupMethodLogical && len(st.Databases) == 0 {
		out = append(out, problem(RuleBackupLogicalNoDB, req.Method, req.Method, f.InstanceID))
	}
	if !req.Unknown[AttrBackupDBNames] {
		for _, name := range req.DBNames {
			if !slices.Contains(st.Databases, name) {
				out = append(out, problem(RuleBackupDBNotFound, name, name, f.InstanceID))
			}
		}
	}
	if st.SetsToday >= MaxBackupsPerDay {
		out = append(out, problem(RuleBackupDailyLimit, f.InstanceID, f.InstanceID, st.SetsToday, MaxBackupsPerDay))
	}
	if st.JobRunning != "" {
		out = append(out, problem(RuleBackupInProgress, f.InstanceID, f.InstanceID, st.JobRunning))
	}
	if st.Status != "" && st.Status != StatusRunning {
		out = append(out, problem(RuleBackupInstanceNotReady, f.InstanceID, f.InstanceID, st.Status))
	}
	return out
}

// PlanBackupNow checks an rds_backup_now invocation on an instance that should exist: the
// request's shape, then the instance's facts and state (a missing or read-only instance, a
// snapshot without cloud disks, the daily limit). It makes reads only.
func PlanBackupNow(ctx context.Context, api rdsapi.API, instanceID string, req BackupRequest, now time.Time) ([]Problem, error) {
	attr, err := api.DescribeDBInstanceAttribute(ctx, instanceID)
	if rdsapi.IsNotFound(err) {
		return append(CheckBackup(req, BackupFacts{}, BackupInstanceState{}), problem(RuleBackupInstanceMissing, instanceID, instanceID)), nil
	}
	if err != nil {
		return nil, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", instanceID, err)
	}
	facts := BackupFactsFromAttribute(attr)
	if facts.ReadOnly {
		return CheckBackup(req, facts, BackupInstanceState{}), nil
	}
	st, err := ReadBackupInstanceState(ctx, api, attr, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", instanceID, err)
	}
	return CheckBackup(req, facts, st), nil
}

// ReadBackupInstanceState reads the instance's databases, its running backup job and today's sets.
func ReadBackupInstanceState(ctx context.Context, api rdsapi.API, attr *rdsapi.DBInstanceAttribute, now time.Time) (BackupInstanceState, error) {
	st := BackupInstanceState{Known: true, Status: attr.DBInstanceStatus}
	dbs, err := ListAllDatabases(ctx, api, attr.DBInstanceID)
	if err != nil {
		return st, err
	}
	for _, db := range dbs {
		st.Databases = append(st.Databases, db.DBName)
	}
	if st.JobRunning, err = runningBackupJob(ctx, api, attr.DBInstanceID); err != nil {
		return st, err
	}
	today, err := ListBackups(ctx, api, &rdsapi.DescribeBackupsRequest{DBInstanceID: attr.DBInstanceID, BackupMode: rdsapi.BackupModeManual,
		StartTime: now.UTC().Truncate(24 * time.Hour).Format(BackupTimeLayout)})
	st.SetsToday = len(today)
	if st.JobRunning != "" {
		st.SetsToday++ // the job in progress makes one more set today
	}
	return st, err
}

// BackupTimeLayout is the time format of DescribeBackups' filters and answers.
const BackupTimeLayout = "2006-01-02T15:04Z"

// runningBackupJob is the id of a backup job that has not finished ("" when none).
func runningBackupJob(ctx context.Context, api rdsapi.API, instanceID string) (string, error) {
	tasks, err := api.DescribeBackupTasks(ctx, &rdsapi.DescribeBackupTasksRequest{DBInstanceID: instanceID})
	if err != nil {
		return "", err
	}
	for _, j := range tasks.Items.BackupJob {
		if j.BackupStatus != rdsapi.BackupJobFinished && j.BackupStatus != rdsapi.BackupJobFailed {
			return string(j.BackupJobID), nil
		}
	}
	return "", nil
}

// ListBackups lists every page of the sets that match.
func ListBackups(ctx context.Context, api rdsapi.API, req *rdsapi.DescribeBackupsRequest) ([]rdsapi.Backup, error) {
	return listBackupPages(ctx, api.DescribeBackups, req)
}

// ListBackupsOrKept lists an instance's backup sets, or, once the instance is released (not
// found), the sets its release kept (DescribeDetachedBackups; released is then true). An id that
// is neither an instance nor a released one with kept sets answers the not-found error.
func ListBackupsOrKept(ctx context.Context, api rdsapi.API, req *rdsapi.DescribeBackupsRequest) (sets []rdsapi.Backup, released bool, err error) {
	sets, err = ListBackups(ctx, api, req)
	if !rdsapi.IsNotFound(err) {
		return sets, false, err
	}
	kept, keptErr := listBackupPages(ctx, api.DescribeDetachedBackups, req)
	switch {
	case keptErr != nil:
		return nil, false, fmt.Errorf("%w; listing the backup sets it kept if it was released: %v", err, keptErr)
	case len(kept) == 0 && req.StartTime == "" && req.EndTime == "" && req.BackupMode == "" && req.BackupStatus == "":
		return nil, false, fmt.Errorf("%w: no instance has this id, and no released instance kept a backup set under it (DescribeDetachedBackups)", err)
	}
	return kept, true, nil
}

// listBackupPages reads every page of a backup listing.
func listBackupPages(ctx context.Context, list func(context.Context, *rdsapi.DescribeBackupsRequest) (*rdsapi.DescribeBackupsResponse, error),
	req *rdsapi.DescribeBackupsRequest) ([]rdsapi.Backup, error) {
	const pageSize = 100
	var out []rdsapi.Backup
	for page := int64(1); ; page++ {
		r := *req
		r.PageNumber, r.PageSize = page, pageSize
		resp, err := list(ctx, &r)
		if err != nil {
			return nil, err
		}
		out = append(out, resp.Items.Backup...)
		if len(resp.Items.Backup) < pageSize || int64(len(out)) >= int64(resp.TotalRecordCount) {
			return out, nil
		}
	}
}

// FindBackup returns the set with the given id, or nil when the instance does not list it (deleted
// or expired).
func FindBackup(ctx context.Context, api rdsapi.API, instanceID, backupID string) (*rdsapi.Backup, error) {
	sets, err := ListBackups(ctx, api, &rdsapi.DescribeBackupsRequest{DBInstanceID: instanceID, BackupID: backupID})
	if err != nil {
		return nil, err
	}
	for i := range sets {
		if string(sets[i].BackupID) == backupID {
			return &sets[i], nil
		}
	}
	return nil, nil
}

// CreateBackup starts a backup (StartBackup) and waits for its set.
func CreateBackup(ctx context.Context, api rdsapi.API, w *Waiter, req *rdsapi.CreateBackupRequest) (*rdsapi.Backup, error) {
	job, err := StartBackup(ctx, api, w, req)
	if err != nil {
		return nil, fmt.Errorf("CreateBackup on %s: %w", req.DBInstanceID, err)
	}
	return WaitBackupSet(ctx, api, w, req.DBInstanceID, job)
}

// waitBackupJob polls DescribeBackupTasks until the job has made its set, and returns its id.
func waitBackupJob(ctx context.Context, api rdsapi.API, w *Waiter, instanceID, job string) (string, error) {
	var backupID string
	err := w.Poll(ctx, fmt.Sprintf("backup job %s of %s to finish", job, instanceID), func() (bool, string, error) {
		tasks, err := api.DescribeBackupTasks(ctx, &rdsapi.DescribeBackupTasksRequest{DBInstanceID: instanceID, BackupJobID: job})
		if err != nil {
			return false, "", err
		}
		for _, j := range tasks.Items.BackupJob {
			if string(j.BackupJobID) != job {
				continue
			}
			if j.BackupStatus == rdsapi.BackupJobFailed {
				return false, "", fmt.Errorf("backup job %s of %s failed (%s)", job, instanceID, j.BackupProgressStatus)
			}
			backupID = string(j.BackupID)
			return j.BackupStatus == rdsapi.BackupJobFinished && backupID != "", "status " + j.BackupStatus, nil
		}
		return false, "not listed yet", nil
	})
	return backupID, err
}

// BackupKeptReason says why DeleteBackup cannot delete the set now ("" when it can): the API
// deletes sets whose StoreStatus is Enabled, on High-availability instances.
func BackupKeptReason(set *rdsapi.Backup, category string) string {
	switch {
	case category != "" && !strings.EqualFold(category, "HighAvailability"):
		return fmt.Sprintf("DeleteBackup supports High-availability Edition instances only, and this one is %s.", category)
	case set.StoreStatus != "Enabled":
		return "its StoreStatus is " + firstOf(set.StoreStatus, "not Enabled") + ": RDS deletes a data backup set only when it is older than 7 days " +
			"with log backups off, or older than a log backup retention that is shorter than the data backup retention."
	}
	return ""
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
