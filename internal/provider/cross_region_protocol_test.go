package provider

import (
	"context"
	"regexp"
	"strconv"
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
	if text := errorSummaries(bad.res[backupPolicyRes].diags); !strings.Contains(text, "cross-region-retention") || !strings.Contains(text, "cross-region-destination") {
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

// errorSummaries is the summaries of the errors among ds, one per line.
func errorSummaries(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			parts = append(parts, d.Summary)
		}
	}
	return strings.Join(parts, "\n")
}

// Destroying a primary on cloud disks deletes its cross-region backups (issue 46 §2): the destroy
// plan names them beside what released_keep_policy keeps, prevent_data_loss refuses it with no
// write, and the apply deletes every copy the plan named; with no copy the plan names none.
func TestCrossRegion_releaseNamesTheCopies(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	const addr = "rds_instance.db"
	const policyAddr = "rds_backup_policy.db"
	order := func(guard, cross bool) []oracleResource {
		out := []oracleResource{{addr, auditAttrs(nil, guard)}}
		if cross {
			out = append(out, oracleResource{policyAddr, map[string]any{"instance_id": oracleRef{addr, "id"},
				"cross_region": map[string]any{"region": "cn-shanghai", "retention_days": 30}}})
		}
		return out
	}
	w.applyChecked(t, "create", order(true, false))
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	none, err := w.planWalk(nil)
	if err != nil || none.errAt != "" || strings.Contains(warningText(none.res[addr].diags), "cross-region") {
		t.Fatalf("destroy without copies: %v %q, warnings %s", err, none.errMsg, warningText(none.res[addr].diags))
	}
	w.applyChecked(t, "cross region on", order(true, true))
	w.sim.AdvanceClock(8 * 24 * time.Hour) // the automatic backups of a week, copied
	copies := w.sim.CrossRegionBackups(id)
	if copies == 0 {
		t.Fatal("no copy after a week of automatic backups")
	}
	w.sim.ResetStats()
	names := regexp.MustCompile(`(?i)Releasing ` + id + ` deletes its ` + strconv.Itoa(copies) + ` cross-region backups`)
	refused, err := w.planWalk([]oracleResource{})
	if err != nil {
		t.Fatal(err)
	}
	if refused.errAt != addr || !strings.Contains(refused.errMsg, "prevent_data_loss refuses this plan") || !names.MatchString(refused.errMsg) {
		t.Errorf("destroy guarded: failed at %q with %q, want a refusal naming %d copies", refused.errAt, refused.errMsg, copies)
	}
	if n := mutationsIn(w.sim.Stats()); n > 0 {
		t.Errorf("destroy guarded: the refused plan wrote %d times", n)
	}
	w.applyChecked(t, "allow", order(false, true))
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectWarning(t, "destroy", gone, addr, names)
	expectWarning(t, "destroy", gone, addr, regexp.MustCompile(`whatever released_keep_policy says`))
	w.applyChecked(t, "destroy", nil)
	if n := w.sim.CrossRegionBackups(id); n != 0 {
		t.Errorf("destroy: %d copies left, want the %d the plan named gone", n, copies)
	}
}
