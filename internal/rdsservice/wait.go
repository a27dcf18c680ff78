package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Clock is the time source of waits and retries, injectable so tests never sleep.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Default poll intervals when a Waiter leaves them zero.
const (
	DefaultMinInterval = 2 * time.Second
	DefaultMaxInterval = 20 * time.Second
	// backoffFactor grows the interval between busy retries from MinInterval towards MaxInterval.
	backoffFactor = 1.5
	// overheadFraction bounds how long a wait can overrun the transition it waits for: the next
	// poll comes after this fraction of the time already waited (within MinInterval..MaxInterval),
	// so a 10 s restart is seen within about 0.5 s and a 10-minute create within 15 s, while long
	// waits still poll rarely.
	overheadFraction = 0.05
	// expectedFraction of a known duration is slept before dense polling starts, so that the
	// wait ends within about one MinInterval of the instance being back.
	expectedFraction = 0.9
	// maxConsecutiveOtherErrors bounds retries of errors that are not API answers (transport or
	// decoding): a few are weather, many mean something is wrong that waiting will not fix.
	maxConsecutiveOtherErrors = 5
)

// Waiter polls DescribeDBInstanceAttribute until a predicate holds. The deadline is the ctx's:
// one operation makes one context.WithTimeout and all its waits share it.
type Waiter struct {
	API         rdsapi.API
	Clock       Clock
	MinInterval time.Duration
	MaxInterval time.Duration
	// ExpectedRestart, when set, is the usual length of a restart: ApplySpecChange then sleeps
	// most of it at once and polls densely at the end (WaitForExpected) instead of backing off.
	ExpectedRestart time.Duration
	// FlagGrace bounds the wait for a lagging flag when ApplySpecChange is unsure whether its
	// request was carried out; DefaultFlagGrace when zero.
	FlagGrace time.Duration
}

func (w *Waiter) clock() Clock {
	if w.Clock == nil {
		return RealClock{}
	}
	return w.Clock
}

func (w *Waiter) intervals() (time.Duration, time.Duration) {
	lo, hi := w.MinInterval, w.MaxInterval
	if lo <= 0 {
		lo = DefaultMinInterval
	}
	if hi < lo {
		hi = max(lo, DefaultMaxInterval)
	}
	return lo, hi
}

// WaitTimeoutError is returned when the operation's deadline passes during a wait.
type WaitTimeoutError struct {
	InstanceID string
	What       string
	LastStatus string // "" if no read succeeded
	LastFlag   *bool  // optimized_writes at the last read, nil if unknown
	LastErr    error  // the last read error, if the last poll failed
	Cause      error  // the context's cause (usually context.DeadlineExceeded)
}

func (e *WaitTimeoutError) Error() string {
	status := "no successful read"
	if e.LastStatus != "" {
		status = fmt.Sprintf("last status %q", e.LastStatus)
	}
	if e.LastFlag != nil {
		status += fmt.Sprintf(", atomic_write_16k %t", *e.LastFlag)
	}
	ended := "timed out"
	if errors.Is(e.Cause, context.Canceled) {
		// Ctrl-C: Terraform cancels the operation's context; it is not a timeout.
		ended = "cancelled"
	}
	msg := fmt.Sprintf("%s waiting for RDS instance %s to be %s (%s)", ended, e.InstanceID, e.What, status)
	if e.LastErr != nil {
		msg += fmt.Sprintf("; last error: %v", e.LastErr)
	}
	return msg + ": " + e.Cause.Error()
}

func (e *WaitTimeoutError) Unwrap() error { return e.Cause }

// retryableRead reports whether a read error is worth another poll.
func retryableRead(err error) bool {
	return rdsapi.IsBusy(err) || rdsapi.IsThrottled(err) || rdsapi.IsTransient(err)
}

func isAPIError(err error) bool {
	var apiErr *rdsapi.Error
	return errors.As(err, &apiErr)
}

// sleep waits d or until ctx ends; it reports false when ctx ended.
func sleep(ctx context.Context, clock Clock, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-ctx.Done():
		return false
	case <-clock.After(d):
		return ctx.Err() == nil
	}
}

type waitMode int

const (
	waitPresent waitMode = iota
	waitGone
)

// WaitFor polls until ready holds and returns the instance as last read. The first poll is
// immediate; each later one comes after 5% of the time waited so far, at least MinInterval and at
// most MaxInterval. An instance that is Stopped, Deleting, or Running while locked, and not ready,
// ends the wait at once with an *InstanceStateError (and the instance as read): those states do not
// end by themselves.
func (w *Waiter) WaitFor(ctx context.Context, id, what string, ready func(*rdsapi.DBInstanceAttribute) bool) (*rdsapi.DBInstanceAttribute, error) {
	return w.wait(ctx, id, what, 0, waitPresent, ready)
}

// WaitForExpected is WaitFor for a transition of roughly known length (a restart of the
// simulator's or an earlier measured duration): one immediate poll, then a sleep of 90% of
// expected, then polls every MinInterval, so the wait ends soon after the instance is back.
func (w *Waiter) WaitForExpected(ctx context.Context, id, what string, expected time.Duration, ready func(*rdsapi.DBInstanceAttribute) bool) (*rdsapi.DBInstanceAttribute, error) {
	return w.wait(ctx, id, what, expected, waitPresent, ready)
}

func (w *Waiter) wait(ctx context.Context, id, what string, expected time.Duration, mode waitMode, ready func(*rdsapi.DBInstanceAttribute) bool) (*rdsapi.DBInstanceAttribute, error) {
	clock := w.clock()
	lo, hi := w.intervals()
	start := clock.Now()
	timeout := &WaitTimeoutError{InstanceID: id, What: what}
	otherErrors := 0
	for poll := 0; ; poll++ {
		if ctx.Err() != nil {
			timeout.Cause = context.Cause(ctx)
			return nil, timeout
		}
		attr, err := w.API.DescribeDBInstanceAttribute(ctx, id)
		switch {
		case err == nil:
			otherErrors = 0
			timeout.noteRead(attr)
			if mode == waitPresent && ready(attr) {
				return attr, nil
			}
			if mode == waitPresent {
				// Stopped, locked or Deleting: the wait could only reach its timeout.
				if stuck := stuckState(id, what, attr); stuck != nil {
					return attr, stuck
				}
			}
		case rdsapi.IsNotFound(err):
			if mode == waitGone {
				return nil, nil
			}
			return nil, fmt.Errorf("RDS instance %s disappeared while waiting for it to be %s: %w", id, what, err)
		case ctx.Err() != nil:
			timeout.Cause = context.Cause(ctx)
			timeout.LastErr = err
			return nil, timeout
		case retryableRead(err):
			timeout.LastErr = err
		case !isAPIError(err):
			otherErrors++
			timeout.LastErr = err
			if otherErrors >= maxConsecutiveOtherErrors {
				return nil, fmt.Errorf("reading RDS instance %s while waiting for it to be %s: %w", id, what, err)
			}
		default:
			return nil, fmt.Errorf("reading RDS instance %s while waiting for it to be %s: %w", id, what, err)
		}
		if !sleep(ctx, clock, nextPollDelay(clock, start, poll, expected, lo, hi)) {
			timeout.Cause = context.Cause(ctx)
			return nil, timeout
		}
	}
}

// noteRead keeps what the last successful read showed, for the timeout's message.
func (e *WaitTimeoutError) noteRead(attr *rdsapi.DBInstanceAttribute) {
	e.LastErr = nil
	e.LastStatus = attr.DBInstanceStatus
	e.LastFlag = nil
	if attr.OptimizedWrites != nil {
		flag := attr.OptimizedWrites.Enabled
		e.LastFlag = &flag
	}
}

// nextPollDelay is the pause before the next read: a fraction of the expected duration after the
// first read, else MinInterval when a duration is expected, else a share of the time waited so far
// (between MinInterval and MaxInterval), so long waits poll less often.
func nextPollDelay(clock Clock, start time.Time, poll int, expected, lo, hi time.Duration) time.Duration {
	switch {
	case poll == 0 && expected > 0:
		return time.Duration(float64(expected) * expectedFraction)
	case expected <= 0:
		waited := clock.Now().Sub(start)
		return min(max(time.Duration(float64(waited)*overheadFraction), lo), hi)
	}
	return lo
}

// IsRunning is the predicate for status Running.
func IsRunning(attr *rdsapi.DBInstanceAttribute) bool {
	return attr.DBInstanceStatus == rdsapi.StatusRunning
}

// FlagIs reports whether the parsed optimized_writes equals want. A missing field counts as off,
// which is what the cloud means for engines without the feature.
func FlagIs(attr *rdsapi.DBInstanceAttribute, want bool) bool {
	enabled := attr.OptimizedWrites != nil && attr.OptimizedWrites.Enabled
	return enabled == want
}

// WaitRunning waits for status Running.
func (w *Waiter) WaitRunning(ctx context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	return w.WaitFor(ctx, id, "Running", IsRunning)
}

// WaitRunningWithFlag waits for status Running and the 16K atomic write flag reading want: the
// flag can show its new value a little after the status is Running again.
func (w *Waiter) WaitRunningWithFlag(ctx context.Context, id string, want bool) (*rdsapi.DBInstanceAttribute, error) {
	return w.WaitFor(ctx, id, fmt.Sprintf("Running with atomic_write_16k = %t", want), func(attr *rdsapi.DBInstanceAttribute) bool {
		return IsRunning(attr) && FlagIs(attr, want)
	})
}

// WaitDeleted waits until the instance is gone (not found is success here).
func (w *Waiter) WaitDeleted(ctx context.Context, id string) error {
	_, err := w.wait(ctx, id, "deleted", 0, waitGone, nil)
	return err
}

// RetryBusy calls fn until it succeeds, fails with an error that is not busy or throttled, or ctx
// ends; the waits between calls follow the Waiter's schedule. Use it for actions the cloud refuses
// while an instance is in another task, e.g. CreateReadOnlyDBInstance while the primary is
// restarting (OperationDenied.MasterDBInstanceState, LockTimeout).
//
// A busy answer that names its instance (rdsapi.Error.InstanceID) is followed by one read of
// that instance: when it is Stopped or Deleting, states that refuse every change and do not end by
// themselves, RetryBusy returns an *InstanceStateError at once instead of retrying to the
// deadline. (A locked instance needs no read: the cloud refuses its changes with
// IncorrectDBInstanceLockMode, which is not retried.)
func (w *Waiter) RetryBusy(ctx context.Context, fn func() error) error {
	lo, hi := w.intervals()
	return retryBusy(ctx, w.clock(), lo, hi, func() error {
		err := fn()
		if stuck := w.stuckAfterBusy(ctx, err); stuck != nil {
			return stuck
		}
		return err
	})
}

// stuckAfterBusy reads the instance a busy answer names and returns the InstanceStateError when it
// is Stopped or Deleting; nil otherwise (also when the read fails: the retry goes on).
func (w *Waiter) stuckAfterBusy(ctx context.Context, err error) error {
	var apiErr *rdsapi.Error
	if !rdsapi.IsBusy(err) || !errors.As(err, &apiErr) || apiErr.InstanceID == "" || w.API == nil {
		return nil
	}
	attr, readErr := w.API.DescribeDBInstanceAttribute(ctx, apiErr.InstanceID)
	if readErr == nil && (attr.DBInstanceStatus == StatusStopped || attr.DBInstanceStatus == StatusDeleting) {
		return stuckState(apiErr.InstanceID, "able to take this change", attr)
	}
	return nil
}

// RetryBusy is Waiter.RetryBusy with the default intervals.
func RetryBusy(ctx context.Context, clock Clock, fn func() error) error {
	if clock == nil {
		clock = RealClock{}
	}
	return retryBusy(ctx, clock, DefaultMinInterval, DefaultMaxInterval, fn)
}

func retryBusy(ctx context.Context, clock Clock, lo, hi time.Duration, fn func() error) error {
	interval := lo
	for {
		err := fn()
		if err == nil {
			return nil
		}
		if !rdsapi.IsBusy(err) && !rdsapi.IsThrottled(err) {
			return err
		}
		if !sleep(ctx, clock, interval) {
			return fmt.Errorf("gave up retrying while the instance stayed busy (%v): %w", err, context.Cause(ctx))
		}
		interval = min(time.Duration(float64(interval)*backoffFactor), hi)
	}
}

// Now is the waiter's clock (the planner's Facts.Now), so tests with an injected clock agree.
func (w *Waiter) Now() time.Time { return w.clock().Now() }

// Poll calls check until it reports done, fails with an error that is not busy, throttled or
// transient, or ctx ends; the waits follow the Waiter's schedule (5% of the time waited so far,
// within MinInterval..MaxInterval). what names the awaited state in the timeout error; last
// describes what the last check saw.
func (w *Waiter) Poll(ctx context.Context, what string, check func() (done bool, last string, err error)) error {
	clock := w.clock()
	lo, hi := w.intervals()
	start := clock.Now()
	var last string // what the latest check saw
	for {
		done, seen, err := check()
		switch {
		case err == nil && done:
			return nil
		case err == nil:
			last = seen
		case retryableRead(err):
			last = err.Error()
		default:
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		delay := min(max(time.Duration(float64(clock.Now().Sub(start))*overheadFraction), lo), hi)
		if !sleep(ctx, clock, delay) {
			return fmt.Errorf("timed out waiting for %s (last: %s): %w", what, last, context.Cause(ctx))
		}
	}
}
