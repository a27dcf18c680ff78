package rdsapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/time/rate"
)

// Alibaba Cloud limits the calls of each API action per account and region (a quota such as
// "50 calls per second"; the simulator README cites the documentation) and answers Throttling,
// Throttling.User or Throttling.Api beyond it. Retrying into a quota only spends more of it, so a
// Client paces its own calls with one token bucket per action, shared by every resource of the
// provider process (they all use the one Client built in Configure).
//
// When the cloud's answers state the action's window (x-ratelimit-user-api, ratewindow.go), the
// window's budget paces the action instead of a learnt rate, and the bucket only keeps the pinned
// rate. Otherwise a bucket starts unlimited, or at the pinned rate (max_requests_per_second). A throttling answer
// lowers the action's rate to 95% of the calls that got through in the last second, which is the
// quota as this process sees it; each throttle-free second raises it again, doubling up to that
// level, then by 5%, 5%, 10%, 20%... (at most doubling) each further second, so that a raised quota
// or a neighbour's calls that stopped are found again within seconds. The
// quota estimate never drops below three quarters of the best answered rate of the last 30 s:
// throttling that lowering the rate does not cure (an injected fault, a neighbour's burst) must
// not starve a plan.
const (
	// paceWindow is the span over which answered calls are counted to estimate the quota.
	paceWindow = time.Second
	// paceSlots divides paceWindow into slots of a tenth of a second.
	paceSlots = 10
	// paceBackoff is the share of the estimated quota the bucket paces at after a throttle.
	paceBackoff = 0.95
	// paceQuiet is the throttle-free time after which the rate rises one step. It also keeps one
	// overshoot, answered by a burst of throttles, from lowering the rate more than once.
	paceQuiet = time.Second
	// paceProbeGrowth is the step by which the rate rises above the estimated quota.
	paceProbeGrowth = 0.05
	// paceMemory is how long the best answered rate is remembered.
	paceMemory = 30 * time.Second
	// paceFloorShare is the share of that best rate the bucket never goes below.
	paceFloorShare = 0.75
	// paceShaping: the best answered rate is only taken while the bucket's rate is at most this
	// many times the answered rate, so that the bucket, not the caller, spaces the calls out.
	paceShaping = 2.0
	// paceMinSpan bounds the span answered calls are counted over from below.
	paceMinSpan = 10 * time.Millisecond
	// paceMinRate is the lowest rate in calls per second the bucket paces at. Alibaba's ECS
	// guidance suggests probing at 1 call per second after a throttle.
	paceMinRate = 1.0
)

// pacer holds the buckets of one Client.
type pacer struct {
	now     func() time.Time
	ceiling rate.Limit // rate.Inf unless pinned

	mu      sync.Mutex
	actions map[string]*actionPace
}

// newPacer builds the pacer of a Client; maxPerSecond 0 means no ceiling.
func newPacer(maxPerSecond float64, now func() time.Time) *pacer {
	ceiling := rate.Inf
	if maxPerSecond > 0 {
		ceiling = rate.Limit(maxPerSecond)
	}
	return &pacer{now: now, ceiling: ceiling, actions: map[string]*actionPace{}}
}

// actionPace is the bucket of one action and what it has learnt of the action's quota.
type actionPace struct {
	bucket *rate.Limiter
	// window is the budget of the cloud's current window, while its answers state it
	// (ratewindow.go).
	window windowBudget
	// answered counts, per tenth of a second, the calls the quota let through (any answer that
	// is not a throttle); slot holds the tenth each count belongs to.
	answered [paceSlots]int
	slot     [paceSlots]int64
	// quota is the answered rate seen at the last throttle (0: never throttled).
	quota float64
	// activeSince is when the current run of calls began (after a pause of paceWindow or more);
	// lastSent is when the last attempt was reserved.
	activeSince, lastSent time.Time
	// peak is the best answered rate over whole seconds the bucket paced, of the last
	// paceMemory, seen at peakAt.
	peak         float64
	peakAt       time.Time
	lastThrottle time.Time
	// probes counts the steps above the quota estimate since the last throttle: from the third on,
	// each doubles the next one, so that a quota a neighbour has given back is found again within
	// seconds, while the first two keep a rate at the quota from overshooting it by more than 10%.
	probes       int
	lastDecrease time.Time
	lastChange   time.Time
}

func (p *pacer) action(name string) *actionPace {
	a := p.actions[name]
	if a == nil {
		a = &actionPace{bucket: rate.NewLimiter(p.ceiling, 1)}
		p.actions[name] = a
	}
	return a
}

// reserve takes a token for one attempt of action at now and says how long to wait before
// sending it, and whether it got a place in a window the cloud stated (ratewindow.go).
func (p *pacer) reserve(action string, now time.Time) (*rate.Reservation, time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.action(action)
	if a.lastSent.IsZero() || now.Sub(a.lastSent) > paceWindow {
		a.activeSince = now
	}
	a.lastSent = now
	at, placed := now, a.window.known
	if placed {
		// The bucket is at the ceiling meanwhile (observe).
		at = now.Add(a.window.take(now))
	} else {
		a.raiseIfQuiet(now, p.ceiling)
	}
	r := a.bucket.ReserveN(at, 1)
	return r, r.DelayFrom(now), placed
}

// wait blocks until the next attempt of action may be sent, and says whether the attempt has a
// place in a stated window. When ctx ends first, the token is given back and the attempt then
// fails on the same ended context.
func (p *pacer) wait(ctx context.Context, action string) bool {
	for {
		r, delay, placed := p.reserve(action, p.now())
		if delay > 0 && !sleepContext(ctx, delay) {
			r.CancelAt(p.now())
			return false
		}
		if p.stillOpen(action, p.now()) {
			return placed
		}
	}
}

// stillOpen says whether an attempt of action whose wait is over may go now: false when the
// cloud stated meanwhile that another client spent the window the attempt was placed in.
func (p *pacer) stillOpen(action string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.action(action)
	return !a.window.known || a.window.stillOpen(now)
}

// firstWait is wait for the first attempt of a call, before its budget starts (a nil pacer
// does not wait).
func (p *pacer) firstWait(ctx context.Context, action string) bool {
	return p != nil && p.wait(ctx, action)
}

// sleepContext waits d, or less when ctx ends first (then false).
func sleepContext(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// observe records one answer of action: throttled or let through by the quota, the window it
// states (ok false: none), and whether its attempt had a place in a stated window. It returns the
// new rate when the answer changed the learnt rate.
func (p *pacer) observe(action string, now time.Time, throttled bool, window rateHeader, ok, placed bool) (rate.Limit, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.action(action)
	if ok {
		// The window budget paces the action: the bucket only keeps max_requests_per_second.
		a.window.learn(now, window, throttled, placed)
		if a.bucket.Limit() != p.ceiling {
			a.set(now, p.ceiling)
		}
		return 0, false
	}
	// The cloud no longer states the window (a quota lifted, or headers only on throttles):
	// the learnt rate paces again.
	a.window.known = false
	if !throttled {
		a.count(now)
		return 0, false
	}
	return a.throttled(now)
}

// limit is the current rate of action (rate.Inf: unlimited).
func (p *pacer) limit(action string) rate.Limit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.action(action).bucket.Limit()
}

func (a *actionPace) count(now time.Time) {
	tenth := now.UnixNano() / int64(paceWindow/paceSlots)
	i := tenth % paceSlots
	if a.slot[i] != tenth {
		a.slot[i], a.answered[i] = tenth, 0
	}
	a.answered[i]++
	if now.Sub(a.activeSince) < paceWindow {
		return // a part of a second is no measure of a rate per second
	}
	r := a.answeredRate(now)
	if float64(a.bucket.Limit()) > paceShaping*r {
		// Unpaced (or paced far above what gets through), calls come in bursts, and a burst on
		// each side of the end of one of the cloud's windows doubles the count of a second: only
		// calls the bucket spaces out measure the quota.
		return
	}
	if r >= a.peak || now.Sub(a.peakAt) > paceMemory {
		a.peak, a.peakAt = r, now
	}
}

// answeredRate is the calls per second let through over the last paceWindow, or since the
// current run of calls began when that is more recent (a throttle in the first tenth of a second
// of a burst says little about the rate a whole second would let through).
func (a *actionPace) answeredRate(now time.Time) float64 {
	tenth := now.UnixNano() / int64(paceWindow/paceSlots)
	n := 0
	for i := range a.slot {
		if tenth-a.slot[i] < paceSlots {
			n += a.answered[i]
		}
	}
	span := min(paceWindow, max(now.Sub(a.activeSince), paceMinSpan))
	return float64(n) / span.Seconds()
}

func (a *actionPace) throttled(now time.Time) (rate.Limit, bool) {
	a.lastThrottle = now
	if !a.lastDecrease.IsZero() && now.Sub(a.lastDecrease) < paceQuiet {
		return 0, false // the same overshoot: already answered
	}
	quota := max(a.answeredRate(now), paceFloorShare*a.peak)
	if paceBackoff*quota < paceMinRate {
		// Nothing got through lately, so there is no rate to measure (a neighbour spent the
		// quota, or the calls are rare): the retries' backoff spaces the attempts.
		return 0, false
	}
	a.quota, a.probes = quota, 0
	next := min(paceBackoff*quota, float64(a.bucket.Limit()))
	a.lastDecrease = now
	a.set(now, rate.Limit(next))
	return rate.Limit(next), true
}

// raiseIfQuiet lifts the rate one step when the action has gone paceQuiet without a throttle
// and without a change.
func (a *actionPace) raiseIfQuiet(now time.Time, ceiling rate.Limit) {
	current := a.bucket.Limit()
	if current >= ceiling || now.Sub(a.lastThrottle) < paceQuiet || now.Sub(a.lastChange) < paceQuiet {
		return
	}
	c := float64(current)
	next := c * (1 + min(paceProbeGrowth*float64(int(1)<<min(max(a.probes-1, 0), 5)), 1))
	a.probes++
	if target := paceBackoff * a.quota; c < target {
		next, a.probes = min(target, 2*c), 0
	}
	a.set(now, min(rate.Limit(next), ceiling))
}

func (a *actionPace) set(now time.Time, limit rate.Limit) {
	a.bucket.SetLimitAt(now, limit)
	a.lastChange = now
}

// attach paces the retries of one call of action on rc (the first attempt waited in firstWait,
// which said whether it got a place: placed), and every answer teaches the bucket. A nil pacer
// leaves rc alone.
func (p *pacer) attach(rc *retryablehttp.Client, action string, placed bool) {
	if p == nil {
		return
	}
	rc.RequestLogHook = func(_ retryablehttp.Logger, req *http.Request, retry int) {
		if retry > 0 { // the first attempt waited in firstWait
			placed = p.wait(req.Context(), action)
		}
	}
	next := rc.CheckRetry
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		retry, checkErr := next(ctx, resp, err)
		if err != nil || resp == nil {
			return retry, checkErr
		}
		throttled := resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode >= 400 && throttledAnswer(resp))
		window, stated := actionRateHeader(resp)
		if limit, changed := p.observe(action, p.now(), throttled, window, stated, placed); changed {
			tflog.Debug(ctx, "RDS API throttled: pacing the action", map[string]any{
				"action": action, "calls_per_second": float64(limit),
			})
		}
		return retry, checkErr
	}
}

// throttledAnswer reads the error code of an error answer whose body the client's CheckRetry has
// already buffered, and puts the body back for the caller.
func throttledAnswer(resp *http.Response) bool {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	apiErr, ok := parseErrorBody(resp.StatusCode, body)
	return ok && apiErr.Class() == ClassThrottled
}
