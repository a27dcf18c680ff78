package rdsservice

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// A backup's program is one OpCreateBackup the executor runs: it sends one CreateBackup, reports
// the job as accepted before its set is made, and returns the set; with a job to adopt (an
// interrupted apply's) it sends none and returns that job's set.
func TestBackupCreateProgramRunsThroughTheExecutor(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 50 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var accepted []string
	c := BackupCreate{Request: &rdsapi.CreateBackupRequest{DBInstanceID: id}, Accepted: func(job string) { accepted = append(accepted, job) }}
	if ops := PlanBackupCreate(c).Operations; len(ops) != 1 || ops[0].Action != OpCreateBackup || ops[0].Instance != id {
		t.Fatalf("program %+v", ops)
	}
	e.sim.ResetStats()
	out := ExecuteBackupCreate(ctx, e.api, e.waiter, c)
	if out.Err != nil || out.Backup == nil || out.Backup.BackupStatus != rdsapi.BackupStatusSuccess {
		t.Fatalf("create: %s: %v, set %+v", out.Step, out.Err, out.Backup)
	}
	if n := e.sim.Stats().Requests["CreateBackup"]; n != 1 || len(accepted) != 1 || accepted[0] == "" {
		t.Fatalf("%d CreateBackup sent, accepted %v; want one, its job reported", n, accepted)
	}

	job, err := e.api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: id}) // an interrupted apply's
	if err != nil {
		t.Fatal(err)
	}
	accepted = nil
	c.AdoptJob = job
	e.sim.ResetStats()
	out = ExecuteBackupCreate(ctx, e.api, e.waiter, c)
	if out.Err != nil || out.Backup == nil || e.sim.Stats().Requests["CreateBackup"] != 0 || len(accepted) != 1 || accepted[0] != job {
		t.Fatalf("adopt %s: %v, %d CreateBackup sent, accepted %v", job, out.Err, e.sim.Stats().Requests["CreateBackup"], accepted)
	}
}

// The destroy of a backup set: while RDS keeps the set the plan is the kept warning and holds no
// operation; once RDS lets it go (log backups off, older than 7 days, inside a 30-day retention) one DeleteBackup is sent;
// a set gone by then plans nothing.
func TestBackupDeleteProgram(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 50 * time.Millisecond})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	set, err := CreateBackup(ctx, e.api, e.waiter, &rdsapi.CreateBackupRequest{DBInstanceID: id})
	if err != nil {
		t.Fatal(err)
	}
	backupID := string(set.BackupID)
	plan, err := PlanBackupDelete(ctx, e.api, id, backupID)
	if err != nil || plan.Kept == nil || plan.Kept.Rule != RuleBackupKeptOnDestroy || len(plan.Program.Operations) != 0 {
		t.Fatalf("a fresh set: %+v, %v; want the kept warning and no operation", plan, err)
	}
	if err := e.api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "02:00Z-03:00Z",
		PreferredBackupPeriod: []string{"Monday", "Friday"}, BackupRetentionPeriod: 30}); err != nil {
		t.Fatal(err)
	}
	if err := e.api.ModifyLogBackupPolicy(ctx, &rdsapi.LogBackupPolicyRequest{DBInstanceID: id, HighSpaceUsageProtection: "Enable", LocalLogRetentionSpace: 30}); err != nil {
		t.Fatal(err)
	}
	e.sim.AdvanceClock(8 * 24 * time.Hour)
	plan, err = PlanBackupDelete(ctx, e.api, id, backupID)
	if err != nil || plan.Kept != nil || len(plan.Program.Operations) != 1 || plan.Program.Operations[0].BackupID != backupID {
		t.Fatalf("a set RDS lets go: %+v, %v; want one DeleteBackup", plan, err)
	}
	e.sim.ResetStats()
	if out := ExecuteBackupDelete(ctx, e.api, e.waiter, plan); out.Err != nil || e.sim.Stats().Requests["DeleteBackup"] != 1 {
		t.Fatalf("delete: %v, %d DeleteBackup", out.Err, e.sim.Stats().Requests["DeleteBackup"])
	}
	if again, err := PlanBackupDelete(ctx, e.api, id, backupID); err != nil || again.Kept != nil || len(again.Program.Operations) != 0 {
		t.Fatalf("a deleted set: %+v, %v; want nothing to do", again, err)
	}
}
