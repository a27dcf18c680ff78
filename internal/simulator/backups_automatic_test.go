package simulator

import (
	"testing"
	"time"
)

// Automatic backups follow the policy on the simulator's clock: one set at each window start on a
// day of the period, none before the instance existed, none older than the retention; a changed
// window applies to the next day on.
func TestAutomaticBackupsFollowThePolicy(t *testing.T) {
	e := newEnv(t) // the clock starts on Sunday 2026-03-01 10:00Z
	id := e.create(nil)
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "PreferredBackupTime", "05:00Z-06:00Z", "PreferredBackupPeriod", "Monday,Wednesday", "BackupRetentionPeriod", "7"))
	e.clock.Add(3 * 24 * time.Hour) // Wednesday 10:00Z: Monday and Wednesday at 05:00Z have passed
	auto := func() []map[string]any {
		return backupItems(e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "BackupMode": "Automated"}))
	}
	got := auto()
	if len(got) != 2 || got[0]["BackupStartTime"] != "2026-03-02T05:00Z" || got[1]["BackupStartTime"] != "2026-03-04T05:00Z" ||
		got[0]["BackupInitiator"] != "System" || got[0]["BackupMethod"] != "Snapshot" {
		t.Fatalf("automatic sets after three days: %v", got)
	}
	if again := auto(); len(again) != 2 {
		t.Fatalf("asking again made more sets: %d", len(again))
	}
	e.clock.Add(30 * 24 * time.Hour)
	got = auto()
	if len(got) < 2 || len(got) > 3 {
		t.Fatalf("a 7-day retention keeps two or three Monday/Wednesday sets, got %d: %v", len(got), got)
	}
	for _, b := range got {
		start, _ := time.Parse(apiMinuteLayout, b["BackupStartTime"].(string))
		if e.clock.Now().Sub(start) > 7*24*time.Hour || (start.Weekday() != time.Monday && start.Weekday() != time.Wednesday) || start.Hour() != 5 {
			t.Fatalf("set outside the policy or the retention: %v", b)
		}
	}
}
