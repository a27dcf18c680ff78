package rdsservice

import (
	"context"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Backups in the create journal (issue 23, following issue 29). CreateBackup has no ClientToken,
// so an interrupted backup create is found by its job: the job id the cloud answered with (kept in
// the journal entry's ID), or, when the answer was lost, the manual backup jobs of the instance
// started since the entry was written. The provider adopts the one job it finds (waiting for its
// set instead of starting another backup) and refuses, naming them, when it finds several.

// StartBackup sends CreateBackup and returns the job id. A backup already in progress (another
// client's, or the automatic one) is waited out and the request sent again; a busy instance is
// retried as every write is.
func StartBackup(ctx context.Context, api rdsapi.API, w *Waiter, req *rdsapi.CreateBackupRequest) (string, error) {
	var job string
	err := w.RetryBusy(ctx, func() error {
		var err error
		job, err = api.CreateBackup(ctx, req)
		if rdsapi.ErrorCode(err) != rdsapi.CodeBackupInProgress {
			return err
		}
		if err := w.Poll(ctx, "the backup in progress on "+req.DBInstanceID+" to finish", func() (bool, string, error) {
			running, err := runningBackupJob(ctx, api, req.DBInstanceID)
			return running == "", "job " + running, err
		}); err != nil {
			return err
		}
		job, err = api.CreateBackup(ctx, req)
		return err
	})
	return job, err
}

// WaitBackupSet waits until the job has made its set and the set is listed.
func WaitBackupSet(ctx context.Context, api rdsapi.API, w *Waiter, instanceID, job string) (*rdsapi.Backup, error) {
	backupID, err := waitBackupJob(ctx, api, w, instanceID, job)
	if err != nil {
		return nil, err
	}
	var set *rdsapi.Backup
	err = w.Poll(ctx, "backup set "+backupID+" to be listed", func() (bool, string, error) {
		set, err = FindBackup(ctx, api, instanceID, backupID)
		return set != nil, "not listed yet", err
	})
	return set, err
}

// InterruptedBackupJobs lists the backup jobs on instanceID an interrupted CreateBackup (entry e)
// may have started, failed ones and those whose set is gone left out: the job it was answered with,
// else the manual jobs of the last day whose set is not made yet or started in the minute of the
// entry or later.
func InterruptedBackupJobs(ctx context.Context, api rdsapi.API, instanceID string, e JournalEntry) ([]string, error) {
	tasks, err := api.DescribeBackupTasks(ctx, &rdsapi.DescribeBackupTasksRequest{DBInstanceID: instanceID})
	if err != nil {
		return nil, err
	}
	since := e.Started.UTC().Truncate(time.Minute)
	var out []string
	for _, j := range tasks.Items.BackupJob {
		job := string(j.BackupJobID)
		switch {
		case j.BackupStatus == rdsapi.BackupJobFailed, e.ID != "" && job != e.ID, e.ID == "" && j.JobMode != rdsapi.BackupModeManual:
			continue
		case j.BackupID == "":
			out = append(out, job)
			continue
		}
		// A finished job counts while its set is listed (not deleted since), and for a lost answer
		// when the set started in the minute of the entry or later.
		set, err := FindBackup(ctx, api, instanceID, string(j.BackupID))
		if err != nil {
			return nil, err
		}
		if set == nil {
			continue
		}
		if start, perr := time.Parse(BackupTimeLayout, set.BackupStartTime); e.ID != "" || perr == nil && !start.Before(since) {
			out = append(out, job)
		}
	}
	return out, nil
}
