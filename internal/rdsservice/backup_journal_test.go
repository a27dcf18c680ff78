package rdsservice

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// An interrupted CreateBackup is found by its job: the one it was answered with, or, when the
// answer was lost, every manual job started since its journal entry (sets made before it, and
// failed or automatic jobs, are not its).
func TestInterruptedBackupJobs(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 300 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	before, err := CreateBackup(ctx, e.api, e.waiter, &rdsapi.CreateBackupRequest{DBInstanceID: id})
	if err != nil {
		t.Fatal(err)
	}
	jobs := func(entry JournalEntry) []string {
		t.Helper()
		got, err := InterruptedBackupJobs(ctx, e.api, id, entry)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Written a minute after the first set started: that set is not the lost create's.
	later := JournalEntry{Kind: "rds_backup", Action: "CreateBackup", Started: time.Now().Add(time.Minute)}
	if got := jobs(later); len(got) != 0 {
		t.Fatalf("a set made before the entry is taken for the interrupted create's: %v (set %s)", got, before.BackupID)
	}
	answered, err := StartBackup(ctx, e.api, e.waiter, &rdsapi.CreateBackupRequest{DBInstanceID: id})
	if err != nil {
		t.Fatal(err)
	}
	lost := JournalEntry{Kind: "rds_backup", Action: "CreateBackup", Started: time.Now().Add(-time.Minute)}
	withJob := lost
	withJob.ID = answered
	if got := jobs(withJob); !slices.Equal(got, []string{answered}) {
		t.Fatalf("answered create: jobs %v, want [%s]", got, answered)
	}
	// The answer lost: the job in progress, and the finished set started since the entry.
	if got := jobs(lost); len(got) != 2 || !slices.Contains(got, answered) {
		t.Fatalf("lost answer: jobs %v, want the job in progress %s and the earlier set's", got, answered)
	}
	set, err := WaitBackupSet(ctx, e.api, e.waiter, id, answered)
	if err != nil || set == nil || set.BackupStatus != rdsapi.BackupStatusSuccess {
		t.Fatalf("adopted job's set: %+v, %v", set, err)
	}
	if n := e.sim.Stats().Requests["CreateBackup"]; n != 2 {
		t.Fatalf("CreateBackup requests = %d, want 2 (waiting for an adopted job sends none)", n)
	}
}
