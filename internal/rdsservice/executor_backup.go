package rdsservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func (x *executor) backup(ctx context.Context, op Operation) error {
	if op.Action == OpDeleteBackup {
		return x.deleteBackup(ctx, op.BackupID)
	}
	c := op.Backup
	job := c.AdoptJob
	if job == "" {
		var err error
		if job, err = StartBackup(ctx, x.api, x.w, c.Request); err != nil {
			return err
		}
	}
	if c.Accepted != nil {
		c.Accepted(job)
	}
	set, err := WaitBackupSet(ctx, x.api, x.w, c.Request.DBInstanceID, job)
	x.out.Backup = set
	return err
}

// deleteBackup sends DeleteBackup, retried while the instance is busy; a set or an instance gone
// (or being released) is deleted already.
func (x *executor) deleteBackup(ctx context.Context, backupID string) error {
	id := x.out.ID
	err := x.w.RetryBusy(ctx, func() error { return x.api.DeleteBackup(ctx, id, backupID) })
	var stuck *InstanceStateError
	switch {
	case err == nil, rdsapi.IsNotFound(err), rdsapi.ErrorCode(err) == rdsapi.CodeBackupNotFound:
		return nil
	case errors.As(err, &stuck) && stuck.Status == StatusDeleting:
		return nil
	}
	return fmt.Errorf("DeleteBackup %s on %s: %w", backupID, id, err)
}

// backupPolicy plans again and sends this mode's call as the policy now needs it.
func (x *executor) backupPolicy(ctx context.Context, op Operation) error {
	if x.e.BackupPolicy == nil {
		return fmt.Errorf("the program holds %s without its policy", op.Action)
	}
	again, err := PlanBackupPolicy(ctx, x.api, x.e.BackupPolicy.Request)
	if err != nil {
		return fmt.Errorf("reading the backup policy of %s before changing it: %w", x.out.ID, err)
	}
	if again.Missing {
		return &ChangedSincePlanError{ID: x.out.ID, Changes: []string{"the instance no longer exists"}}
	}
	if len(again.Problems) > 0 {
		return &ChangedSincePlanError{ID: x.out.ID, Changes: []string{"its facts or backup policy changed"}, Problems: again.Problems}
	}
	for _, now := range again.Program.Operations {
		if now.BackupPolicy.Mode() == op.BackupPolicy.Mode() {
			return sendBackupPolicyCall(ctx, x.api, x.w, x.out.ID, *now.BackupPolicy)
		}
	}
	return nil // this mode already is as configured
}

// sendBackupPolicyCall sends one call, retried while the instance is busy (a restart answers
// IncorrectDBInstanceState).
func sendBackupPolicyCall(ctx context.Context, api rdsapi.API, w *Waiter, id string, c BackupPolicyCall) error {
	err := w.RetryBusy(ctx, func() error {
		switch {
		case c.Data != nil:
			return api.ModifyDataBackupPolicy(ctx, c.Data)
		case c.Cross != nil:
			return api.ModifyInstanceCrossBackupPolicy(ctx, id, *c.Cross)
		}
		return api.ModifyLogBackupPolicy(ctx, c.Log)
	})
	if err != nil {
		return fmt.Errorf("ModifyBackupPolicy (%s): %w", c.Mode(), err)
	}
	return nil
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
