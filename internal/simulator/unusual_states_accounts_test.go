package simulator

import "testing"

// A locked instance refuses account and database writes as it refuses every other write.
func TestLockedInstanceRefusesAccountWrites(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	if err := e.sim.SetInstanceState(id, InstanceState{LockMode: "ManualLock", LockReason: "instance_locked"}); err != nil {
		t.Fatal(err)
	}
	e.c.fails("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "app", "CharacterSetName": "utf8mb4"}, 403, "IncorrectDBInstanceLockMode")
	e.c.ok("DescribeDatabases", map[string]string{"DBInstanceId": id})
}
