package rdsservice

// ApplySpecChange and the waiter against the simulator through the real client: lost responses,
// restart counts, and the wait overhead of issue 8.

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// dropModify makes the simulator carry out ModifyDBInstanceSpec and lose the answer, for the
// first n calls (the client's own resends included).
type dropModify struct {
	rdsapi.API
	sim  *simulator.Simulator
	n    int
	errs []error
}

func (d *dropModify) ModifyDBInstanceSpec(ctx context.Context, req *rdsapi.ModifyDBInstanceSpecRequest) (*rdsapi.ModifyDBInstanceSpecResponse, error) {
	if d.n > 0 {
		d.n--
		d.sim.SetFaults(simulator.Faults{DropResponseRate: 1})
		defer d.sim.SetFaults(simulator.Faults{})
	}
	resp, err := d.API.ModifyDBInstanceSpec(ctx, req)
	d.errs = append(d.errs, err)
	return resp, err
}

func seedYiTian(t *testing.T, sim *simulator.Simulator) string {
	t.Helper()
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2m.medium.2c",
		Storage: 100, StorageType: "cloud_essd", Category: "HighAvailability", PurchaseTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestApplySpecChangeOnSimulatorLostResponseRestartsOnce(t *testing.T) {
	opts := simulator.Options{RestartDuration: 200 * time.Millisecond, FlagLag: 50 * time.Millisecond}
	e := newMatrixEnvWith(t, opts)
	id := seedYiTian(t, e.sim)
	api := &dropModify{API: e.api, sim: e.sim, n: 1}
	w := &Waiter{API: e.api, Clock: RealClock{}, MinInterval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	e.sim.ResetStats()

	attr, err := ApplySpecChange(ctx, api, w, id, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceClass: "mysql.n2m.large.2c"}, boolPtr(true))
	if err != nil {
		t.Fatal(err)
	}
	if !FlagIs(attr, true) || attr.DBInstanceClass != "mysql.n2m.large.2c" || !IsRunning(attr) {
		t.Fatalf("got %s %s flag=%v", attr.DBInstanceStatus, attr.DBInstanceClass, FlagIs(attr, true))
	}
	if len(api.errs) != 1 || api.errs[0] == nil {
		t.Fatalf("want exactly one ModifyDBInstanceSpec call, answered by a lost response; got %v", api.errs)
	}
	stats := e.sim.Stats()
	if n := stats.Restarts[id]; n != 1 {
		t.Fatalf("instance restarted %d times for one planned change", n)
	}
	t.Logf("ModifyDBInstanceSpec requests seen by the simulator: %d", stats.Requests["ModifyDBInstanceSpec"])
}

func TestApplySpecChangeOnSimulatorWaitOverhead(t *testing.T) {
	restart := 600 * time.Millisecond
	opts := simulator.Options{RestartDuration: restart, FlagLag: time.Nanosecond}
	e := newMatrixEnvWith(t, opts)
	id := seedYiTian(t, e.sim)
	w := &Waiter{API: e.api, Clock: RealClock{}, MinInterval: 10 * time.Millisecond, MaxInterval: time.Second, ExpectedRestart: restart}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()

	start := time.Now()
	if _, err := ApplySpecChange(ctx, e.api, w, id, &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true)); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	ratio := float64(elapsed) / float64(restart)
	t.Logf("toggle took %v for a %v restart (ratio %.3f)", elapsed, restart, ratio)
	// Issue 8's target is 1.10 on the wait; allow a little for loopback HTTP on a loaded machine.
	if ratio > 1.15 {
		t.Fatalf("wait overhead ratio %.3f", ratio)
	}
}
