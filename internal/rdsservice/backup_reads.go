package rdsservice

import (
	"context"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// On-demand backups: the checks of rds_backup (rows in ruletable.go), creating a backup and waiting
// for its set, listing sets, and deciding whether a destroy can delete one.

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
