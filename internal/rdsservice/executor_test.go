package rdsservice

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// executorInput plans turning 16K atomic write on for an instance that has it off, against the
// instance as it is now, and returns the executor's input.
func executorInput(t *testing.T, e *matrixEnv, id, applyRestarts string) Execution {
	t.Helper()
	attr, err := e.api.DescribeDBInstanceAttribute(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := ExistingFromAttribute(attr)
	if err != nil {
		t.Fatal(err)
	}
	in := PlanInput{Label: id, Prior: &prior, Facts: Facts{Now: e.waiter.Now()}, Desired: Desired{
		Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known(attr.DBInstanceClass), Storage: Known(int64(attr.DBInstanceStorage)), AtomicWrite: Known(true),
		ApplyRestarts: applyRestarts, MaintenanceWindow: Known(attr.MaintainTime)}}
	d := Plan(in)
	if d.HasErrors() || d.Order.AtomicWrite == nil {
		t.Fatalf("plan: %+v", d)
	}
	return Execution{Plan: in, Decision: d, ID: id, TargetClass: attr.DBInstanceClass, TargetStorage: int64(attr.DBInstanceStorage)}
}

func seedOff(t *testing.T, sim *simulator.Simulator) string {
	t.Helper()
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Someone moves the instance to storage that cannot have 16K atomic write after the plan: the
// executor reads it again before the order, decides again, and sends nothing (changed-since-plan).
func TestExecuteDecidesAgainWhenTheInstanceChangedSincePlan(t *testing.T) {
	e := newMatrixEnv(t)
	id := seedOff(t, e.sim)
	exec := executorInput(t, e, id, ApplyRestartsImmediately)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := ApplySpecChange(ctx, e.api, e.waiter, id, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceStorageType: "cloud_ssd"}, nil); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	out := Execute(ctx, e.api, e.waiter, exec)
	var refused *ChangedSincePlanError
	if !errors.As(out.Err, &refused) || len(refused.Problems) == 0 || !ChangedOutside(out.Err) {
		t.Fatalf("outcome %+v, want a changed-since-plan refusal", out)
	}
	if n := e.sim.Stats().Requests["ModifyDBInstanceSpec"]; n != 0 {
		t.Fatalf("%d ModifyDBInstanceSpec sent after the refusal, want 0", n)
	}
}

// A deferred program sends its order for the window and returns at once with the cloud's task:
// no restart, the instance unchanged until the window.
func TestExecuteDefersToTheWindow(t *testing.T) {
	e := newMatrixEnv(t)
	id := seedOff(t, e.sim)
	// The seed's window is open for part of the day, when the cloud runs a deferred order at once:
	// this order waits for a window that opens six hours from now.
	closeWindow(t, e.api, id, time.Now())
	exec := executorInput(t, e, id, ApplyRestartsInWindow)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	e.sim.ResetStats()
	out := Execute(ctx, e.api, e.waiter, exec)
	if out.Err != nil || !out.Deferred || out.Scheduled == nil || out.Scheduled.TaskType != rdsapi.TaskTypeModifySpec || out.ChangedNow {
		t.Fatalf("outcome %+v", out)
	}
	if FlagIs(out.Instance, true) || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("the instance changed before the window: flag %v, %d restarts", FlagIs(out.Instance, true), e.sim.Stats().Restarts[id])
	}
}
