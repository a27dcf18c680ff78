package rdsservice

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func newWaiter(api rdsapi.API, clock Clock) *Waiter {
	return &Waiter{API: api, Clock: clock, MinInterval: 2 * time.Second, MaxInterval: 10 * time.Second}
}

func TestWaitForOverrunIsBoundedByTheTimeWaited(t *testing.T) {
	for _, busy := range []time.Duration{10 * time.Second, 90 * time.Second, 10 * time.Minute} {
		clock := newFakeClock()
		api := newFakeAPI(clock)
		inst := api.add("rm-a", false, true)
		t0 := clock.Now()
		inst.busyUntil = t0.Add(busy)
		w := &Waiter{API: api, Clock: clock, MinInterval: 500 * time.Millisecond, MaxInterval: 15 * time.Second}

		attr, err := w.WaitRunning(context.Background(), "rm-a")
		if err != nil {
			t.Fatal(err)
		}
		if attr.DBInstanceStatus != rdsapi.StatusRunning {
			t.Fatalf("status %q", attr.DBInstanceStatus)
		}
		if api.describeTimes[0] != t0 {
			t.Fatalf("first poll should be immediate, was at +%v", api.describeTimes[0].Sub(t0))
		}
		for i, d := range clock.sleeps {
			if d < w.MinInterval || d > w.MaxInterval {
				t.Fatalf("busy %v: sleep %d = %v, outside [%v, %v]", busy, i, d, w.MinInterval, w.MaxInterval)
			}
		}
		overrun := clock.since(t0) - busy
		if limit := max(w.MinInterval, time.Duration(float64(busy)*overheadFraction)); overrun > limit {
			t.Fatalf("busy %v: the wait overran by %v, more than %v", busy, overrun, limit)
		}
		// Polls grow with the logarithm of the wait, not linearly: 10 minutes cost well under 200.
		if polls := len(api.describeTimes); busy == 10*time.Minute && polls > 120 {
			t.Fatalf("busy %v: %d polls", busy, polls)
		}
	}
}

func TestWaitForExpectedEndsWithinOneMinIntervalOfReturn(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	inst := api.add("rm-a", false, true)
	t0 := clock.Now()
	restart := 100 * time.Second
	inst.busyUntil = t0.Add(restart)
	w := &Waiter{API: api, Clock: clock, MinInterval: time.Second, MaxInterval: 30 * time.Second}

	if _, err := w.WaitForExpected(context.Background(), "rm-a", "Running", restart, IsRunning); err != nil {
		t.Fatal(err)
	}
	elapsed := clock.since(t0)
	if elapsed < restart || elapsed > restart+w.MinInterval {
		t.Fatalf("wait took %v for a %v restart; want at most one MinInterval over", elapsed, restart)
	}
	if ratio := float64(elapsed) / float64(restart); ratio > 1.10 {
		t.Fatalf("overhead ratio %.3f > 1.10", ratio)
	}
	// 1 immediate poll + 1 after 90 s + polls every second up to 100 s: a dozen, not a hundred.
	if n := len(api.describeTimes); n > 13 {
		t.Fatalf("%d polls; the expected-duration mode should sleep most of the restart at once", n)
	}
	// The plain back-off schedule overshoots the same restart by more: that is why the
	// expected-duration mode exists.
	clock2 := newFakeClock()
	api2 := newFakeAPI(clock2)
	t2 := clock2.Now()
	api2.add("rm-a", false, true).busyUntil = t2.Add(restart)
	w2 := &Waiter{API: api2, Clock: clock2, MinInterval: time.Second, MaxInterval: 30 * time.Second}
	if _, err := w2.WaitFor(context.Background(), "rm-a", "Running", IsRunning); err != nil {
		t.Fatal(err)
	}
	if clock2.since(t2) <= elapsed {
		t.Fatalf("plain schedule took %v, expected mode %v", clock2.since(t2), elapsed)
	}
}

func TestWaitDeadlineErrorNamesInstanceWhatAndLastState(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	inst := api.add("rm-slow", false, true)
	inst.busyUntil = clock.Now().Add(time.Hour)
	ctx := clock.withDeadline(30 * time.Second)

	_, err := newWaiter(api, clock).WaitRunningWithFlag(ctx, "rm-slow", true)
	var timeout *WaitTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("want *WaitTimeoutError, got %T %v", err, err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error should wrap the deadline: %v", err)
	}
	want := `timed out waiting for RDS instance rm-slow to be Running with atomic_write_16k = true (last status "DBInstanceClassChanging", atomic_write_16k false): context deadline exceeded`
	if err.Error() != want {
		t.Fatalf("error text\n got: %s\nwant: %s", err, want)
	}
}

func TestWaitDeadlineWithOnlyErrorsSaysSo(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	api.add("rm-a", false, true)
	for i := 0; i < 100; i++ {
		api.describeErrs = append(api.describeErrs, errThrottled)
	}
	ctx := clock.withDeadline(20 * time.Second)
	_, err := newWaiter(api, clock).WaitRunning(ctx, "rm-a")
	if err == nil || !strings.Contains(err.Error(), "no successful read") || !strings.Contains(err.Error(), "Throttling.User") {
		t.Fatalf("got %v", err)
	}
}

func TestWaitRetriesBusyThrottledTransientAndTransport(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	api.add("rm-a", true, true)
	api.describeErrs = []error{errBusy, errThrottled, errInternal, errLost, apiErr("ServiceUnavailable", 503)}
	attr, err := newWaiter(api, clock).WaitRunningWithFlag(context.Background(), "rm-a", true)
	if err != nil {
		t.Fatal(err)
	}
	if attr.DBInstanceID != "rm-a" || len(api.describeTimes) != 6 {
		t.Fatalf("attr %v after %d polls", attr.DBInstanceID, len(api.describeTimes))
	}
}

func TestWaitGivesUpOnPermanentAndRepeatedTransportErrors(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	api.add("rm-a", true, true)
	api.describeErrs = []error{apiErr("InvalidAccessKeyId.NotFound", 404)}
	if _, err := newWaiter(api, clock).WaitRunning(context.Background(), "rm-a"); err == nil ||
		!strings.Contains(err.Error(), "InvalidAccessKeyId.NotFound") || len(api.describeTimes) != 1 {
		t.Fatalf("auth error should end the wait at once: %v after %d polls", err, len(api.describeTimes))
	}

	api.describeTimes = nil
	api.describeErrs = []error{errLost, errLost, errLost, errLost, errLost, errLost}
	_, err := newWaiter(api, clock).WaitRunning(context.Background(), "rm-a")
	if err == nil || !errors.Is(err, errLost) || len(api.describeTimes) != maxConsecutiveOtherErrors {
		t.Fatalf("repeated transport errors: %v after %d polls", err, len(api.describeTimes))
	}
}

func TestWaitNotFound(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	_, err := newWaiter(api, clock).WaitRunning(context.Background(), "rm-gone")
	if !rdsapi.IsNotFound(err) || !strings.Contains(err.Error(), "rm-gone disappeared while waiting for it to be Running") {
		t.Fatalf("got %v", err)
	}

	inst := api.add("rm-del", false, true)
	t0 := clock.Now()
	inst.deleteAt = t0.Add(7 * time.Second)
	api.describeErrs = []error{errBusy}
	if err := newWaiter(api, clock).WaitDeleted(context.Background(), "rm-del"); err != nil {
		t.Fatal(err)
	}
	if clock.since(t0) < 7*time.Second {
		t.Fatalf("returned after %v, before the instance was gone", clock.since(t0))
	}

	ctx := clock.withDeadline(5 * time.Second)
	inst2 := api.add("rm-stuck", false, true)
	inst2.deleteAt = clock.Now().Add(time.Hour)
	err = newWaiter(api, clock).WaitDeleted(ctx, "rm-stuck")
	if err == nil || !strings.Contains(err.Error(), `rm-stuck to be deleted (last status "Deleting"`) {
		t.Fatalf("got %v", err)
	}
}

func TestWaitRunningWithFlagWaitsForTheFlagLag(t *testing.T) {
	clock := newFakeClock()
	api := newFakeAPI(clock)
	api.restart = 20 * time.Second
	api.lag = 5 * time.Second
	api.add("rm-a", false, true)
	if _, err := api.ModifyDBInstanceSpec(context.Background(), &rdsapi.ModifyDBInstanceSpecRequest{
		DBInstanceID: "rm-a", DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 100,
		DBInstanceStorageType: "cloud_essd", OptimizedWrites: rdsapi.OptimizedWritesOn,
	}); err != nil {
		t.Fatal(err)
	}
	t0 := clock.Now()
	w := &Waiter{API: api, Clock: clock, MinInterval: time.Second, MaxInterval: time.Second}

	attr, err := w.WaitRunning(context.Background(), "rm-a")
	if err != nil {
		t.Fatal(err)
	}
	if attr.OptimizedWrites.Enabled {
		t.Fatal("fake should still show the old flag right after Running")
	}
	attr, err = w.WaitRunningWithFlag(context.Background(), "rm-a", true)
	if err != nil {
		t.Fatal(err)
	}
	if !attr.OptimizedWrites.Enabled || clock.since(t0) < 25*time.Second {
		t.Fatalf("flag %v after %v", attr.OptimizedWrites.Enabled, clock.since(t0))
	}
}

func TestFlagIsTreatsMissingInfoAsOff(t *testing.T) {
	a := &rdsapi.DBInstanceAttribute{}
	if !FlagIs(a, false) || FlagIs(a, true) {
		t.Fatal("missing OptimizedWritesInfo must read as off")
	}
}

func TestRetryBusy(t *testing.T) {
	clock := newFakeClock()
	calls := 0
	err := RetryBusy(context.Background(), clock, func() error {
		calls++
		switch calls {
		case 1:
			return apiErr("OperationDenied.MasterDBInstanceState", 400)
		case 2:
			return apiErr("LockTimeout", 403)
		case 3:
			return errThrottled
		}
		return nil
	})
	if err != nil || calls != 4 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	want := []time.Duration{DefaultMinInterval, 3 * time.Second, 4500 * time.Millisecond}
	for i, d := range want {
		if clock.sleeps[i] != d {
			t.Fatalf("sleeps %v, want %v", clock.sleeps, want)
		}
	}

	calls = 0
	if err := RetryBusy(context.Background(), clock, func() error { calls++; return errInvalid }); err != errInvalid || calls != 1 {
		t.Fatalf("permanent error: %v after %d calls", err, calls)
	}

	ctx := clock.withDeadline(10 * time.Second)
	w := &Waiter{Clock: clock, MinInterval: time.Second, MaxInterval: 2 * time.Second}
	err = w.RetryBusy(ctx, func() error { return errBusy })
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "OperationDenied.DBInstanceStatus") {
		t.Fatalf("deadline: %v", err)
	}
}

// Poll waits through busy answers and pending states on the Waiter's schedule, stops at once on a
// permanent error, and at the deadline names what it last saw.
func TestWaiterPoll(t *testing.T) {
	clock := newFakeClock()
	w := &Waiter{Clock: clock, MinInterval: time.Second, MaxInterval: 10 * time.Second}
	busy := &rdsapi.Error{HTTPStatus: 403, Code: "IncorrectDBInstanceState"}

	calls := 0
	err := w.Poll(clock.withDeadline(time.Hour), "account to be Available", func() (bool, string, error) {
		calls++
		switch {
		case calls == 1:
			return false, "", busy
		case calls < 5:
			return false, "status Unavailable", nil
		}
		return true, "", nil
	})
	if err != nil || calls != 5 {
		t.Fatalf("Poll: %v after %d checks", err, calls)
	}
	for _, d := range clock.sleeps {
		if d < time.Second || d > 10*time.Second {
			t.Fatalf("a sleep of %v is outside the Waiter's 1s..10s", d)
		}
	}

	calls = 0
	permanent := &rdsapi.Error{HTTPStatus: 400, Code: "InvalidAccountName.Format"}
	err = w.Poll(clock.withDeadline(time.Hour), "x", func() (bool, string, error) { calls++; return false, "", permanent })
	if !errors.Is(err, permanent) || calls != 1 {
		t.Fatalf("a permanent error: %v after %d checks", err, calls)
	}

	err = w.Poll(clock.withDeadline(30*time.Second), "database orders to be Running", func() (bool, string, error) {
		return false, "status Creating", nil
	})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "status Creating") ||
		!strings.Contains(err.Error(), "database orders to be Running") {
		t.Fatalf("timeout: %v", err)
	}
}
