package simulator

import (
	"testing"
	"time"
)

// A disk-quota lock lifts by itself DiskQuotaUnlockDelay after a storage growth takes effect (Alibaba:
// about 5 minutes after the expansion), not at once and never without a growth; until then every
// other write is still refused.
func TestDiskQuotaLockLiftsAfterGrowth(t *testing.T) {
	const unlock = 5 * time.Minute
	e := newEnv(t, func(o *Options) { o.DiskQuotaUnlockDelay = unlock })
	id := e.create(nil)
	e.clock.Add(createD)
	desc := map[string]string{"DBInstanceId": id, "DBInstanceDescription": "renamed"}
	if err := e.sim.SetInstanceState(id, InstanceState{LockMode: lockByDiskQuota}); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(time.Hour) // no growth: the lock holds
	if got := e.attr(id)["LockMode"]; got != lockByDiskQuota {
		t.Fatalf("an hour later without a growth, LockMode = %v", got)
	}
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200"})
	e.c.fails("ModifyDBInstanceDescription", desc, 403, "IncorrectDBInstanceLockMode")
	e.clock.Add(unlock - time.Second)
	if got := e.attr(id)["LockMode"]; got != lockByDiskQuota {
		t.Fatalf("before the unlock delay is over, LockMode = %v", got)
	}
	e.clock.Add(time.Second)
	if got := e.attr(id)["LockMode"]; got != lockUnlocked {
		t.Fatalf("after the unlock delay, LockMode = %v", got)
	}
	e.c.ok("ModifyDBInstanceDescription", desc)
}

// A growth that waits for a restart lifts the lock only once the instance runs again.
func TestDiskQuotaLockLiftsAfterTheGrowthsRestart(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.DiskQuotaUnlockDelay = time.Minute })
	id := e.create(nil)
	e.clock.Add(createD)
	if err := e.sim.SetInstanceState(id, InstanceState{LockMode: lockByDiskQuota}); err != nil {
		t.Fatal(err)
	}
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200", "DBInstanceClass": "mysql.n2.large.2c"})
	e.clock.Add(restartD - time.Second)
	if a := e.attr(id); a["LockMode"] != lockByDiskQuota || a["DBInstanceStatus"] != statusClassChanging {
		t.Fatalf("restarting for the growth: %v %v", a["DBInstanceStatus"], a["LockMode"])
	}
	e.clock.Add(time.Second) // Running on 200 GB from here
	if got := e.attr(id)["LockMode"]; got != lockByDiskQuota {
		t.Fatalf("just back from the restart: LockMode = %v", got)
	}
	e.clock.Add(time.Minute)
	if got := e.attr(id)["LockMode"]; got != lockUnlocked {
		t.Fatalf("after the restart and the delay, LockMode = %v", got)
	}
}
