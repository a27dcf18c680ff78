package simulator

import (
	"slices"
	"testing"
	"time"
)

// deletedKinds are the kinds of Deletion of instance id, once each, in order.
func deletedKinds(list []Deletion, id string) []string {
	var out []string
	for _, d := range list {
		if d.Instance == id && !slices.Contains(out, d.Kind) {
			out = append(out, d.Kind)
		}
	}
	return out
}

// Issue 46 §4: every deletion a request causes is recorded (a shorter backup retention, audit
// retention or cross-region retention, audit turned off, a dropped database, a cloud-disk instance's
// release with its copies); what merely ages out on the clock, and a longer retention, are not.
func TestDataDeletedRecordsEveryLoss(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	audit := func(enable, days string) {
		e.c.ok("ModifySqlLogConfig", map[string]string{"InstanceId": id, "Enable": enable, "Retention": days, "HotRetention": "7"})
	}
	audit("true", "30")
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "30"))
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf8mb4"})
	crossOn(e, id, "30")
	e.sim.AdvanceClock(10 * 24 * time.Hour)
	e.sim.ResetStats()
	audit("true", "180")
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "60"))
	if got := e.sim.DataDeleted(); len(got) != 0 {
		t.Fatalf("longer retentions deleted %v, want nothing", got)
	}
	audit("true", "7")
	e.c.ok("ModifyBackupPolicy", dataPolicyParams(id, "BackupRetentionPeriod", "7"))
	e.c.ok("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1", "CrossBackupRegion": "cn-shanghai", "Retention": "7"})
	e.c.ok("DeleteDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders"})
	want := []string{DeletedAuditLogs, DeletedBackupSet, DeletedCrossRegion, DeletedDatabase}
	if got := deletedKinds(e.sim.DataDeleted(), id); !slices.Equal(got, want) {
		t.Fatalf("shorter retentions and a drop deleted %v, want %v", got, want)
	}
	e.sim.ResetStats()
	audit("false", "7")
	if got := deletedKinds(e.sim.DataDeleted(), id); !slices.Equal(got, []string{DeletedAuditLogs}) {
		t.Fatalf("audit turned off: deleted %v, want the logs", got)
	}
	crossOn(e, id, "30")
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "audit", "CharacterSetName": "utf8mb4"})
	e.sim.ResetStats()
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
	e.clock.Add(deleteD)
	if got := deletedKinds(e.sim.DataDeleted(), id); !slices.Equal(got, []string{DeletedCrossRegion, DeletedDatabase}) {
		t.Fatalf("release of a cloud-disk instance: deleted %v, want its cross-region copies and its database", got)
	}
}
