package provider

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// backupResources is the rds_backup nightly of instance id.
func backupResources(id string) []oracleResource {
	return []oracleResource{{addr: backupRes, attrs: map[string]any{"instance_id": id}}}
}

// A set RDS lets go (log backups off, older than 7 days, inside a 30-day data retention) is
// deleted on destroy, and its destroy plan does not say RDS keeps it; rds_backups filters by time.
// The steps and checks of a terraform test, played at the plugin protocol (the family keeps
// TestAccBackup_rules with terraform).
func TestBackup_destroyDeletesWhereAllowed(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(env.api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "02:00Z-03:00Z",
		PreferredBackupPeriod: []string{"Monday", "Friday"}, BackupRetentionPeriod: 30}))
	must(env.api.ModifyLogBackupPolicy(ctx, &rdsapi.LogBackupPolicyRequest{DBInstanceID: id, HighSpaceUsageProtection: "Enable", LocalLogRetentionSpace: 30}))
	w.applyChecked(t, "backup", backupResources(id))
	future := w.clock.Now().UTC().Add(48 * time.Hour).Format(rdsservice.BackupTimeLayout)
	w.applyChecked(t, "filtered", backupResources(id))
	if later := listOf(t, attrOf(w.readData(t, "rds_backups", map[string]any{"instance_id": id, "start_time": future}), "backups")); len(later) != 0 {
		t.Errorf("filtered: rds_backups after %s lists %d sets, want none", future, len(later))
	}
	everything := listOf(t, attrOf(w.readData(t, "rds_backups", map[string]any{"instance_id": id}), "backups"))
	if len(everything) == 0 {
		t.Error("filtered: rds_backups without a start lists no set, want the one made")
	}
	env.sim.AdvanceClock(8 * 24 * time.Hour)
	w.applyChecked(t, "a week later", backupResources(id))
	if s := w.stateAttr(t, backupRes, "store_status"); s != "Enabled" {
		t.Errorf("a week later: store_status %q, want Enabled", s)
	}
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectAction(t, "destroy", gone, backupRes, actDelete)
	if text := warningText(gone.res[backupRes].diags); regexp.MustCompile(`RDS keeps backup set`).MatchString(text) {
		t.Errorf("destroy: the plan says RDS keeps a set it lets go: %s", text)
	}
	w.applyChecked(t, "destroy", nil)
	if n, left := env.requests("DeleteBackup"), len(env.sets(t, id)); n != 1 || left != 0 {
		t.Errorf("destroy: DeleteBackup requests %d, sets left %d, want 1 and 0", n, left)
	}
}
