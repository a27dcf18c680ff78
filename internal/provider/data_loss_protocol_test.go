package provider

import (
	"context"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The data-loss family (issue 46 §3) at the plugin protocol: every plan that deletes data names
// what goes, and prevent_data_loss = true refuses it at plan with no API write.

// refusedLoss plans order and expects the plan refused at addr by prevent_data_loss, naming want,
// with nothing written to the cloud.
func refusedLoss(t *testing.T, env *testEnv, w *oracleWorld, name string, order []oracleResource, addr string, want *regexp.Regexp) {
	t.Helper()
	env.sim.ResetStats()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if plan.errAt != addr || !strings.Contains(plan.errMsg, "prevent_data_loss refuses this plan") || !want.MatchString(plan.errMsg) {
		t.Errorf("%s: the plan failed at %q with %q, want %s refused by prevent_data_loss naming %s", name, plan.errAt, plan.errMsg, addr, want)
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Errorf("%s: the refused plan wrote %v, want nothing", name, writes)
	}
}

// An rds_backup whose set DeleteBackup would delete: destroying it with prevent_data_loss refuses
// the plan; without it the plan names the set, and the destroy deletes it.
func TestDataLoss_backupDestroy(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.apiCall(t, "ModifyBackupPolicy", func(ctx context.Context) error {
		return env.api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "02:00Z-03:00Z",
			PreferredBackupPeriod: []string{"Monday", "Friday"}, BackupRetentionPeriod: 30})
	})()
	guarded := func(on bool) []oracleResource {
		return []oracleResource{{addr: backupRes, attrs: map[string]any{"instance_id": id, "prevent_data_loss": on}}}
	}
	w.applyChecked(t, "backup", guarded(true))
	env.sim.AdvanceClock(8 * 24 * time.Hour) // past seven days without log backups' hold: DeleteBackup may delete it
	set := w.stateAttr(t, backupRes, "backup_id")
	refusedLoss(t, env, w, "destroy guarded", nil, backupRes, regexp.MustCompile(`deletes backup set `+set+` of `+id))
	refusedLoss(t, env, w, "replace guarded", []oracleResource{{addr: backupRes, attrs: map[string]any{"instance_id": id,
		"prevent_data_loss": true, "backup_method": "Snapshot"}}}, backupRes, regexp.MustCompile(`backup set `+set))
	w.applyChecked(t, "allow", guarded(false))
	if n := env.requests("DeleteBackup"); n != 0 {
		t.Errorf("allow: turning prevent_data_loss off sent %d DeleteBackup", n)
	}
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectWarning(t, "destroy", gone, backupRes, regexp.MustCompile(`This apply deletes backup set `+set+` of `+id))
	w.applyChecked(t, "destroy", nil)
	if n := env.requests("DeleteBackup"); n != 1 {
		t.Errorf("destroy: DeleteBackup requests %d, want 1", n)
	}
}

// An rds_database: destroying it, or a change that replaces it, drops its data; prevent_data_loss
// refuses both at plan; without it the destroy plan names the database.
func TestDataLoss_databaseDrop(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	db := func(extra map[string]any) []oracleResource {
		attrs := map[string]any{"instance_id": id, "name": "orders"}
		maps.Copy(attrs, extra)
		return []oracleResource{{databaseRes, attrs}}
	}
	w.applyChecked(t, "create", db(map[string]any{"prevent_data_loss": true}), env.checkDatabase(id, "orders", "utf8mb4"))
	drops := regexp.MustCompile(`drops database orders of ` + id)
	refusedLoss(t, env, w, "destroy guarded", nil, databaseRes, drops)
	refusedLoss(t, env, w, "replace guarded", db(map[string]any{"prevent_data_loss": true, "character_set": "latin1"}), databaseRes, drops)
	w.applyChecked(t, "allow", db(map[string]any{"prevent_data_loss": false}), env.checkDatabase(id, "orders", "utf8mb4"))
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectWarning(t, "destroy", gone, databaseRes, regexp.MustCompile(`This apply drops database orders of `+id+` with its data`))
	w.applyChecked(t, "destroy", nil)
}

// Shortening backup_retention_period below the age of existing sets deletes them at once: the plan
// lists them, prevent_data_loss refuses it, and after the apply the cloud has exactly the sets the
// plan did not name. Lengthening it, or shortening it above the oldest set, names nothing.
func TestDataLoss_retentionShortened(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: w.clock.Now().Add(-40 * 24 * time.Hour), BackupRetention: 30})
	if err != nil {
		t.Fatal(err)
	}
	policy := func(days int, guard bool) []oracleResource {
		return backupPolicyResources(id, map[string]any{"backup_retention_period": days, "log_backup_retention_period": 7, "prevent_data_loss": guard})
	}
	all := func() []rdsapi.Backup {
		sets, err := rdsservice.ListBackups(context.Background(), env.api, &rdsapi.DescribeBackupsRequest{DBInstanceID: id})
		if err != nil {
			t.Fatal(err)
		}
		return sets
	}
	w.applyChecked(t, "adopt", policy(30, true))
	before := all()
	cutoff := w.clock.Now().Add(-7 * 24 * time.Hour)
	var old []string
	for _, s := range before {
		if start, err := time.Parse("2006-01-02T15:04Z", s.BackupStartTime); err == nil && start.Before(cutoff) {
			old = append(old, string(s.BackupID))
		}
	}
	if len(old) == 0 || len(old) == len(before) {
		t.Fatalf("adopt: %d of %d sets older than 7 days, want some but not all", len(old), len(before))
	}
	names := regexp.MustCompile(`deletes ` + strconv.Itoa(len(old)) + ` backup sets of ` + id + `(?s:.*)` + old[0])
	refusedLoss(t, env, w, "shorten guarded", policy(7, true), backupPolicyRes, names)
	if n := len(all()); n != len(before) {
		t.Errorf("shorten guarded: %d sets left, want all %d", n, len(before))
	}
	plan := w.applyChecked(t, "shorten", policy(7, false))
	expectWarning(t, "shorten", plan, backupPolicyRes, names)
	after := all()
	if len(after) != len(before)-len(old) {
		t.Errorf("shorten: %d sets left, want %d (the %d the plan named are gone)", len(after), len(before)-len(old), len(old))
	}
	raised := w.applyChecked(t, "lengthen", policy(30, true))
	if text := warningText(raised.res[backupPolicyRes].diags); strings.Contains(text, "deletes") {
		t.Errorf("lengthen: the plan warns of a loss: %s", text)
	}
	if n := len(all()); n != len(after) {
		t.Errorf("lengthen: %d sets, want the %d left: deleted sets do not come back", n, len(after))
	}
}
