package provider

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The sets a shorter backup_retention_period deletes are judged by the cloud's clock, not the
// provider's (the data-loss oracle found them unnamed once the cloud's clock ran ahead): a set
// made, then the cloud eight days on, is older than a 7-day retention, and the plan names it.
func TestDataLoss_retentionShortenedByTheCloudsClock(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: w.clock.Now(), BackupRetention: 30})
	if err != nil {
		t.Fatal(err)
	}
	policy := func(days int) []oracleResource {
		return backupPolicyResources(id, map[string]any{"backup_retention_period": days, "log_backup_retention_period": 7})
	}
	w.applyChecked(t, "adopt", policy(30))
	if _, err := env.api.CreateBackup(context.Background(), &rdsapi.CreateBackupRequest{DBInstanceID: id, BackupMethod: rdsapi.BackupMethodSnapshot}); err != nil {
		t.Fatal(err)
	}
	env.sim.AdvanceClock(8 * 24 * time.Hour)
	env.sim.ResetStats()
	plan := w.applyChecked(t, "shorten", policy(7))
	expectWarning(t, "shorten", plan, backupPolicyRes, regexp.MustCompile(`deletes \d+ backup sets of `+id))
	if gone := env.sim.DataDeleted(); len(gone) == 0 {
		t.Errorf("shorten: the cloud deleted no set; the test needs one older than 7 days")
	}
}
