package rdsapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// quotaRun drives a pacer with simulated time: workers send calls one after another, each
// answered after latency by cloud (true: throttled); a throttled call is resent after a fixed
// backoff. Events run in time order, so the pacer sees the clock of a real run without any sleep.
type quotaRun struct {
	workers int
	latency time.Duration
	backoff time.Duration
	cloud   func(at time.Time) bool
}

type quotaResult struct {
	finished  time.Duration // when the last call was answered
	sent      int
	throttled int
}

const paceAction = "DescribeDBInstanceAttribute"

// run sends calls until n were answered without throttling, or until limit passed.
func (q quotaRun) run(t *testing.T, p *pacer, start time.Time, n int, limit time.Duration) quotaResult {
	t.Helper()
	type worker struct {
		at      time.Time
		waiting bool // an answer is due at at
	}
	ws := make([]worker, q.workers)
	for i := range ws {
		ws[i].at = start
	}
	var res quotaResult
	done := 0
	for done < n {
		next := 0
		for i := range ws {
			if ws[i].at.Before(ws[next].at) {
				next = i
			}
		}
		w := &ws[next]
		if w.at.Sub(start) > limit {
			t.Fatalf("only %d of %d calls answered within %s (sent %d, throttled %d, rate %v)",
				done, n, limit, res.sent, res.throttled, p.limit(paceAction))
		}
		if !w.waiting {
			_, delay := p.reserve(paceAction, w.at)
			w.at = w.at.Add(delay)
			// The call leaves now; the cloud decides on arrival.
			throttled := q.cloud(w.at)
			res.sent++
			w.at = w.at.Add(q.latency)
			w.waiting = true
			if throttled {
				res.throttled++
				p.observe(paceAction, w.at, true)
				w.at = w.at.Add(q.backoff)
			} else {
				p.observe(paceAction, w.at, false)
				done++
				res.finished = w.at.Sub(start)
			}
			continue
		}
		w.waiting = false
	}
	return res
}

// fixedWindow is a per-second quota as the cloud enforces it: at most perSecond calls in each
// second of the clock, the rest throttled.
func fixedWindow(perSecond *int) func(time.Time) bool {
	window, used := int64(-1), 0
	return func(at time.Time) bool {
		if w := at.Unix(); w != window {
			window, used = w, 0
		}
		if used >= *perSecond {
			return true
		}
		used++
		return false
	}
}

var paceEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestPacerFindsTheQuota(t *testing.T) {
	quota := 50
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota)}
	res := run.run(t, p, paceEpoch, 1000, time.Minute)
	// 1,000 calls at 50 per second take 20 s at best.
	if ideal := 20 * time.Second; res.finished > ideal*115/100 {
		t.Errorf("1000 calls under a quota of 50/s took %s, more than 1.15 x %s (sent %d, throttled %d)",
			res.finished, ideal, res.sent, res.throttled)
	}
	// Without pacing, 10 workers answered in 5 ms would send about 2,000 calls a second and see
	// almost all of them throttled.
	if res.throttled > res.sent*15/100 {
		t.Errorf("%d of %d calls throttled: the pacer does not hold the rate under the quota", res.throttled, res.sent)
	}
	if got := float64(p.limit(paceAction)); got < 40 || got > 56 {
		t.Errorf("rate after the run %.1f/s, want close to the quota of 50/s", got)
	}
}

func TestPacerFindsTheQuotaFromAnyStart(t *testing.T) {
	// The first calls may come late in one of the cloud's one-second windows: an unpaced burst
	// then gets a quota's worth through on each side of the window's end.
	for offset := time.Duration(0); offset < time.Second; offset += 50 * time.Millisecond {
		for _, workers := range []int{3, 10, 30} {
			quota := 50
			p := newPacer(0, nil)
			run := quotaRun{workers: workers, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota)}
			res := run.run(t, p, paceEpoch.Add(offset), 1000, time.Minute)
			// Until a whole second has measured the quota the calls go unpaced, and each worker
			// resends a throttled call every 200 ms: 30 workers see more throttles then.
			maxThrottled := res.sent * 15 / 100
			if workers > 10 {
				maxThrottled = res.sent * 30 / 100
			}
			if res.finished > 23*time.Second || res.throttled > maxThrottled {
				t.Errorf("start %s into a window, %d workers: 1000 calls took %s, %d of %d throttled",
					offset, workers, res.finished, res.throttled, res.sent)
			}
			if got := float64(p.limit(paceAction)); got < 40 || got > 56 {
				t.Errorf("start %s into a window, %d workers: rate %.1f/s, want close to 50/s", offset, workers, got)
			}
		}
	}
}

func TestPacerIsUnlimitedUntilThrottled(t *testing.T) {
	never := func(time.Time) bool { return false }
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, cloud: never}
	res := run.run(t, p, paceEpoch, 2000, time.Minute)
	// 10 workers, 5 ms per call: 2,000 calls in 1 s, none of them held back.
	if res.finished != time.Second || p.limit(paceAction) != rate.Inf {
		t.Errorf("2000 unthrottled calls took %s at rate %v, want 1s and no limit", res.finished, p.limit(paceAction))
	}
}

func TestPacerRisesAfterTheQuotaIsRaised(t *testing.T) {
	quota := 20
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota)}
	res := run.run(t, p, paceEpoch, 200, time.Minute)
	if got := float64(p.limit(paceAction)); got > 22 {
		t.Fatalf("rate %.1f/s under a quota of 20/s", got)
	}
	quota = 60
	later := paceEpoch.Add(res.finished)
	run.run(t, p, later, 1500, 2*time.Minute)
	if got := float64(p.limit(paceAction)); got < 50 {
		t.Errorf("rate %.1f/s after 1500 calls under a raised quota of 60/s, want it found again (>= 50)", got)
	}
}

func TestPacerDoesNotStarveUnderRandomThrottling(t *testing.T) {
	// Every fifth call is throttled whatever the rate: lowering the rate cannot help.
	n := 0
	everyFifth := func(time.Time) bool { n++; return n%5 == 0 }
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 50 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: everyFifth}
	res := run.run(t, p, paceEpoch, 800, 5*time.Minute)
	// Unpaced, a worker spends 50 ms on an answered call and 250 ms on a throttled one: 10
	// workers have about 89 calls a second answered. Within the peak's memory (30 s) the rate
	// stays above the floor, 0.95 x 0.75 of the best answered rate.
	if res.finished > 30*time.Second {
		t.Fatalf("the run took %s, longer than the peak's memory", res.finished)
	}
	if got := float64(p.limit(paceAction)); got < 35 {
		t.Errorf("rate %.1f/s: random throttling starved the action", got)
	}
}

func TestPacerPinnedRateIsACeiling(t *testing.T) {
	never := func(time.Time) bool { return false }
	p := newPacer(20, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, cloud: never}
	res := run.run(t, p, paceEpoch, 201, time.Minute)
	// The first call goes at once, then one every 50 ms.
	if res.finished < 10*time.Second || res.finished > 10*time.Second+10*time.Millisecond {
		t.Errorf("201 calls pinned at 20/s took %s, want 10 s", res.finished)
	}

	quota := 10
	run.cloud = fixedWindow(&quota)
	res = run.run(t, p, paceEpoch.Add(time.Minute), 200, time.Minute)
	if got := float64(p.limit(paceAction)); got > 11 {
		t.Errorf("pinned at 20/s under a quota of 10/s: rate %.1f/s", got)
	}
	quota = 1000
	run.run(t, p, paceEpoch.Add(2*time.Minute), 1000, 5*time.Minute)
	if got := p.limit(paceAction); got != 20 {
		t.Errorf("rate %v after the quota went up, want back at the pinned 20/s and no higher", got)
	}
}

func TestPacerActionsAreIndependent(t *testing.T) {
	p := newPacer(0, nil)
	for i := range 20 {
		at := paceEpoch.Add(time.Duration(i) * 50 * time.Millisecond)
		p.reserve("CreateDBInstance", at)
		p.observe("CreateDBInstance", at, false)
	}
	p.observe("CreateDBInstance", paceEpoch.Add(time.Second), true)
	// The window is counted in tenths of a second: 18 to 20 of the calls are in it.
	if got := p.limit("CreateDBInstance"); got < 17 || got > 19 {
		t.Errorf("20 calls answered in the second before a throttle: rate %v, want about 18 (95%% of 18 to 20)", got)
	}
	if p.limit("CreateDBInstance") == rate.Inf {
		t.Fatal("a throttle did not limit the action")
	}
	if p.limit(paceAction) != rate.Inf {
		t.Error("a throttle of CreateDBInstance limited DescribeDBInstanceAttribute")
	}
}

func TestPacerLeavesAThrottleWithNothingAnsweredToTheRetries(t *testing.T) {
	p := newPacer(0, nil)
	p.reserve(paceAction, paceEpoch)
	if _, changed := p.observe(paceAction, paceEpoch.Add(time.Millisecond), true); changed || p.limit(paceAction) != rate.Inf {
		t.Errorf("a first call throttled set the rate to %v: there is no rate to measure yet", p.limit(paceAction))
	}
}

func TestPacerWaitGivesTheTokenBackWhenCancelled(t *testing.T) {
	p := newPacer(0.001, time.Now) // one call per 1,000 s
	ctx := context.Background()
	p.wait(ctx, paceAction) // the burst token: at once
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	p.wait(cancelled, paceAction) // would wait 1,000 s
	_, delay := p.reserve(paceAction, time.Now())
	if delay > 1500*time.Second {
		t.Errorf("next call waits %s: the cancelled wait kept its token", delay)
	}
}

func TestClientPacesOnThrottlingAnswers(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(
		success(attributeJSON("rm-1", "")),
		fail(http.StatusBadRequest, "Throttling.Api"),
		success(attributeJSON("rm-1", "")),
		fail(http.StatusTooManyRequests, "Throttling"),
	))
	c := newTestClient(t, server, 1)
	for range 2 {
		if _, err := c.DescribeDBInstanceAttribute(context.Background(), "rm-1"); err != nil {
			t.Fatalf("answered, then throttled once and answered: %v", err)
		}
	}
	if len(cloud.requests()) != 3 {
		t.Fatalf("%d requests, want 3", len(cloud.requests()))
	}
	if c.pacer.limit("DescribeDBInstanceAttribute") == rate.Inf {
		t.Error("Throttling.Api did not pace DescribeDBInstanceAttribute")
	}
	if c.pacer.limit("DescribeDBInstances") != rate.Inf {
		t.Error("another action was paced too")
	}

	// The last answer is a throttle after the retries: the caller still reads its code.
	c0 := newTestClient(t, server, 0)
	_, err := c0.DescribeDBInstanceAttribute(context.Background(), "rm-1")
	if !IsThrottled(err) || ErrorCode(err) != "Throttling" {
		t.Errorf("got %v, want the Throttling answer decoded", err)
	}
}

func TestNewRefusesANegativeRate(t *testing.T) {
	_, err := New(Config{RegionID: "cn-hangzhou", Credentials: staticCredentials(t), MaxRequestsPerSecond: -1})
	if err == nil {
		t.Fatal("a negative rate was accepted")
	}
}
