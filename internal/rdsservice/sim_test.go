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

// The wait of issue 8 as behaviour on a fake clock shared by the simulator and the waiter: it ends
// within one poll interval of the instance being back and polls densely only near the end. The
// wall-clock ratio is measured by `make bench` (figure 2), never asserted here.
func TestApplySpecChangeOnSimulatorWaitEndsSoonAfterRestart(t *testing.T) {
	const (
		restart = time.Minute
		flagLag = 2 * time.Second
		minPoll = time.Second
	)
	// Near the real time: the client signs requests with the wall clock.
	clock := &fakeClock{now: time.Now().UTC()}
	opts := simulator.Options{RestartDuration: restart, FlagLag: flagLag, Now: clock.Now}
	e := newMatrixEnvWith(t, opts)
	id := seedYiTian(t, e.sim)
	w := &Waiter{API: e.api, Clock: clock, MinInterval: minPoll, MaxInterval: 10 * time.Second, ExpectedRestart: restart}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	e.sim.ResetStats()

	start := clock.Now()
	attr, err := ApplySpecChange(ctx, e.api, w, id, &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	if err != nil {
		t.Fatal(err)
	}
	waited := clock.since(start)
	stats := e.sim.Stats()
	polls := stats.Requests["DescribeDBInstanceAttribute"]
	t.Logf("toggle: %v on the fake clock for a %v restart (+%v flag lag), %d polls", waited, restart, flagLag, polls)
	if !FlagIs(attr, true) || !IsRunning(attr) {
		t.Fatalf("the wait returned %s with the flag not on", attr.DBInstanceStatus)
	}
	if stats.Restarts[id] != 1 {
		t.Fatalf("restarts = %d, want 1", stats.Restarts[id])
	}
	if waited < restart || waited > restart+flagLag+minPoll {
		t.Fatalf("the wait took %v; want between %v (the restart) and %v (restart, flag lag and one poll interval)", waited, restart, restart+flagLag+minPoll)
	}
	// One poll right after the order, one after sleeping 90% of the restart, then one per
	// MinInterval over the last 10% and the flag lag: about 10. Backing off from the start
	// instead would overshoot; polling every MinInterval throughout would take about 60.
	if maxPolls := 2 + int((restart/10+flagLag)/minPoll) + 2; polls > maxPolls {
		t.Fatalf("%d polls for one restart, want at most %d", polls, maxPolls)
	}
}
