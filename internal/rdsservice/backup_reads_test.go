package rdsservice

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The rds_backup rows: shape rules without facts, edition and state rules with them.
func TestCheckBackupRows(t *testing.T) {
	running := BackupInstanceState{Known: true, Status: StatusRunning, Databases: []string{"orders"}}
	local := BackupFacts{Known: true, InstanceID: "rm-2", EngineVersion: "5.7", StorageType: "local_ssd"}
	for _, tc := range []struct {
		req   BackupRequest
		facts BackupFacts
		st    BackupInstanceState
		rule  RuleID
	}{
		{BackupRequest{Method: "Tape", Strategy: "instance"}, BackupFacts{}, BackupInstanceState{}, RuleBackupMethodValue},
		{BackupRequest{Method: "Physical", Strategy: "table"}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyValue},
		{BackupRequest{Method: "Logical", Strategy: "db"}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyDBNames},
		{BackupRequest{Method: "Physical", Strategy: "instance", DBNames: []string{"orders"}}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyDBNames},
		{BackupRequest{Method: "Physical", Strategy: "db", DBNames: []string{"orders"}}, BackupFacts{}, BackupInstanceState{}, RuleBackupDBNamesLogical},
		{BackupRequest{Method: "Snapshot", Strategy: "instance"}, local, running, RuleBackupSnapshotNoCloud},
		{BackupRequest{Method: "Logical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning}, RuleBackupLogicalNoDB},
		{BackupRequest{Method: "Logical", Strategy: "db", DBNames: []string{"shop"}}, essd80, running, RuleBackupDBNotFound},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning, SetsToday: 20}, RuleBackupDailyLimit},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning, JobRunning: "7"}, RuleBackupInProgress},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: "Rebooting"}, RuleBackupInstanceNotReady},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, BackupFacts{Known: true, InstanceID: "rr-1", ReadOnly: true}, running, RuleBackupOnReadOnly},
	} {
		got := CheckBackup(tc.req, tc.facts, tc.st)
		if len(got) != 1 || got[0].Rule != tc.rule {
			t.Errorf("%s: got %+v", tc.rule, got)
		}
	}
	if got := CheckBackup(BackupRequest{Method: "Logical", Strategy: "db", DBNames: []string{"orders"}}, essd80, running); len(got) != 0 {
		t.Errorf("valid request: %+v", got)
	}
	if got := CheckBackup(BackupRequest{Method: "Tape", Unknown: map[string]bool{AttrBackupMethod: true, AttrBackupStrategy: true}}, BackupFacts{}, BackupInstanceState{}); len(got) != 0 {
		t.Errorf("unknown values: %+v", got)
	}
}

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
