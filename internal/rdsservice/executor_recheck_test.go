package rdsservice

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// renameAndParameterInput plans renaming the instance and changing an online parameter, with
// prevent_restart = true and atomic_write_16k = false, against the instance as it is now.
func renameAndParameterInput(t *testing.T, e *matrixEnv, id string) Execution {
	t.Helper()
	attr, err := e.api.DescribeDBInstanceAttribute(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := ExistingFromAttribute(attr)
	if err != nil {
		t.Fatal(err)
	}
	name := "orders-db"
	current := SettingsOf(attr)
	in := PlanInput{Label: id, Prior: &prior, Facts: Facts{Now: e.waiter.Now(), Parameters: planFacts(map[string]string{"innodb_io_capacity": "20000"}, nil)},
		Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
			InstanceClass: Known(attr.DBInstanceClass), Storage: Known(int64(attr.DBInstanceStorage)), AtomicWrite: Known(false),
			ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known(attr.MaintainTime), InPlaceChanges: true, PreventRestart: true,
			Parameters: paramDesired(map[string]string{"innodb_io_capacity": "4000"})}}
	d := Plan(in)
	if d.HasErrors() || len(d.Parameters.Send) != 1 {
		t.Fatalf("plan: %+v", d)
	}
	want := current
	want.Name = &name
	return Execution{Plan: in, Decision: d, ID: id, Settings: want, Current: &current,
		TargetClass: attr.DBInstanceClass, TargetStorage: int64(attr.DBInstanceStorage)}
}

// The executor reads the instance again before a ModifyParameter and before each settings call,
// not only before spec orders. 16K atomic write turned on outside Terraform after the plan means
// the configuration's false now restarts the instance, which prevent_restart refuses: the
// instance gets neither write (0 stale writes), and the refusal says why. Unchanged, it gets both.
func TestExecuteRechecksBeforeEveryWrite(t *testing.T) {
	e := newMatrixEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	writes := func() int {
		s := e.sim.Stats().Requests
		return s["ModifyParameter"] + s["ModifyDBInstanceDescription"] + s["ModifySecurityIps"] + s["ModifyDBInstanceDeletionProtection"] + s["ModifyDBInstanceMaintainTime"]
	}

	changed := seedOff(t, e.sim)
	exec := renameAndParameterInput(t, e, changed)
	turnOn(t, e, changed)
	e.sim.ResetStats()
	out := Execute(ctx, e.api, e.waiter, exec)
	var refused *ChangedSincePlanError
	if !errors.As(out.Err, &refused) || !ChangedOutside(out.Err) || out.Step != "setting the parameters" {
		t.Fatalf("turned on after the plan: outcome %+v, want a changed-since-plan refusal before the parameters", out)
	}
	if n := writes(); n != 0 {
		t.Fatalf("turned on after the plan: %d writes sent (%v), want 0", n, e.sim.Stats().Requests)
	}

	// The settings call is checked too: a plan with only the rename.
	renameOnly := renameAndParameterInput(t, e, seedOff(t, e.sim))
	renameOnly.Plan.Desired.Parameters = DesiredParameters{}
	renameOnly.Plan.Facts.Parameters = nil
	renameOnly.Decision = Plan(renameOnly.Plan)
	turnOn(t, e, renameOnly.ID)
	e.sim.ResetStats()
	if out := Execute(ctx, e.api, e.waiter, renameOnly); !ChangedOutside(out.Err) || writes() != 0 {
		t.Fatalf("rename of an instance turned on after the plan: outcome %+v, %d writes, want a refusal and none", out, writes())
	}

	unchanged := seedOff(t, e.sim)
	exec = renameAndParameterInput(t, e, unchanged)
	e.sim.ResetStats()
	if out := Execute(ctx, e.api, e.waiter, exec); out.Err != nil {
		t.Fatalf("unchanged: %v", out.Err)
	}
	s := e.sim.Stats().Requests
	if s["ModifyParameter"] != 1 || s["ModifyDBInstanceDescription"] != 1 {
		t.Fatalf("unchanged: requests %v, want one ModifyParameter and one ModifyDBInstanceDescription", s)
	}
	attr, err := e.api.DescribeDBInstanceAttribute(ctx, unchanged)
	if err != nil || attr.DBInstanceDescription != "orders-db" {
		t.Fatalf("unchanged: name %v (%v)", attr, err)
	}
}

func turnOn(t *testing.T, e *matrixEnv, id string) {
	t.Helper()
	on := true
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := ApplySpecChange(ctx, e.api, e.waiter, id, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, OptimizedWrites: rdsapi.OptimizedWritesOn}, &on); err != nil {
		t.Fatal(err)
	}
}
