package rdsservice

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func growthSteps(p Program) []string {
	var out []string
	for _, op := range p.Operations {
		switch op.Action {
		case OpModifySpec, OpWaitUnlocked, OpTransformPayType, OpModifySettings:
			out = append(out, op.Action)
		}
	}
	return out
}

// An instance locked by disk quota takes a storage growth, which lifts the lock some minutes later;
// a change of pay type beside it goes after the growth and the wait for the lock to lift, and the
// plan warns of no lock. A growth that waits for the window lifts nothing during the apply: the
// plan warns that the locked instance refuses the change of pay type.
func TestProgramGrowthLiftsDiskQuotaLockBeforeBilling(t *testing.T) {
	post := Billing{PayType: PayTypePostpaid}
	for _, c := range []struct {
		name        string
		storageType string
		restarts    string
		want, prior Billing
		steps       []string
		warned      bool
	}{
		{"buy", "cloud_essd", ApplyRestartsImmediately, monthly(1, false), post,
			[]string{OpModifySpec, OpWaitUnlocked, OpModifySettings, OpTransformPayType}, false},
		{"buy, the restarts in the window", "cloud_essd", ApplyRestartsInWindow, monthly(1, false), post,
			[]string{OpModifySpec, OpWaitUnlocked, OpModifySettings, OpTransformPayType}, false},
		{"end", "cloud_essd", ApplyRestartsImmediately, post, monthly(1, false),
			[]string{OpModifySpec, OpWaitUnlocked, OpTransformPayType, OpModifySettings}, false},
		{"local disk growth in the window", "local_ssd", ApplyRestartsInWindow, monthly(1, false), post,
			[]string{OpModifySpec, OpModifySettings, OpTransformPayType}, true},
	} {
		prior := programPrior()
		prior.LockMode, prior.StorageType = "LockByDiskQuota", c.storageType
		desired := billingPlan(c.want, &c.prior)
		desired.StorageType, desired.Storage, desired.ApplyRestarts = Known(c.storageType), Known(int64(40)), c.restarts
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
		if got := growthSteps(d.Program); !reflect.DeepEqual(got, c.steps) {
			t.Errorf("%s: program %v, want %v", c.name, got, c.steps)
		}
		if got := slicesContains(rulesOf(d.Problems), RuleInstanceLocked); got != c.warned {
			t.Errorf("%s: lock warned %t, want %t: %v", c.name, got, c.warned, rulesOf(d.Problems))
		}
	}
	unlocked := programPrior()
	desired := billingPlan(monthly(1, false), &post)
	desired.Storage = Known(int64(40))
	if got := growthSteps(Plan(PlanInput{Label: "rm-1", Prior: &unlocked, Desired: desired, Facts: Facts{Now: time.Now()}}).Program); slicesContainsString(got, OpWaitUnlocked) {
		t.Errorf("an unlocked instance waits for no unlock: %v", got)
	}
}

func slicesContainsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Against the simulator (the lock lifts 5 minutes after the growth, on a clock shared with the
// waiter): the apply grows the storage, waits for the lock to lift, and buys the subscription.
func TestExecuteBuysOnceTheGrowthLiftedTheDiskQuotaLock(t *testing.T) {
	clock := &fakeClock{now: time.Now().UTC()}
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: time.Second, DiskQuotaUnlockDelay: 5 * time.Minute, Now: clock.Now})
	w := &Waiter{API: e.api, Clock: clock, MinInterval: 10 * time.Second, MaxInterval: time.Minute}
	id := seedOff(t, e.sim)
	if err := e.sim.SetInstanceState(id, simulator.InstanceState{LockMode: "LockByDiskQuota"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	attr, err := e.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := ExistingFromAttribute(attr)
	if err != nil {
		t.Fatal(err)
	}
	post := Billing{PayType: PayTypePostpaid}
	desired := billingPlan(monthly(1, false), &post)
	desired.Storage, desired.MaintenanceWindow = Known(int64(40)), Known(attr.MaintainTime)
	in := PlanInput{Label: id, Prior: &prior, Desired: desired, Facts: Facts{Now: w.Now()}}
	d := Plan(in)
	if d.HasErrors() {
		t.Fatalf("plan: %v", d.Problems)
	}
	out := Execute(ctx, e.api, w, Execution{Plan: in, Decision: d, ID: id, TargetClass: attr.DBInstanceClass, TargetStorage: 40})
	if out.Err != nil {
		t.Fatalf("%s: %v", out.Step, out.Err)
	}
	after, err := e.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.PayType != PayTypePrepaid || after.DBInstanceStorage != 40 || IsLocked(after.LockMode) {
		t.Fatalf("after the apply: %s, %d GB, lock %q", after.PayType, after.DBInstanceStorage, after.LockMode)
	}
}
