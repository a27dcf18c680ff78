package rdsservice

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

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
