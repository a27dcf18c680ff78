package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_backup in the create journal (issue 23, as issue 29 does for instances, accounts and
// databases): a CreateBackup is recorded before it is sent and gets its job id once answered, so a
// killed apply or a lost answer never leaves a backup set no state names. The next plan of the
// same configuration adopts the one job it finds (the apply waits for its set instead of starting
// another backup) or refuses, naming them (rdsservice.InterruptedBackupJobs finds them).

const (
	backupKind         = "rds_backup"
	backupNowKind      = "rds_backup_now"
	actionCreateBackup = "CreateBackup"
)

// interruptedBackup is the journal's verdict on this configuration of kind on instanceID.
func interruptedBackup(ctx context.Context, data *ProviderData, kind, key, instanceID string) (rdsservice.Interrupted, error) {
	entries := data.Journal.Interrupted(kind, key)
	var pending []rdsservice.PendingCreate
	seen := map[string]bool{}
	for _, e := range entries {
		jobs, err := rdsservice.InterruptedBackupJobs(ctx, data.API, instanceID, e)
		if err != nil {
			return rdsservice.Interrupted{}, err
		}
		for _, job := range jobs {
			if !seen[job] {
				seen[job] = true
				pending = append(pending, rdsservice.PendingCreate{Entry: e, ID: job})
			}
		}
	}
	v := rdsservice.DecideInterrupted(pending, time.Now())
	v.Resolved = entries
	return v, nil
}

// planInterruptedBackup shows, in the plan of a new rds_backup, what an interrupted apply left.
func planInterruptedBackup(ctx context.Context, data *ProviderData, config tfsdk.Config, instanceID string, diags *diag.Diagnostics) {
	key := configKey(backupKind, config)
	if data.Journal == nil || key == "" || instanceID == "" {
		return
	}
	v, err := interruptedBackup(ctx, data, backupKind, key, instanceID)
	if err != nil {
		diags.AddError("Error looking for a backup an interrupted apply started",
			fmt.Sprintf("The journal %s names an interrupted create of this rds_backup, and reading the backup jobs of %s failed: %v. Plan again.", data.Journal.Dir(), instanceID, err))
		return
	}
	addProblems(diags, v.BackupProblems(instanceID, data.Journal.Dir()))
}

// createBackupJournaled decides again what the plan showed, records the create before it is sent,
// runs the backup's program with the one executor (rdsservice/backup_program.go), and returns the
// set: the adopted job's, or a new backup's. nil when it must not run (diags say
// why). rds_backup_now (kind) takes a new backup at every invocation: it names the jobs an
// interrupted invocation left instead of adopting one.
func createBackupJournaled(ctx context.Context, data *ProviderData, kind string, config tfsdk.Config, req *rdsapi.CreateBackupRequest, diags *diag.Diagnostics) *rdsapi.Backup {
	claim, job := &createClaim{journal: data.Journal}, ""
	if key := configKey(kind, config); data.Journal != nil && key != "" {
		v, err := interruptedBackup(ctx, data, kind, key, req.DBInstanceID)
		switch {
		case err == nil && kind == backupNowKind:
			left := v.Orphans
			if v.Adopt != "" {
				left = append(left, v.Adopt)
			}
			if len(left) > 0 {
				addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleBackupNowLeft, "", req.DBInstanceID,
					"backup jobs "+strings.Join(left, ", "), data.Journal.Dir())})
			}
			v = rdsservice.Interrupted{Resolved: v.Resolved}
		case err == nil && v.Reason != "":
			addProblems(diags, v.BackupProblems(req.DBInstanceID, data.Journal.Dir()))
			return nil
		}
		entry, jerr := data.Journal.Begin(kind, key, actionCreateBackup, "")
		if err != nil || jerr != nil {
			diags.AddError("Error recording the backup in the create journal", fmt.Sprintf("%s: %v; nothing was created. Apply again.", data.Journal.Dir(), firstErr(err, jerr)))
			return nil
		}
		claim.entry, claim.resolved, job = entry, v.Resolved, v.Adopt
	}
	out := rdsservice.ExecuteBackupCreate(ctx, data.API, data.Waiter, rdsservice.BackupCreate{Request: req, AdoptJob: job, Accepted: claim.accepted})
	// Terraform writes the state as soon as Create returns: the entry goes then, so that a later
	// backup of this configuration (after a destroy) never adopts this job.
	claim.done(false)
	if out.Err != nil {
		diags.AddError("Error creating RDS backup", rdsservice.OperationError(ctx, fmt.Errorf("CreateBackup on %s: %w", req.DBInstanceID, out.Err)))
		return nil
	}
	claim.journal.Forget(claim.resolved)
	return out.Backup
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
