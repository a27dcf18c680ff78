package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// crossPolicy is the backup policy of id with cross_region (region, days, log) and prevent_data_loss.
func crossPolicy(id, region string, days int, guard bool) []oracleResource {
	return backupPolicyResources(id, map[string]any{"prevent_data_loss": guard,
		"cross_region": map[string]any{"region": region, "retention_days": days, "log_backup_enabled": true}})
}

// cross_region on rds_backup_policy at the plugin protocol (issue 46 §2): a destination the region
// does not offer and a retention outside 7-1825 are refused at plan, both at once, with no write;
// the policy is sent once and read back; a shorter retention names the copies it deletes,
// prevent_data_loss refuses it, and the apply deletes exactly those.
func TestCrossRegion_policy(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.sim.ResetStats()
	bad, err := w.planWalk(crossPolicy(id, "cn-hangzhou", 3, false))
	if err != nil {
		t.Fatal(err)
	}
	if bad.errAt != backupPolicyRes {
		t.Errorf("bad destination and retention: the plan failed at %q with %q", bad.errAt, bad.errMsg)
	}
	if text := errorText(bad.res[backupPolicyRes].diags); !strings.Contains(text, "cross-region-retention") || !strings.Contains(text, "cross-region-destination") {
		t.Errorf("bad destination and retention: not both refused at once: %s", text)
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Errorf("refused plan wrote %v", writes)
	}
	w.applyChecked(t, "on", crossPolicy(id, "cn-shanghai", 30, true))
	if n := env.requests("ModifyInstanceCrossBackupPolicy"); n != 1 {
		t.Errorf("on: ModifyInstanceCrossBackupPolicy %d, want 1", n)
	}
	again, err := w.planWalk(crossPolicy(id, "cn-shanghai", 30, true))
	if err != nil || again.errAt != "" {
		t.Fatalf("again: %v %s", err, again.errMsg)
	}
	expectAction(t, "again", again, backupPolicyRes, actNoop)
	env.apiCall(t, "CreateBackup", func(ctx context.Context) error {
		_, err := env.api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: id})
		return err
	})()
	env.sim.AdvanceClock(10 * 24 * time.Hour)
	copies := env.sim.CrossRegionBackups(id)
	if copies == 0 {
		t.Fatal("no cross-region copy after a backup and ten days")
	}
	names := regexp.MustCompile(`(?i)Shortening cross_region.retention_days deletes \d+ cross-region backups of ` + id)
	refusedLoss(t, env, w, "shorten guarded", crossPolicy(id, "cn-shanghai", 7, true), backupPolicyRes, names)
	if n := env.sim.CrossRegionBackups(id); n != copies {
		t.Errorf("shorten guarded: %d copies, want %d", n, copies)
	}
	plan := w.applyChecked(t, "shorten", crossPolicy(id, "cn-shanghai", 7, false))
	expectWarning(t, "shorten", plan, backupPolicyRes, names)
	left := env.sim.CrossRegionBackups(id)
	if left >= copies {
		t.Errorf("shorten: %d copies of %d left, want the named ones gone", left, copies)
	}
	// rds_cross_region_backups lists what is left, by destination and time range.
	year := 365 * 24 * time.Hour
	around := map[string]any{"instance_id": id, "start_time": w.clock.Now().Add(-year).Format(rdsservice.CrossTimeLayout),
		"end_time": w.clock.Now().Add(year).Format(rdsservice.CrossTimeLayout)}
	listed := listOf(t, attrOf(w.readData(t, "rds_cross_region_backups", around), "backups"))
	if len(listed) != left || (left > 0 && stringOfObject(t, listed[0], "region") != "cn-shanghai") {
		t.Errorf("rds_cross_region_backups: %d copies, want the %d in cn-shanghai", len(listed), left)
	}
	around["region"] = "cn-qingdao"
	if other := listOf(t, attrOf(w.readData(t, "rds_cross_region_backups", around), "backups")); len(other) != 0 {
		t.Errorf("rds_cross_region_backups in cn-qingdao: %d copies, want none", len(other))
	}
}

// errorText is the summaries of the errors among ds, one per line.
func errorText(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			parts = append(parts, d.Summary)
		}
	}
	return strings.Join(parts, "\n")
}
