package simulator

import (
	"testing"
	"time"
)

func specParams(id, class string, extra ...string) map[string]string {
	p := map[string]string{"DBInstanceId": id, "DBInstanceClass": class}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	return p
}

// A Basic MySQL instance ordered to a High-availability class becomes High-availability in place:
// one restart, a standby reported in SlaveZones, the id kept.
func TestEditionUpgradeInPlace(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1", "OptimizedWrites": "none"})
	if zones := e.attr(id)["SlaveZones"].(map[string]any)["SlaveZone"].([]any); len(zones) != 0 {
		t.Fatalf("a Basic instance reports standby zones %v", zones)
	}
	e.c.ok("ModifyDBInstanceSpec", specParams(id, "mysql.n2.medium.2c", "Category", "HighAvailability"))
	e.settle()
	a := e.attr(id)
	zones := a["SlaveZones"].(map[string]any)["SlaveZone"].([]any)
	if a["Category"] != "HighAvailability" || a["DBInstanceClass"] != "mysql.n2.medium.2c" || a["DBInstanceStatus"] != statusRunning || len(zones) != 1 {
		t.Fatalf("after the upgrade: %v %v %v %v", a["Category"], a["DBInstanceClass"], a["DBInstanceStatus"], zones)
	}
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("the upgrade restarted %d times, want 1", n)
	}
	// Without Category, the class of the new edition decides (the ModifyDBInstanceSpec reference).
	other := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1"})
	e.c.ok("ModifyDBInstanceSpec", specParams(other, "mysql.n2.medium.2c"))
	e.settle()
	if got := e.attr(other)["Category"]; got != "HighAvailability" {
		t.Fatalf("an HA class without Category left the edition %v", got)
	}
}

// Deferred to the window, the edition changes with the class when the window comes.
func TestEditionUpgradeInWindow(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1", "OptimizedWrites": "none"})
	if a := e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.n2.medium.2c", "Category": "HighAvailability"}); a.code() != "" {
		t.Fatal(a.raw)
	}
	if a := e.attr(id); a["Category"] != "Basic" || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("a deferred upgrade changed the instance at once: %v", a["Category"])
	}
	e.sim.AdvanceClock(8 * time.Hour)
	e.settle()
	if a := e.attr(id); a["Category"] != "HighAvailability" || a["DBInstanceClass"] != "mysql.n2.medium.2c" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %v %v, %d restarts", a["Category"], a["DBInstanceClass"], e.sim.Stats().Restarts[id])
	}
}

// The edition refusals: HA -> Basic, Basic -> cluster, a Basic class with Category=HighAvailability,
// 16K atomic write turned on with the upgrade, an unknown edition. None changes the instance.
func TestEditionUpgradeRefusals(t *testing.T) {
	e := newEnv(t)
	ha := e.create(nil)
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceClass": "mysql.n2.medium.1", "OptimizedWrites": "none"})
	for _, c := range []struct {
		name string
		p    map[string]string
		code string
	}{
		{"HA to Basic", specParams(ha, "mysql.n2.medium.1", "Category", "Basic"), "OperationDenied.Category"},
		{"Basic class on HA", specParams(ha, "mysql.n2.medium.1"), "InvalidDBInstanceClass.NotFound"},
		{"Basic to cluster", specParams(basic, "mysql.n2.medium.2c", "Category", "cluster"), "OperationDenied.Category"},
		{"Basic class kept", specParams(basic, "mysql.n2.medium.1", "Category", "HighAvailability"), "InvalidDBInstanceClass.NotFound"},
		{"16K with the upgrade", specParams(basic, "mysql.n2.medium.2c", "Category", "HighAvailability", "OptimizedWrites", "optimized"), "OptimizedWrites.BasicEditionNotSupported"},
		{"unknown edition", specParams(basic, "mysql.n2.medium.2c", "Category", "Premium"), "InvalidParameter"},
	} {
		if a := e.c.call("ModifyDBInstanceSpec", c.p); a.code() != c.code {
			t.Errorf("%s: got %s, want %s", c.name, a.raw, c.code)
		}
	}
	for id, want := range map[string]string{ha: "HighAvailability", basic: "Basic"} {
		if n, got := e.sim.Stats().Restarts[id], e.attr(id)["Category"]; n != 0 || got != want {
			t.Fatalf("a refused order changed %s: %d restarts, category %v", id, n, got)
		}
	}
}
