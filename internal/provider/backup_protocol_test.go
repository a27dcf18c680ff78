package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

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

// rds_backup makes a set and waits for it; rds_backups lists it newest first; restore_from takes
// its id and the simulator restores that very set (it refuses ids of other instances or unfinished
// sets). Destroying a set RDS still keeps warns at plan and sends no DeleteBackup. The steps and
// checks of a terraform test, played at the plugin protocol (the data block is read at plan, as
// Terraform reads it when what it depends on has no change).
func TestBackup_cloneLastBackup(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	w.applyChecked(t, "backup", backupResources(src))
	for attr, want := range map[string]string{"backup_method": "Physical", "store_status": "Disabled"} {
		if got := w.stateAttr(t, backupRes, attr); got != want {
			t.Errorf("backup: %s %q, want %q", attr, got, want)
		}
	}
	backupID := w.stateAttr(t, backupRes, "backup_id")
	if sets := env.sets(t, src); len(sets) != 1 || string(sets[0].BackupID) != backupID {
		t.Fatalf("backup: sets %+v, state backup_id %q", sets, backupID)
	}
	// A second, newer set (taken by hand, waited for on the world's clock): "the latest" must be that one.
	waiter := &rdsservice.Waiter{API: env.api, Clock: w.clock, MinInterval: 50 * time.Millisecond, MaxInterval: 200 * time.Millisecond}
	env.apiCall(t, "CreateBackup", func(ctx context.Context) error {
		_, err := rdsservice.CreateBackup(ctx, env.api, waiter, &rdsapi.CreateBackupRequest{DBInstanceID: src})
		return err
	})()
	latestSet := func() string {
		t.Helper()
		sets := listOf(t, attrOf(w.readData(t, "rds_backups", map[string]any{"instance_id": src}), "backups"))
		if len(sets) == 0 {
			t.Fatal("rds_backups lists no set")
		}
		return stringOfObject(t, sets[0], "backup_id")
	}
	latest := latestSet()
	// The set listed first is the one taken by hand: a manual set that is not the first.
	var byHand string
	for _, set := range env.sets(t, src) {
		if string(set.BackupID) != backupID {
			byHand = string(set.BackupID)
		}
	}
	if latest != byHand {
		t.Errorf("rds_backups lists %q first, want the newest set %q", latest, byHand)
	}
	order := append(backupResources(src), cloneResources(src, map[string]any{"instance_type": "mysql.n2m.medium.2c"})...)
	order[1].attrs["restore_from"] = map[string]any{"source_instance_id": src, "backup_id": latest}
	w.applyChecked(t, "clone", order)
	restored := stringOfObject(t, attrOf(w.state[testRes], "restore_from"), "backup_id")
	if sets := env.sets(t, src); len(sets) != 2 || restored == backupID || restored != latest {
		t.Errorf("clone: restored %q, the latest set listed %q, the first %q; sets %+v", restored, latest, backupID, sets)
	}
	if n := env.requests("CloneDBInstance"); n != 1 {
		t.Errorf("clone: %d CloneDBInstance requests, want 1", n)
	}
	if again := latestSet(); again != latest {
		t.Errorf("again: rds_backups lists %q first, was %q", again, latest)
	}
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectWarning(t, "destroy", gone, backupRes, regexp.MustCompile(`RDS keeps backup set `+backupID))
	w.applyChecked(t, "destroy", nil)
	if n := env.requests("DeleteBackup"); n != 0 {
		t.Errorf("destroy: DeleteBackup sent %d times for sets RDS keeps", n)
	}
	if sets := env.sets(t, src); len(sets) != 2 {
		t.Errorf("destroy: %d sets left, want both kept", len(sets))
	}
	if err := env.checkDestroyed(src)(nil); err != nil {
		t.Error(err)
	}
}

// stringOfObject is the string attribute attr of the object v.
func stringOfObject(t *testing.T, v tftypes.Value, attr string) string {
	t.Helper()
	var s string
	if err := attrOf(v, attr).As(&s); err != nil {
		t.Fatalf("%s: %v", attr, err)
	}
	return s
}

// Issue 41, item 5: after a destroy, the set RDS kept is listed by rds_backups on the released id
// (released = true), where DescribeBackups answers not found; an id that never existed is a clear
// error.
func TestBackups_releasedInstanceKeptSet(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	waiter := &rdsservice.Waiter{API: env.api, Clock: w.clock, MinInterval: 50 * time.Millisecond, MaxInterval: 200 * time.Millisecond}
	env.apiCall(t, "CreateBackup", func(ctx context.Context) error {
		_, err := rdsservice.CreateBackup(ctx, env.api, waiter, &rdsapi.CreateBackupRequest{DBInstanceID: id})
		return err
	})()
	env.apiCall(t, "DeleteDBInstance", func(ctx context.Context) error {
		if err := env.api.DeleteDBInstance(ctx, id); err != nil {
			return err
		}
		return waiter.WaitDeleted(ctx, id)
	})()
	read := w.readData(t, "rds_backups", map[string]any{"instance_id": id})
	if sets := listOf(t, attrOf(read, "backups")); len(sets) != 1 || !attrOf(read, "released").Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Fatalf("rds_backups on released %s: %d sets, released %v; want the kept set", id, len(sets), attrOf(read, "released"))
	}
	_, _, err := rdsservice.ListBackupsOrKept(context.Background(), env.api, &rdsapi.DescribeBackupsRequest{DBInstanceID: "rm-neverexisted1"})
	if err == nil || !strings.Contains(err.Error(), "no released instance kept a backup set under it") {
		t.Fatalf("an unknown id: %v", err)
	}
}
