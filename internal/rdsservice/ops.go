package rdsservice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// DefaultFlagGrace is how long ApplySpecChange, when unsure whether its request was carried out,
// waits for a lagging flag after the instance is Running again before it sends the request again.
const DefaultFlagGrace = 30 * time.Second

// ApplySpecChange sends one ModifyDBInstanceSpec (class, storage, storage type, 16K atomic write
// and Buffer Pool Extension together: one restart) and waits until the instance is Running with
// the requested values, the flag included when wantFlag is not nil.
//
// It waits for Running first; busy and throttled answers are retried until ctx's deadline. When
// the outcome of a call is unknown (a lost response, a server error), it re-reads the instance and
// resends only if the instance shows that nothing happened: it never toggles twice. When the
// instance already has the requested values, nothing is sent (no restart).
func ApplySpecChange(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, req *rdsapi.ModifyDBInstanceSpecRequest, wantFlag *bool) (*rdsapi.DBInstanceAttribute, error) {
	cur, err := waiter.WaitRunning(ctx, id)
	if err != nil {
		return nil, err
	}
	r := *req
	r.DBInstanceID = id
	if wantFlag == nil && r.OptimizedWrites != "" {
		flag := r.OptimizedWrites == rdsapi.OptimizedWritesOn
		wantFlag = &flag
	}
	if wantFlag != nil && r.OptimizedWrites == "" && !FlagIs(cur, *wantFlag) {
		r.OptimizedWrites = rdsapi.OptimizedWritesOff
		if *wantFlag {
			r.OptimizedWrites = rdsapi.OptimizedWritesOn
		}
	}
	// The cloud needs the class or the storage in every request; send the current values for
	// whatever does not change.
	if r.DBInstanceClass == "" {
		r.DBInstanceClass = cur.DBInstanceClass
	}
	if r.DBInstanceStorage == 0 {
		r.DBInstanceStorage = int64(cur.DBInstanceStorage)
	}
	if r.DBInstanceStorageType == "" {
		r.DBInstanceStorageType = cur.DBInstanceStorageType
	}
	reached := func(a *rdsapi.DBInstanceAttribute) bool { return specReached(a, &r, wantFlag, false) }
	if specReached(cur, &r, wantFlag, true) {
		return cur, nil
	}

	clock := waiter.clock()
	lo, hi := waiter.intervals()
	backoff := lo
	grace := waiter.FlagGrace
	if grace <= 0 {
		grace = DefaultFlagGrace
	}
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			// The previous call may have been carried out: look before sending again.
			sawRestart := false
			cur, err = waiter.WaitFor(ctx, id, "Running", func(a *rdsapi.DBInstanceAttribute) bool {
				if !IsRunning(a) {
					sawRestart = true
				}
				return IsRunning(a)
			})
			if err != nil {
				return nil, err
			}
			if reached(cur) {
				return cur, nil
			}
			if sawRestart && wantFlag != nil && specReached(cur, &r, nil, false) {
				// Everything but the flag is there after a restart: the flag may be lagging.
				graceEnd := clock.Now().Add(grace)
				cur, err = waiter.WaitFor(ctx, id, "Running with the requested spec", func(a *rdsapi.DBInstanceAttribute) bool {
					return (IsRunning(a) && reached(a)) || !clock.Now().Before(graceEnd)
				})
				if err != nil {
					return nil, err
				}
				if IsRunning(cur) && reached(cur) {
					return cur, nil
				}
				if !IsRunning(cur) {
					// Something restarts it again; start over.
					continue
				}
			}
		}
		_, err := api.ModifyDBInstanceSpec(ctx, &r)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("modifying RDS instance %s: %w (%v)", id, err, context.Cause(ctx))
		}
		switch {
		case rdsapi.IsBusy(err), rdsapi.IsThrottled(err):
			if !sleep(ctx, clock, backoff) {
				return nil, fmt.Errorf("modifying RDS instance %s: still refused when the deadline passed: %w", id, err)
			}
			backoff = min(time.Duration(float64(backoff)*backoffFactor), hi)
		case rdsapi.IsTransient(err), !isAPIError(err):
			// Outcome unknown; the next iteration reads the instance before any resend.
		default:
			return nil, fmt.Errorf("modifying RDS instance %s: %w", id, err)
		}
	}
	what := "Running with the requested spec"
	if wantFlag != nil {
		what = fmt.Sprintf("Running with the requested spec and atomic_write_16k = %t", *wantFlag)
	}
	ready := func(a *rdsapi.DBInstanceAttribute) bool { return IsRunning(a) && reached(a) }
	if waiter.ExpectedRestart > 0 {
		return waiter.WaitForExpected(ctx, id, what, waiter.ExpectedRestart, ready)
	}
	return waiter.WaitFor(ctx, id, what, ready)
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

// maxListPages bounds token paging against a server that never ends the list.
const maxListPages = 10000

// ListAllDBInstances reads every page of DescribeDBInstances in token mode (MaxResults 100 unless
// req sets another) and returns all items. A server that repeats a token is an error, not a loop.
func ListAllDBInstances(ctx context.Context, api rdsapi.API, req *rdsapi.DescribeDBInstancesRequest) ([]rdsapi.DBInstanceSummary, error) {
	r := rdsapi.DescribeDBInstancesRequest{}
	if req != nil {
		r = *req
	}
	r.PageNumber, r.PageSize = 0, 0
	if r.MaxResults <= 0 || r.MaxResults > 100 {
		r.MaxResults = 100
	}
	seen := map[string]bool{}
	if r.NextToken != "" {
		seen[r.NextToken] = true
	}
	var all []rdsapi.DBInstanceSummary
	for page := 1; ; page++ {
		resp, err := api.DescribeDBInstances(ctx, &r)
		if err != nil {
			return nil, fmt.Errorf("listing RDS instances (page %d): %w", page, err)
		}
		all = append(all, resp.Items.DBInstance...)
		next := resp.NextToken
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("listing RDS instances: the server returned NextToken %q again on page %d; stopping instead of looping", next, page)
		}
		if page >= maxListPages {
			return nil, fmt.Errorf("listing RDS instances: more than %d pages; stopping", maxListPages)
		}
		seen[next] = true
		r.NextToken = next
	}
}
