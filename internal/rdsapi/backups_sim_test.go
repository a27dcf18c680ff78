package rdsapi_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The backup actions round-trip against the simulator: both policy modes read back, a backup
// job finishes into a listed set, and a set still inside the log retention cannot be deleted.
func TestBackupActionsAgainstSimulator(t *testing.T) {
	ctx := context.Background()
	_, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 0)
	created, err := c.CreateDBInstance(ctx, newMySQL("backups"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	if err := c.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "05:00Z-06:00Z",
		PreferredBackupPeriod: []string{"Monday", "Wednesday"}, BackupRetentionPeriod: 14, CompressType: "8"}); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyLogBackupPolicy(ctx, &rdsapi.LogBackupPolicyRequest{DBInstanceID: id, EnableBackupLog: true, LocalLogRetentionHours: 0,
		LocalLogRetentionSpace: 20, HighSpaceUsageProtection: "Disable", LogBackupRetentionPeriod: 14}); err != nil {
		t.Fatal(err)
	}
	p, err := c.DescribeBackupPolicy(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.PreferredBackupPeriod != "Monday,Wednesday" || p.BackupRetentionPeriod != 14 || p.CompressType != "8" || !p.LogBackupEnabled() ||
		p.LocalLogRetentionHours != 0 || p.LocalLogRetentionSpace != 20 || p.HighSpaceUsageProtection != "Disable" || p.LogBackupRetentionPeriod != 14 {
		t.Fatalf("policy %+v", p)
	}
	job, err := c.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: id, BackupMethod: rdsapi.BackupMethodSnapshot})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := c.DescribeBackupTasks(ctx, &rdsapi.DescribeBackupTasksRequest{DBInstanceID: id, BackupJobID: job})
	if err != nil || len(tasks.Items.BackupJob) != 1 || tasks.Items.BackupJob[0].BackupID == "" {
		t.Fatalf("tasks %+v, %v", tasks, err)
	}
	backupID := string(tasks.Items.BackupJob[0].BackupID)
	sets, err := c.DescribeBackups(ctx, &rdsapi.DescribeBackupsRequest{DBInstanceID: id, BackupID: backupID})
	if err != nil || len(sets.Items.Backup) != 1 || sets.Items.Backup[0].BackupMethod != "Snapshot" || sets.TotalRecordCount != 1 {
		t.Fatalf("sets %+v, %v", sets, err)
	}
	err = c.DeleteBackup(ctx, id, backupID)
	if rdsapi.ErrorCode(err) != rdsapi.CodeBackupRetention {
		t.Fatalf("DeleteBackup of a fresh set: %v", err)
	}
}
