package rdsservice

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func boolPtr(b bool) *bool { return &b }

func toggleSetup(t *testing.T) (*fakeClock, *fakeAPI, *Waiter) {
	t.Helper()
	clock := newFakeClock()
	api := newFakeAPI(clock)
	api.restart = 30 * time.Second
	api.lag = 4 * time.Second
	api.add("rm-a", false, true)
	w := &Waiter{API: api, Clock: clock, MinInterval: time.Second, MaxInterval: 5 * time.Second, FlagGrace: 20 * time.Second}
	return clock, api, w
}

func checkToggledOnce(t *testing.T, api *fakeAPI, attr *rdsapi.DBInstanceAttribute, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if len(api.applied) != 1 || api.restarts != 1 {
		t.Fatalf("carried out %d modifies (%d restarts), want exactly 1", len(api.applied), api.restarts)
	}
	if attr.DBInstanceStatus != rdsapi.StatusRunning || !attr.OptimizedWrites.Enabled {
		t.Fatalf("returned %s flag=%v", attr.DBInstanceStatus, attr.OptimizedWrites.Enabled)
	}
}

// A flag-only change sends the flag and the current class (the cloud needs class or storage), and
// nothing else: no storage or storage type that could undo someone else's change.
func TestApplySpecChangeSendsOneRequestWithCurrentClassOnly(t *testing.T) {
	clock, api, w := toggleSetup(t)
	api.insts["rm-a"].busyUntil = clock.Now().Add(10 * time.Second) // still busy from an earlier task
	t0 := clock.Now()
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	checkToggledOnce(t, api, attr, err)
	got := api.applied[0]
	want := rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: "rm-a", DBInstanceClass: "mysql.n2.medium.2c",
		OptimizedWrites: rdsapi.OptimizedWritesOn}
	if got != want {
		t.Fatalf("sent %+v\nwant %+v", got, want)
	}
	if api.modifyCalls != 1 {
		t.Fatalf("%d modify calls; the wait for Running should come first", api.modifyCalls)
	}
	// 10 s busy + 30 s restart + 4 s flag lag; each of the two waits overshoots by at most MaxInterval.
	if el := clock.since(t0); el < 44*time.Second || el > 54*time.Second {
		t.Fatalf("took %v", el)
	}
}

func TestApplySpecChangeExpectedRestartKeepsOverheadLow(t *testing.T) {
	clock, api, w := toggleSetup(t)
	api.lag = 0
	w.MaxInterval = 30 * time.Second
	w.ExpectedRestart = 30 * time.Second
	t0 := clock.Now()
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	checkToggledOnce(t, api, attr, err)
	if ratio := float64(clock.since(t0)) / float64(api.restart); ratio > 1.10 {
		t.Fatalf("wait/restart ratio %.3f > 1.10", ratio)
	}
}

func TestApplySpecChangeRetriesBusyUntilAccepted(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.modifyScript = []modifyOutcome{{err: errBusy}, {err: apiErr("IncorrectDBInstanceState", 400)}, {err: errThrottled}}
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	checkToggledOnce(t, api, attr, err)
	if api.modifyCalls != 4 {
		t.Fatalf("%d calls, want 3 refused + 1 accepted", api.modifyCalls)
	}
}

func TestApplySpecChangeLostResponseIsNotResent(t *testing.T) {
	for _, lostErr := range []error{errLost, errInternal} {
		_, api, w := toggleSetup(t)
		api.modifyScript = []modifyOutcome{{carriedOut: true, err: lostErr}}
		attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
		checkToggledOnce(t, api, attr, err)
		if api.modifyCalls != 1 {
			t.Fatalf("%v: %d modify calls after a lost response to a carried-out request", lostErr, api.modifyCalls)
		}
	}
}

func TestApplySpecChangeResendsWhenTheLostRequestDidNothing(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.modifyScript = []modifyOutcome{{carriedOut: false, err: errLost}}
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	checkToggledOnce(t, api, attr, err)
	if api.modifyCalls != 2 {
		t.Fatalf("%d calls, want 2 (the first never reached the cloud)", api.modifyCalls)
	}
}

// A client that resent a carried-out request on its own surfaces the cloud's busy answer to the
// second copy. The flag then lags behind Running; ApplySpecChange must wait for it instead of
// toggling again.
func TestApplySpecChangeBusyAfterHiddenAcceptWaitsForLaggingFlag(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.modifyScript = []modifyOutcome{{carriedOut: true, err: errBusy}}
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	checkToggledOnce(t, api, attr, err)
	if api.modifyCalls != 1 {
		t.Fatalf("%d modify calls; want no resend", api.modifyCalls)
	}
}

func TestApplySpecChangeNoChangeSendsNothing(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.insts["rm-a"].flag, api.insts["rm-a"].target = true, true
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a",
		&rdsapi.ModifyDBInstanceSpecRequest{DBInstanceClass: "mysql.n2.medium.2c"}, boolPtr(true))
	if err != nil || attr == nil || api.modifyCalls != 0 {
		t.Fatalf("err %v, %d modify calls; a request that changes nothing must not be sent", err, api.modifyCalls)
	}
}

func TestApplySpecChangeClassAndFlagTogether(t *testing.T) {
	_, api, w := toggleSetup(t)
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a",
		&rdsapi.ModifyDBInstanceSpecRequest{DBInstanceClass: "mysql.n2.large.2c", OptimizedWrites: rdsapi.OptimizedWritesOn}, nil)
	checkToggledOnce(t, api, attr, err)
	if attr.DBInstanceClass != "mysql.n2.large.2c" || api.applied[0].DBInstanceStorage != 0 {
		t.Fatalf("class %s, sent %+v", attr.DBInstanceClass, api.applied[0])
	}
}

func TestApplySpecChangePermanentErrorAndDeadline(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.modifyScript = []modifyOutcome{{err: apiErr("OptimizedWrites.NotSupported", 400)}}
	_, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	if err == nil || !strings.Contains(err.Error(), "modifying RDS instance rm-a") || !strings.Contains(err.Error(), "OptimizedWrites.NotSupported") || api.modifyCalls != 1 {
		t.Fatalf("got %v after %d calls", err, api.modifyCalls)
	}

	clock, api, w := toggleSetup(t)
	ctx := clock.withDeadline(20 * time.Second) // shorter than the 30 s restart
	_, err = ApplySpecChange(ctx, api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	if err == nil || !strings.Contains(err.Error(), `timed out waiting for RDS instance rm-a to be Running with atomic_write_16k = true (last status "DBInstanceClassChanging", atomic_write_16k false)`) ||
		!strings.Contains(err.Error(), `still missing when it ended: atomic_write_16k = true (it is false), status Running (it is "DBInstanceClassChanging")`) {
		t.Fatalf("got %v", err)
	}
}

func TestApplySpecChangeBufferPoolExtension(t *testing.T) {
	// The fake does not report IoAccelerationEnabled: unknown means send, then do not wait on it.
	_, api, w := toggleSetup(t)
	attr, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{IoAccelerationEnabled: "1"}, nil)
	if err != nil || api.modifyCalls != 1 || !IsRunning(attr) {
		t.Fatalf("err %v, %d modify calls", err, api.modifyCalls)
	}
	// Reported and already on: nothing to send.
	_, api, w = toggleSetup(t)
	api.insts["rm-a"].attr.IoAccelerationEnabled = "1"
	if _, err := ApplySpecChange(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{IoAccelerationEnabled: "1"}, nil); err != nil || api.modifyCalls != 0 {
		t.Fatalf("err %v, %d modify calls", err, api.modifyCalls)
	}
}

// someoneElseChangesClass is another run's class change (with its restart), made once the first
// time when(f) holds.
func someoneElseChangesClass(class string, supported bool, when func(f *fakeAPI, inst *fakeInst, now time.Time) bool) func(*fakeAPI, *fakeInst, time.Time) {
	done := false
	return func(f *fakeAPI, inst *fakeInst, now time.Time) {
		if done || !when(f, inst, now) {
			return
		}
		done = true
		if !now.Before(inst.flagAt) {
			inst.flag = inst.target
		}
		inst.attr.DBInstanceClass = class
		inst.supported = supported
		if !supported {
			inst.target = false
		}
		inst.busyUntil = now.Add(f.restart)
		inst.flagAt = inst.busyUntil.Add(f.lag)
	}
}

func runningAfterOurChange(f *fakeAPI, inst *fakeInst, now time.Time) bool {
	return len(f.applied) == 1 && !now.Before(inst.busyUntil)
}

// Another run moves the instance to a class without 16K support while this change waits for the
// flag: the wait ends as soon as the instance is Running again, with an error that says so.
func TestApplySpecChangeFailsFastWhenAConcurrentChangeRulesTheFlagOut(t *testing.T) {
	clock, api, w := toggleSetup(t)
	api.onDescribe = someoneElseChangesClass("mysql.n2.large.2c", false, runningAfterOurChange)
	t0 := clock.Now()
	_, err := ApplySpecChange(clock.withDeadline(10*time.Minute), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	var conflict *ConcurrentChangeError
	if !errors.As(err, &conflict) || !conflict.Impossible {
		t.Fatalf("got %v, want an impossible *ConcurrentChangeError", err)
	}
	for _, part := range []string{"rm-a", `instance_type is "mysql.n2.large.2c" (was "mysql.n2.medium.2c")`, "atomic_write_16k_supported = false", "terraform plan"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error lacks %q: %v", part, err)
		}
	}
	// Our restart, then theirs, each seen within MaxInterval: no waiting for a flag that cannot come.
	if el := clock.since(t0); el > 2*api.restart+2*w.MaxInterval {
		t.Fatalf("took %v", el)
	}
	if api.modifyCalls != 1 {
		t.Fatalf("%d modify calls, want 1", api.modifyCalls)
	}
}

// Another run changes the class to one that keeps 16K while this change waits for the flag: the
// change is done when the flag shows, whatever the class.
func TestApplySpecChangeWaitsOnlyForWhatItAsked(t *testing.T) {
	clock, api, w := toggleSetup(t)
	api.onDescribe = someoneElseChangesClass("mysql.n2.large.2c", true, runningAfterOurChange)
	ctx := clock.withDeadline(10 * time.Minute) // a wait for the old class would end here
	attr, err := ApplySpecChange(ctx, api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true))
	if err != nil || !FlagIs(attr, true) || attr.DBInstanceClass != "mysql.n2.large.2c" {
		t.Fatalf("err %v, attr %+v", err, attr)
	}
	if api.modifyCalls != 1 {
		t.Fatalf("%d modify calls, want 1", api.modifyCalls)
	}
}

// Another run's class change makes the instance busy right when this request goes out: the resend
// carries the class as it is then, not the one read before, and the re-check sees the new class.
func TestApplySpecChangeResendKeepsAConcurrentClassChange(t *testing.T) {
	_, api, w := toggleSetup(t)
	api.modifyScript = []modifyOutcome{{err: errBusy}}
	api.onDescribe = someoneElseChangesClass("mysql.n2.large.2c", true, func(f *fakeAPI, _ *fakeInst, _ time.Time) bool { return f.modifyCalls == 1 })
	var checked []string
	check := func(a *rdsapi.DBInstanceAttribute) error { checked = append(checked, a.DBInstanceClass); return nil }
	attr, err := ApplySpecChangeChecked(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true), check)
	if err != nil || !FlagIs(attr, true) {
		t.Fatalf("err %v", err)
	}
	if len(api.applied) != 1 || api.applied[0].DBInstanceClass != "mysql.n2.large.2c" || attr.DBInstanceClass != "mysql.n2.large.2c" {
		t.Fatalf("applied %+v; the class someone else set must stay", api.applied)
	}
	if strings.Join(checked, ",") != "mysql.n2.medium.2c,mysql.n2.large.2c" {
		t.Fatalf("checked %v, want the instance before each request", checked)
	}
}

// A re-check that refuses stops the change before anything is sent.
func TestApplySpecChangeCheckRefusesBeforeAnyRequest(t *testing.T) {
	_, api, w := toggleSetup(t)
	refusal := errors.New("changed since the plan")
	_, err := ApplySpecChangeChecked(context.Background(), api, w, "rm-a", &rdsapi.ModifyDBInstanceSpecRequest{}, boolPtr(true),
		func(*rdsapi.DBInstanceAttribute) error { return refusal })
	if !errors.Is(err, refusal) || api.modifyCalls != 0 {
		t.Fatalf("err %v after %d modify calls", err, api.modifyCalls)
	}
}

func TestSpecOrderRequestCarriesOnlyTheChanges(t *testing.T) {
	on := true
	got := *SpecOrder{AtomicWrite: &on}.Request("rm-a")
	want := rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: "rm-a", PayType: rdsapi.PayTypePostpaid,
		EffectiveTime: rdsapi.EffectiveTimeImmediate, OptimizedWrites: rdsapi.OptimizedWritesOn}
	if got != want {
		t.Fatalf("got %+v", got)
	}
	class, storage := "mysql.n2.large.2c", int64(120)
	got = *SpecOrder{InstanceClass: &class, Storage: &storage}.Request("rm-a")
	if got.DBInstanceClass != class || got.DBInstanceStorage != storage || got.OptimizedWrites != "" || got.DBInstanceStorageType != "" {
		t.Fatalf("got %+v", got)
	}
}
