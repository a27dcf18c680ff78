package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// backupConfig is an rds_backup configuration as the journal keys it.
func backupConfig(instanceID string) tfsdk.Config {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"instance_id": tftypes.String}}
	return tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"instance_id": tftypes.NewValue(tftypes.String, instanceID)})}
}

// leaveInterruptedBackup writes the journal entry a killed apply leaves: its run's lock is gone
// with its process (the kernel releases it), so only the entry file remains.
func leaveInterruptedBackup(t *testing.T, j *rdsservice.CreateJournal, kind, key, job string, started time.Time) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "key": key, "action": actionCreateBackup, "id": job, "started": started, "run": "killed-run"})
	if err := os.MkdirAll(j.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(j.Dir(), "killed-run-"+job+"1.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func problemsOf(d diag.Diagnostics) string {
	var out []string
	for _, x := range d {
		out = append(out, x.Severity().String()+": "+x.Summary())
	}
	return strings.Join(out, "; ")
}

// A backup whose apply was killed while it waited for the set is adopted by the next plan and
// apply (no second CreateBackup); a lost answer with two candidate jobs is refused at plan and at
// apply, naming both, with no CreateBackup sent; with none, a new backup is made.
func TestBackupCreateJournal(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	env.data.Journal = rdsservice.OpenCreateJournal(dir, func(string) string { return "" })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	config, req := backupConfig(id), &rdsapi.CreateBackupRequest{DBInstanceID: id}
	key := configKey(backupKind, config)
	var set *rdsapi.Backup

	// Killed while waiting: the entry has the job the cloud answered with.
	job, err := rdsservice.StartBackup(ctx, env.api, env.data.Waiter, req)
	if err != nil {
		t.Fatal(err)
	}
	leaveInterruptedBackup(t, env.data.Journal, backupKind, key, job, time.Now())
	var plan diag.Diagnostics
	planInterruptedBackup(ctx, env.data, config, id, &plan)
	if got := problemsOf(plan); plan.HasError() || !strings.Contains(got, "Adopting backup job "+job+" of "+id) {
		t.Fatalf("plan after a killed backup: %q, want the adoption of job %s", got, job)
	}
	var apply diag.Diagnostics
	set = createBackupJournaled(ctx, env.data, backupKind, config, req, &apply)
	if set == nil || apply.HasError() || env.requests("CreateBackup") != 1 {
		t.Fatalf("apply: set %+v, %q, %d CreateBackup requests; want the adopted job's set and no second request", set, problemsOf(apply), env.requests("CreateBackup"))
	}
	if left := env.data.Journal.Interrupted(backupKind, key); len(left) != 0 {
		t.Fatalf("journal entries left after the adoption: %+v", left)
	}

	// The answer lost, and two manual jobs since: neither is chosen, and nothing is sent.
	if _, err := rdsservice.CreateBackup(ctx, env.api, env.data.Waiter, req); err != nil {
		t.Fatal(err)
	}
	leaveInterruptedBackup(t, env.data.Journal, backupKind, key, "", time.Now().Add(-time.Minute))
	plan = nil
	planInterruptedBackup(ctx, env.data, config, id, &plan)
	if got := problemsOf(plan); !plan.HasError() || !strings.Contains(got, "Backups of "+id+" may have been started") {
		t.Fatalf("plan with two candidate jobs: %q, want the backup-interrupted-orphan error", got)
	}
	apply = nil
	if set := createBackupJournaled(ctx, env.data, backupKind, config, req, &apply); set != nil || !apply.HasError() || env.requests("CreateBackup") != 2 {
		t.Fatalf("apply with two candidate jobs: set %+v, %q, %d CreateBackup requests; want a refusal and none sent", set, problemsOf(apply), env.requests("CreateBackup"))
	}

	// The answer lost and no job since (the request never reached the cloud): a new backup.
	for _, e := range env.data.Journal.Interrupted(backupKind, key) {
		env.data.Journal.Forget([]rdsservice.JournalEntry{e})
	}
	leaveInterruptedBackup(t, env.data.Journal, backupKind, key, "", time.Now().Add(2*time.Minute))
	apply = nil
	if set := createBackupJournaled(ctx, env.data, backupKind, config, req, &apply); set == nil || apply.HasError() || env.requests("CreateBackup") != 3 {
		t.Fatalf("apply after a create that never reached the cloud: set %+v, %q, %d CreateBackup requests, want 3", set, problemsOf(apply), env.requests("CreateBackup"))
	}

	// rds_backup_now takes a new backup at every invocation: it names what an interrupted one left.
	nowConfig := backupConfig(id)
	nowKey := configKey(backupNowKind, nowConfig)
	left, err := rdsservice.StartBackup(ctx, env.api, env.data.Waiter, req)
	if err != nil {
		t.Fatal(err)
	}
	leaveInterruptedBackup(t, env.data.Journal, backupNowKind, nowKey, left, time.Now())
	apply = nil
	set = createBackupJournaled(ctx, env.data, backupNowKind, nowConfig, req, &apply)
	if set == nil || apply.HasError() || !strings.Contains(problemsOf(apply), "An interrupted rds_backup_now left backup jobs "+left) || env.requests("CreateBackup") != 6 {
		t.Fatalf("rds_backup_now after an interrupted one: set %+v, %q, %d CreateBackup requests, want 6 (its own refused while the left job runs, then sent again)", set, problemsOf(apply), env.requests("CreateBackup"))
	}
	if rest := env.data.Journal.Interrupted(backupNowKind, nowKey); len(rest) != 0 {
		t.Fatalf("rds_backup_now left journal entries: %+v", rest)
	}
}
