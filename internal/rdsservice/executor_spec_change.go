package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// DefaultFlagGrace is how long ApplySpecChange, when unsure whether its request was carried out,
// waits for a lagging flag after the instance is Running again before it sends the request again.
// It also bounds the wait for a lagging flag after someone else changed the instance meanwhile.
const DefaultFlagGrace = 30 * time.Second

// SpecCheck re-checks a spec change against the instance as it is right before the request goes
// out: someone else may have changed it since the plan. An error stops the change with nothing sent.
type SpecCheck func(current *rdsapi.DBInstanceAttribute) error

// Request is the ModifyDBInstanceSpec that carries exactly the order's changes, for now
// (EffectiveTime Immediate). A field the order leaves alone is left out, so the request cannot undo
// someone else's change to it; ApplySpecChange adds the class the cloud needs when neither class
// nor storage changes.
func (o SpecOrder) Request(id string) *rdsapi.ModifyDBInstanceSpecRequest {
	req := &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, PayType: rdsapi.PayTypePostpaid, EffectiveTime: rdsapi.EffectiveTimeImmediate}
	if o.InstanceClass != nil {
		req.DBInstanceClass = *o.InstanceClass
	}
	if o.Storage != nil {
		req.DBInstanceStorage = *o.Storage
	}
	if o.StorageType != nil {
		req.DBInstanceStorageType = *o.StorageType
	}
	if o.AtomicWrite != nil {
		req.OptimizedWrites = rdsapi.OptimizedWritesOff
		if *o.AtomicWrite {
			req.OptimizedWrites = rdsapi.OptimizedWritesOn
		}
	}
	if o.BufferPoolExtension != nil {
		req.IoAccelerationEnabled = "0"
		if *o.BufferPoolExtension {
			req.IoAccelerationEnabled = "1"
		}
	}
	if o.Category != nil {
		req.Category = *o.Category
	}
	return req
}

// ApplySpecChange is ApplySpecChangeChecked without a re-check.
func ApplySpecChange(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, req *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) (*rdsapi.DBInstanceAttribute, error) {
	return ApplySpecChangeChecked(ctx, api, waiter, id, req, wantFlag, nil)
}

// ApplySpecChangeChecked sends one ModifyDBInstanceSpec (class, storage, storage type, 16K atomic
// write and Buffer Pool Extension together: one restart) and waits until the instance is Running
// with the values req asks for, the flag included when wantFlag is not nil. Fields req leaves
// empty are not sent and not waited for; when req changes neither class nor storage, the class
// read right before the request goes out with it (the cloud needs one of the two), so a class
// someone else changed in the meantime is kept, not undone.
//
// It waits for Running first and calls check (when not nil) on every read that precedes a request.
// Busy and throttled answers are retried, after reading the instance again, until ctx's deadline.
// When the outcome of a call is unknown (a lost response, a server error), it re-reads the instance
// and resends only if the instance shows that nothing happened: it never toggles twice. When the
// instance already has the requested values, nothing is sent (no restart).
//
// While it waits, an instance that is Running again with values someone else set is not waited
// for until the deadline: when that change makes the requested values impossible (16K atomic write
// no longer supported, or a class, storage or storage type other than both the old and the
// requested one), the error is a *ConcurrentChangeError at once; a flag still missing after such a
// change is given FlagGrace to show up.
func ApplySpecChangeChecked(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, req *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool, check SpecCheck) (*rdsapi.DBInstanceAttribute, error) {
	cur, err := waiter.WaitRunning(ctx, id)
	if err != nil {
		return nil, err
	}
	asked, wantFlag := askedSpec(cur, id, req, wantFlag)
	if specReached(cur, &asked, wantFlag, true) {
		return cur, nil
	}
	if check != nil {
		if err := check(cur); err != nil {
			return nil, err
		}
	}
	s := &specSender{api: api, waiter: waiter, id: id, asked: &asked, wantFlag: wantFlag, check: check,
		clock: waiter.clock(), grace: waiter.FlagGrace}
	if s.grace <= 0 {
		s.grace = DefaultFlagGrace
	}
	cur, done, err := s.send(ctx, cur)
	if err != nil {
		return nil, err
	}
	if done {
		return cur, nil
	}
	return waitSpec(ctx, waiter, id, cur, &asked, wantFlag, s.grace)
}

// askedSpec is the request to send and the flag to wait for: a flag in req is waited for, and a
// wanted flag the instance does not have yet is sent.
func askedSpec(cur *rdsapi.DBInstanceAttribute, id string, req *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) (rdsapi.ModifyDBInstanceSpecRequest, *bool) {
	asked := *req
	asked.DBInstanceID = id
	if wantFlag == nil && asked.OptimizedWrites != "" {
		flag := asked.OptimizedWrites == rdsapi.OptimizedWritesOn
		wantFlag = &flag
	}
	if wantFlag != nil && asked.OptimizedWrites == "" && !FlagIs(cur, *wantFlag) {
		asked.OptimizedWrites = rdsapi.OptimizedWritesOff
		if *wantFlag {
			asked.OptimizedWrites = rdsapi.OptimizedWritesOn
		}
	}
	return asked, wantFlag
}

// specSender sends one spec change, never twice: before any resend it looks whether the previous
// call was carried out.
type specSender struct {
	api      rdsapi.API
	waiter   *Waiter
	id       string
	asked    *rdsapi.ModifyDBInstanceSpecRequest
	wantFlag *bool
	check    SpecCheck
	clock    Clock
	grace    time.Duration
}

func (s *specSender) reached(a *rdsapi.DBInstanceAttribute) bool {
	return specReached(a, s.asked, s.wantFlag, false)
}

// send sends the request until the API takes it, retrying busy and throttled answers with
// backoff. done: a look before a resend found the requested values already there.
func (s *specSender) send(ctx context.Context, cur *rdsapi.DBInstanceAttribute) (_ *rdsapi.DBInstanceAttribute, done bool, _ error) {
	lo, hi := s.waiter.intervals()
	backoff := lo
	var sent rdsapi.ModifyDBInstanceSpecRequest
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			// The previous call may have been carried out (a busy answer too can be the second copy
			// of a request the client resent): look before sending again.
			var err error
			if cur, done, err = s.lookBeforeResend(ctx, &sent); err != nil || done {
				return cur, done, err
			}
			if s.check != nil {
				if err := s.check(cur); err != nil {
					return nil, false, err
				}
			}
		}
		sent = *s.asked
		if sent.DBInstanceClass == "" && sent.DBInstanceStorage == 0 {
			sent.DBInstanceClass = cur.DBInstanceClass
		}
		_, err := s.api.ModifyDBInstanceSpec(ctx, &sent)
		if err == nil {
			return cur, false, nil
		}
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("modifying RDS instance %s: %w (%v)", s.id, err, context.Cause(ctx))
		}
		switch {
		case rdsapi.IsBusy(err), rdsapi.IsThrottled(err):
			if !sleep(ctx, s.clock, backoff) {
				return nil, false, fmt.Errorf("modifying RDS instance %s: still refused when the deadline passed: %w", s.id, err)
			}
			backoff = min(time.Duration(float64(backoff)*backoffFactor), hi)
		case rdsapi.IsTransient(err), !isAPIError(err):
			// Outcome unknown; the next iteration reads the instance before any resend.
		default:
			return nil, false, fmt.Errorf("modifying RDS instance %s: %w", s.id, err)
		}
	}
}

// lookBeforeResend waits for Running and reports whether the requested values are there. When
// everything sent but the flag is there after a restart, the flag may be lagging: it is given the
// grace period (a class other than the one sent means someone else's restart: resend).
func (s *specSender) lookBeforeResend(ctx context.Context, sent *rdsapi.ModifyDBInstanceSpecRequest) (_ *rdsapi.DBInstanceAttribute, reached bool, _ error) {
	for {
		sawRestart := false
		cur, err := s.waiter.WaitFor(ctx, s.id, "Running", func(a *rdsapi.DBInstanceAttribute) bool {
			if !IsRunning(a) {
				sawRestart = true
			}
			return IsRunning(a)
		})
		if err != nil {
			return nil, false, err
		}
		if s.reached(cur) {
			return cur, true, nil
		}
		if !sawRestart || s.wantFlag == nil || !specReached(cur, sent, nil, false) {
			return cur, false, nil
		}
		graceEnd := s.clock.Now().Add(s.grace)
		cur, err = s.waiter.WaitFor(ctx, s.id, "Running with the requested spec", func(a *rdsapi.DBInstanceAttribute) bool {
			return (IsRunning(a) && s.reached(a)) || !s.clock.Now().Before(graceEnd)
		})
		if err != nil {
			return nil, false, err
		}
		if IsRunning(cur) {
			return cur, s.reached(cur), nil
		}
		// Something restarts it again; start over.
	}
}

// waitSpec waits, after the request went out, until the instance is Running with what asked asks
// for, or until someone else's change (seen against before, the instance as read before the
// request) shows that it will not get there.
func waitSpec(ctx context.Context, waiter *Waiter, id string, before *rdsapi.DBInstanceAttribute, asked *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool, grace time.Duration) (*rdsapi.DBInstanceAttribute, error) {
	clock := waiter.clock()
	var last *rdsapi.DBInstanceAttribute
	var conflict *ConcurrentChangeError
	var graceEnd time.Time
	ready := func(a *rdsapi.DBInstanceAttribute) bool {
		last = a
		if !IsRunning(a) {
			return false
		}
		if specReached(a, asked, wantFlag, false) {
			return true
		}
		c := concurrentConflict(id, before, a, asked, wantFlag)
		switch {
		case c == nil:
			return false
		case c.Impossible:
			conflict = c
			return true
		case graceEnd.IsZero():
			// Only the flag is missing: it may still be on its way after the other change's restart.
			graceEnd = clock.Now().Add(grace)
		case !clock.Now().Before(graceEnd):
			conflict = c
			return true
		}
		return false
	}
	what := awaited(asked, wantFlag)
	var got *rdsapi.DBInstanceAttribute
	var err error
	if waiter.ExpectedRestart > 0 {
		got, err = waiter.WaitForExpected(ctx, id, what, waiter.ExpectedRestart, ready)
	} else {
		got, err = waiter.WaitFor(ctx, id, what, ready)
	}
	if conflict != nil {
		return nil, conflict
	}
	var timeout *WaitTimeoutError
	if errors.As(err, &timeout) && last != nil {
		if missing := missingSpec(last, asked, wantFlag); missing != "" {
			return nil, fmt.Errorf("%w; still missing when it ended: %s", err, missing)
		}
	}
	return got, err
}

// ConcurrentChangeError is a spec change that cannot complete because someone else changed the
// instance while it was applied.
type ConcurrentChangeError struct {
	InstanceID string
	// Changes lists what someone else changed ("instance_type is \"b\" (was \"a\")").
	Changes []string
	// Missing is what the instance does not have of the requested change.
	Missing string
	// Impossible: the other change rules the requested values out (no use waiting any longer).
	Impossible bool
	// Reason says why, when Impossible.
	Reason string
}

func (e *ConcurrentChangeError) Error() string {
	reason := ""
	if e.Reason != "" {
		reason = e.Reason + ". "
	}
	return problem(RuleChangedDuringApply, e.InstanceID, e.InstanceID, strings.Join(e.Changes, ", "), reason, e.Missing).Detail
}

// concurrentConflict reports, for an instance Running without the requested values, whether
// someone else changed it since before: nil when nothing shows that (the change may not have
// started yet, or the flag may lag).
func concurrentConflict(id string, before, now *rdsapi.DBInstanceAttribute, asked *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) *ConcurrentChangeError {
	var changes []string
	impossible := false
	field := func(name, was, is, want string, equal func(a, b string) bool) {
		switch {
		case equal(is, was):
		case want != "" && equal(is, want):
		default:
			changes = append(changes, fmt.Sprintf("%s is %s (was %s)", name, is, was))
			if want != "" {
				impossible = true // it asked for another value, and neither is there
			}
		}
	}
	exact := func(a, b string) bool { return a == b }
	field("instance_type", quote(before.DBInstanceClass), quote(now.DBInstanceClass), quoteIf(asked.DBInstanceClass), exact)
	field("storage", fmt.Sprint(int64(before.DBInstanceStorage)), fmt.Sprint(int64(now.DBInstanceStorage)), intIf(asked.DBInstanceStorage), exact)
	field("storage_type", quote(before.DBInstanceStorageType), quote(now.DBInstanceStorageType), quoteIf(asked.DBInstanceStorageType), strings.EqualFold)
	if asked.IoAccelerationEnabled == "" && before.IoAccelerationEnabled != "" && now.IoAccelerationEnabled != "" &&
		normalizeSwitch(string(before.IoAccelerationEnabled)) != normalizeSwitch(string(now.IoAccelerationEnabled)) {
		changes = append(changes, fmt.Sprintf("buffer_pool_extension is %t (was %t)",
			normalizeSwitch(string(now.IoAccelerationEnabled)) == "1", normalizeSwitch(string(before.IoAccelerationEnabled)) == "1"))
	}
	if wantFlag == nil && FlagIs(now, true) != FlagIs(before, true) {
		changes = append(changes, fmt.Sprintf("atomic_write_16k is %t (was %t)", FlagIs(now, true), FlagIs(before, true)))
	}
	reason := ""
	if wantFlag != nil && *wantFlag && !FlagIs(now, true) && now.OptimizedWrites != nil && !now.OptimizedWrites.Supported {
		impossible = true
		reason = "16K atomic write is not supported on the instance as it is now (atomic_write_16k_supported = false), " +
			"so atomic_write_16k = true cannot hold there"
		if len(changes) == 0 {
			changes = append(changes, "atomic_write_16k_supported is false")
		}
	}
	if len(changes) == 0 {
		return nil
	}
	return &ConcurrentChangeError{InstanceID: id, Changes: changes, Missing: missingSpec(now, asked, wantFlag),
		Impossible: impossible, Reason: reason}
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

func quoteIf(s string) string {
	if s == "" {
		return ""
	}
	return quote(s)
}

func intIf(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// awaited describes what a spec change waits for, in attribute terms.
func awaited(asked *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) string {
	parts := requestedParts(asked, wantFlag)
	if len(parts) == 0 {
		return "Running"
	}
	return "Running with " + strings.Join(parts, ", ")
}

func requestedParts(asked *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) []string {
	var parts []string
	if asked.DBInstanceClass != "" {
		parts = append(parts, fmt.Sprintf("instance_type %q", asked.DBInstanceClass))
	}
	if asked.DBInstanceStorage != 0 {
		parts = append(parts, fmt.Sprintf("storage %d", asked.DBInstanceStorage))
	}
	if asked.DBInstanceStorageType != "" {
		parts = append(parts, fmt.Sprintf("storage_type %q", asked.DBInstanceStorageType))
	}
	if asked.IoAccelerationEnabled != "" {
		parts = append(parts, fmt.Sprintf("buffer_pool_extension = %t", normalizeSwitch(asked.IoAccelerationEnabled) == "1"))
	}
	if wantFlag != nil {
		parts = append(parts, fmt.Sprintf("atomic_write_16k = %t", *wantFlag))
	}
	return parts
}

// missingSpec lists what a has not of the requested change ("instance_type \"b\" (it is \"a\")").
func missingSpec(a *rdsapi.DBInstanceAttribute, asked *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) string {
	var parts []string
	if asked.DBInstanceClass != "" && a.DBInstanceClass != asked.DBInstanceClass {
		parts = append(parts, fmt.Sprintf("instance_type %q (it is %q)", asked.DBInstanceClass, a.DBInstanceClass))
	}
	if asked.DBInstanceStorage != 0 && int64(a.DBInstanceStorage) != asked.DBInstanceStorage {
		parts = append(parts, fmt.Sprintf("storage %d (it is %d)", asked.DBInstanceStorage, int64(a.DBInstanceStorage)))
	}
	if asked.DBInstanceStorageType != "" && !strings.EqualFold(a.DBInstanceStorageType, asked.DBInstanceStorageType) {
		parts = append(parts, fmt.Sprintf("storage_type %q (it is %q)", asked.DBInstanceStorageType, a.DBInstanceStorageType))
	}
	if asked.IoAccelerationEnabled != "" && a.IoAccelerationEnabled != "" &&
		normalizeSwitch(string(a.IoAccelerationEnabled)) != normalizeSwitch(asked.IoAccelerationEnabled) {
		parts = append(parts, fmt.Sprintf("buffer_pool_extension = %t", normalizeSwitch(asked.IoAccelerationEnabled) == "1"))
	}
	if wantFlag != nil && !FlagIs(a, *wantFlag) {
		parts = append(parts, fmt.Sprintf("atomic_write_16k = %t (it is %t)", *wantFlag, !*wantFlag))
	}
	if a.DBInstanceStatus != rdsapi.StatusRunning {
		parts = append(parts, fmt.Sprintf("status Running (it is %q)", a.DBInstanceStatus))
	}
	return strings.Join(parts, ", ")
}

// specReached reports whether the instance shows every value r asks for (and the flag, when
// wantFlag is not nil). A Buffer Pool Extension value the cloud does not report counts as reached
// unless strict: strict decides whether a request is needed at all, where unknown means send.
func specReached(a *rdsapi.DBInstanceAttribute, r *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool, strict bool) bool {
	if r.DBInstanceClass != "" && a.DBInstanceClass != r.DBInstanceClass {
		return false
	}
	if r.DBInstanceStorage != 0 && int64(a.DBInstanceStorage) != r.DBInstanceStorage {
		return false
	}
	if r.DBInstanceStorageType != "" && !strings.EqualFold(a.DBInstanceStorageType, r.DBInstanceStorageType) {
		return false
	}
	if r.IoAccelerationEnabled != "" {
		if a.IoAccelerationEnabled == "" {
			if strict {
				return false
			}
		} else if normalizeSwitch(string(a.IoAccelerationEnabled)) != normalizeSwitch(r.IoAccelerationEnabled) {
			return false
		}
	}
	if wantFlag != nil && !FlagIs(a, *wantFlag) {
		return false
	}
	return true
}

// normalizeSwitch maps the cloud's spellings of an on/off value to "1" or "0".
func normalizeSwitch(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "on", "enabled":
		return "1"
	}
	return "0"
}
