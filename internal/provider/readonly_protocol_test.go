package provider

import (
	"fmt"
	"math/big"
	"testing"
)

// readonlyOnResources is roAccPrimary(false) and one read-only instance (roAccReplicas) of class
// and storage with atomic_write_16k = flag, at the protocol.
func readonlyOnResources(withRO bool, class string, storage int, flag bool) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "orders", "atomic_write_16k": false}
	order := []oracleResource{{addr: "rds_instance.primary", attrs: primary}}
	if !withRO {
		return order
	}
	return append(order, oracleResource{addr: testRO, attrs: map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"},
		"instance_type": class, "storage": storage, "instance_name": "reporting-0", "atomic_write_16k": flag}})
}

// A read-only instance with 16K on under a primary with it off: created and turned on with one
// restart of its own (the primary's none); class and storage together in one ModifyDBInstanceSpec
// and one restart; turned off again (allowed: the primary has it off). The steps and checks of a
// terraform test, played at the plugin protocol (the read-only family keeps its other terraform
// tests).
func TestReadonlyInstanceOnWhilePrimaryOff(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const medium, large = "mysqlro.n2.medium.1c", "mysqlro.n2.large.1c"
	step := func(name string, order []oracleResource, checks ...func() error) *oraclePlan {
		t.Helper()
		plan, err := w.applyStep(order, func() {
			for _, c := range checks {
				if err := c(); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return plan
	}
	flagOf := func(addr string) bool {
		var on bool
		if err := attrOf(w.state[addr], "atomic_write_16k").As(&on); err != nil {
			t.Fatalf("%s.atomic_write_16k: %v", addr, err)
		}
		return on
	}
	restarts := func(addr string, want int) func() error {
		return func() error {
			if got := env.restarts(w.stateAttr(t, addr, "id")); got != want {
				return fmt.Errorf("%s restarted %d times, want %d", addr, got, want)
			}
			return nil
		}
	}
	specs := func(want int) func() error {
		return func() error {
			if n := env.requests("ModifyDBInstanceSpec"); n != want {
				return fmt.Errorf("ModifyDBInstanceSpec sent %d times in total, want %d", n, want)
			}
			return nil
		}
	}
	state := func(class string, storage int64, flag bool) func() error {
		return func() error {
			var size big.Float
			if err := attrOf(w.state[testRO], "storage").As(&size); err != nil {
				return err
			}
			gotStorage, _ := size.Int64()
			if got := w.stateAttr(t, testRO, "instance_type"); got != class || gotStorage != storage || flagOf(testRO) != flag {
				return fmt.Errorf("read-only instance state %s, %d GB, 16K %v; want %s, %d GB, %v", got, gotStorage, flagOf(testRO), class, storage, flag)
			}
			return nil
		}
	}
	step("primary", readonlyOnResources(false, "", 0, false))
	step("read-only on", readonlyOnResources(true, medium, 100, true), restarts(testRO, 1), restarts("rds_instance.primary", 0), specs(1),
		func() error {
			if !flagOf(testRO) || flagOf("rds_instance.primary") {
				return fmt.Errorf("atomic_write_16k: read-only %v, primary %v; want true, false", flagOf(testRO), flagOf("rds_instance.primary"))
			}
			return nil
		})
	// Class and storage together: one ModifyDBInstanceSpec, one restart.
	plan := step("class and storage", readonlyOnResources(true, large, 120, true), restarts(testRO, 2), specs(2),
		state(large, 120, true))
	if a := plan.res[testRO].action; a != actUpdate {
		t.Errorf("class and storage: planned %s, want update", a)
	}
	// Turning it off again is allowed: the primary has it off.
	step("off", readonlyOnResources(true, large, 120, false), restarts(testRO, 3), state(large, 120, false))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := roAccCheckDestroy(env)(nil); err != nil {
		t.Error(err)
	}
}
