package rdsservice

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// CreateBackup waits out a backup already in progress, then makes its own set; a destroy can
// delete neither while log backups keep them.
func TestCreateBackupOnSimulator(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 300 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := e.api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: id}); err != nil {
		t.Fatal(err)
	}
	set, err := CreateBackup(ctx, e.api, e.waiter, &rdsapi.CreateBackupRequest{DBInstanceID: id, BackupMethod: rdsapi.BackupMethodSnapshot})
	if err != nil {
		t.Fatal(err)
	}
	if set.BackupMethod != rdsapi.BackupMethodSnapshot || set.BackupStatus != rdsapi.BackupStatusSuccess {
		t.Fatalf("set %+v", set)
	}
	if n := e.sim.Stats().Requests["CreateBackup"]; n != 3 { // ours, refused while the first runs, sent again
		t.Fatalf("CreateBackup requests = %d, want 3", n)
	}
	if reason := BackupKeptReason(set, "HighAvailability"); reason == "" {
		t.Fatal("a fresh set with log backups on must be kept")
	}
	// The seeded instance also has the automatic sets of its backup policy: the manual ones are ours.
	all, err := ListBackups(ctx, e.api, &rdsapi.DescribeBackupsRequest{DBInstanceID: id, BackupMode: "Manual"})
	if err != nil || len(all) != 2 {
		t.Fatalf("ListBackups: %d sets, %v", len(all), err)
	}
}
