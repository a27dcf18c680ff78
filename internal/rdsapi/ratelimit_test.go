package rdsapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// quotaRun drives pacers with simulated time: each client (one pacer) has workers that send
// calls one after another (think apart: a Terraform worker's own work between two refreshes),
// each answered after latency (plus jitter's share for the call, so that answers of calls sent
// together come back out of order) by cloud; a throttled call is resent after
// the backoff the client would wait (exponentialJitter's, without its jitter: the window's
// TimeLeft when the answer states a spent window, else backoff). Events run in time order, so the
// pacers see the clock of a real run without any sleep.
type quotaRun struct {
	workers int // per client
	latency time.Duration
	backoff time.Duration
	cloud   func(at time.Time) cloudAnswer
	think   time.Duration
	// jitter is the extra latency of the n-th call sent (nil: none).
	jitter func(n int) time.Duration
}

// cloudAnswer is the cloud's decision on one call: throttled or not, and the window it states
// (stated false: no rate-limit header).
type cloudAnswer struct {
	throttled bool
	window    rateHeader
	stated    bool
}

// unstated is a cloud that decides with decide and sends no rate-limit header.
func unstated(decide func(at time.Time) bool) func(time.Time) cloudAnswer {
	return func(at time.Time) cloudAnswer { return cloudAnswer{throttled: decide(at)} }
}

type quotaResult struct {
	finished  time.Duration // when the last call was answered
	sent      int
	throttled int
	longest   time.Duration // the longest one call took, from its first wait to its answer
}

const paceAction = "DescribeDBInstanceAttribute"

// run sends calls until n were answered without throttling, or until limit passed.
func (q quotaRun) run(t *testing.T, p *pacer, start time.Time, n int, limit time.Duration) quotaResult {
	t.Helper()
	return q.runShared(t, []*pacer{p}, start, n, limit)[0]
}

// runShared runs one client per pacer on the same cloud, each until n of its calls were answered.
func (q quotaRun) runShared(t *testing.T, ps []*pacer, start time.Time, n int, limit time.Duration) []quotaResult {
	t.Helper()
	type worker struct {
		client int
		at     time.Time // when the worker's next event is due
		state  workerState
		answer cloudAnswer // the answer due at at (answering)
		placed bool        // the call had a place in a stated window
		began  time.Time   // when the current call began
	}
	ws := make([]worker, q.workers*len(ps))
	for i := range ws {
		ws[i] = worker{client: i / q.workers, at: start, began: start}
	}
	res := make([]quotaResult, len(ps))
	done := make([]int, len(ps))
	sent := 0
	for {
		next := -1
		for i := range ws {
			if done[ws[i].client] < n && (next < 0 || ws[i].at.Before(ws[next].at)) {
				next = i
			}
		}
		if next < 0 {
			return res
		}
		w := &ws[next]
		p, r := ps[w.client], &res[w.client]
		if w.at.Sub(start) > limit {
			t.Fatalf("client %d: only %d of %d calls answered within %s (sent %d, throttled %d, rate %v)",
				w.client, done[w.client], n, limit, r.sent, r.throttled, p.limit(paceAction))
		}
		switch w.state {
		case ready:
			// The send is an event of its own: other workers' calls may come first.
			_, delay, placed := p.reserve(paceAction, w.at)
			w.at, w.state, w.placed = w.at.Add(delay), paced, placed
		case paced:
			if !p.stillOpen(paceAction, w.at) {
				w.state = ready // placed again
				continue
			}
			// The call leaves now; the cloud decides on arrival.
			w.answer = q.cloud(w.at)
			r.sent++
			sent++
			w.at, w.state = w.at.Add(q.latency), answering
			if q.jitter != nil {
				w.at = w.at.Add(q.jitter(sent))
			}
		case answering:
			a := w.answer
			p.observe(paceAction, w.at, a.throttled, a.window, a.stated, w.placed)
			w.state = ready
			if !a.throttled {
				done[w.client]++
				r.finished = w.at.Sub(start)
				r.longest = max(r.longest, w.at.Sub(w.began))
				w.at = w.at.Add(q.think)
				w.began = w.at
				continue
			}
			r.throttled++
			if a.stated && a.window.remain == 0 {
				w.at = w.at.Add(a.window.timeLeft + windowMargin)
			} else {
				w.at = w.at.Add(q.backoff)
			}
		}
	}
}

// workerState is where a worker of a quotaRun is: about to ask its pacer, paced (sending at
// its time), or waiting for an answer.
type workerState int

const (
	ready workerState = iota
	paced
	answering
)

// fixedWindow is a per-second quota as the cloud enforces it: at most perSecond calls in each
// second of the clock, the rest throttled; with stated, every answer carries the window's state as
// Alibaba's x-ratelimit-user-api header does.
func fixedWindow(perSecond *int, stated bool) func(time.Time) cloudAnswer {
	window, used := int64(-1), 0
	return func(at time.Time) cloudAnswer {
		if w := at.Unix(); w != window {
			window, used = w, 0
		}
		throttled := used >= *perSecond
		if !throttled {
			used++
		}
		left := time.Unix(window+1, 0).Sub(at).Truncate(time.Millisecond)
		return cloudAnswer{throttled: throttled, stated: stated,
			window: rateHeader{limit: *perSecond, remain: *perSecond - used, timeLeft: left}}
	}
}

var paceEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestPacerFindsTheQuota(t *testing.T) {
	quota := 50
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, false)}
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
			run := quotaRun{workers: workers, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, false)}
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
	never := unstated(func(time.Time) bool { return false })
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
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, false)}
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
	everyFifth := unstated(func(time.Time) bool { n++; return n%5 == 0 })
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
	never := unstated(func(time.Time) bool { return false })
	p := newPacer(20, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, cloud: never}
	res := run.run(t, p, paceEpoch, 201, time.Minute)
	// The first call goes at once, then one every 50 ms.
	if res.finished < 10*time.Second || res.finished > 10*time.Second+10*time.Millisecond {
		t.Errorf("201 calls pinned at 20/s took %s, want 10 s", res.finished)
	}

	quota := 10
	run.cloud = fixedWindow(&quota, false)
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
		p.observe("CreateDBInstance", at, false, rateHeader{}, false, false)
	}
	p.observe("CreateDBInstance", paceEpoch.Add(time.Second), true, rateHeader{}, false, false)
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
	if _, changed := p.observe(paceAction, paceEpoch.Add(time.Millisecond), true, rateHeader{}, false, false); changed || p.limit(paceAction) != rate.Inf {
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
	_, delay, _ := p.reserve(paceAction, time.Now())
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

func TestPacerSpendsAStatedWindow(t *testing.T) {
	// The cloud states each window (x-ratelimit-user-api): the pacer sends what is left of it at
	// once and waits for the next one, so every window serves its 50 calls.
	for _, offset := range []time.Duration{0, 300 * time.Millisecond, 999 * time.Millisecond} {
		quota := 50
		p := newPacer(0, nil)
		run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, true)}
		res := run.run(t, p, paceEpoch.Add(offset), 1000, time.Minute)
		// 1,000 calls at 50 a window: the first window's and 19 more.
		if res.finished > 20*time.Second {
			t.Errorf("start %s into a window: 1000 calls under a stated quota of 50/s took %s, more than 20 s", offset, res.finished)
		}
		// Only the calls already in flight when the first answer states the window can be throttled.
		if res.throttled > run.workers {
			t.Errorf("start %s into a window: %d of %d calls throttled", offset, res.throttled, res.sent)
		}
	}
}

func TestPacerSharesAStatedWindowWithAnotherClient(t *testing.T) {
	// Two clients (two Terraform runs) share one quota: Remain counts both, so neither sends into
	// a window the other has spent, and together they use all of it.
	quota := 50
	ps := []*pacer{newPacer(0, nil), newPacer(0, nil)}
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, true)}
	res := run.runShared(t, ps, paceEpoch.Add(400*time.Millisecond), 1000, 2*time.Minute)
	// 2,000 calls at 50 a second take 40 s at best.
	for i, r := range res {
		if r.finished > 41*time.Second {
			t.Errorf("client %d: 1000 calls beside another client's 1000 took %s, more than 41 s", i, r.finished)
		}
		// The clients' first windows overlap before either has seen the other in Remain; then
		// each books what it got through in a window it shared.
		if r.longest > 2*time.Second {
			t.Errorf("client %d: a call took %s, beside another client on a quota of 50", i, r.longest)
		}
		if r.throttled > r.sent*8/100 {
			t.Errorf("client %d: %d of %d calls throttled", i, r.throttled, r.sent)
		}
	}
}

func TestPacerStatedWindowKeepsThePinnedCeiling(t *testing.T) {
	quota := 50
	p := newPacer(20, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, true)}
	res := run.run(t, p, paceEpoch, 201, time.Minute)
	// max_requests_per_second = 20 below a quota of 50: one call every 50 ms after the first.
	if res.finished < 10*time.Second || res.finished > 10*time.Second+10*time.Millisecond || res.throttled != 0 {
		t.Errorf("201 calls pinned at 20/s under a stated quota of 50/s took %s (%d throttled), want 10 s", res.finished, res.throttled)
	}
}

func TestPacerFollowsTheLearntRateWhenTheWindowIsNoLongerStated(t *testing.T) {
	quota := 5
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, true)}
	run.run(t, p, paceEpoch, 20, time.Minute)
	// The quota is lifted: answers state no window, and the calls are no longer held to 5 a second.
	run.cloud = unstated(func(time.Time) bool { return false })
	res := run.run(t, p, paceEpoch.Add(time.Minute), 1000, time.Minute)
	if res.finished > time.Second {
		t.Errorf("1000 calls without a quota took %s after a stated quota of 5/s was lifted", res.finished)
	}
}

func TestParseRateHeader(t *testing.T) {
	for value, want := range map[string]rateHeader{
		"Limit:50,Remain:3,TimeLeft:640":                  {limit: 50, remain: 3, timeLeft: 640 * time.Millisecond},
		"limit: 1, remain: 0, timeleft: 2000, Reset:1234": {limit: 1, remain: 0, timeLeft: 2 * time.Second},
	} {
		if got, ok := parseRateHeader(value); !ok || got != want {
			t.Errorf("%q: got %+v, %v; want %+v", value, got, ok, want)
		}
	}
	for _, bad := range []string{"", "Remain:3,TimeLeft:640", "Limit:0,Remain:0,TimeLeft:1", "Limit:5,Remain:6,TimeLeft:1", "Limit:x,Remain:1,TimeLeft:1"} {
		if _, ok := parseRateHeader(bad); ok {
			t.Errorf("%q was read as a window", bad)
		}
	}
}

func TestBackoffWaitsForASpentWindow(t *testing.T) {
	resp := &http.Response{Header: http.Header{}}
	resp.Header.Set("x-ratelimit-user-api", "Limit:50,Remain:0,TimeLeft:640")
	if got := exponentialJitter(250*time.Millisecond, 5*time.Second, 3, resp); got != 640*time.Millisecond+windowMargin {
		t.Errorf("throttled with 640 ms left of a spent window: backoff %s", got)
	}
	resp.Header.Set("x-ratelimit-user-api", "Limit:50,Remain:4,TimeLeft:640")
	if got := exponentialJitter(250*time.Millisecond, 5*time.Second, 0, resp); got < 125*time.Millisecond || got > 250*time.Millisecond {
		t.Errorf("a window not spent: backoff %s, want the exponential one", got)
	}
}

func TestPacerRecoversAfterANeighboursBurst(t *testing.T) {
	// Another client spends 40 of the 50 calls of every second for the first 5 s, then stops; the
	// cloud states no window, so the pacer learns from throttling answers alone.
	quota := 10
	window := fixedWindow(&quota, false)
	cloud := func(at time.Time) cloudAnswer {
		if at.Sub(paceEpoch) >= 5*time.Second {
			quota = 50
		}
		return window(at)
	}
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: cloud}
	res := run.run(t, p, paceEpoch, 1000, time.Minute)
	// At best 50 calls in the first 5 s, then 950 at 50 a second: 24 s. Learning from throttles
	// alone, the rate climbs back from 9.5/s in about 7 s (29.6 s in all; 44 s with steps of 5%).
	if ideal := 24 * time.Second; res.finished > ideal*125/100 {
		t.Errorf("1000 calls took %s, more than 1.25 x %s: the pacer was slow to take the quota back (sent %d, throttled %d)",
			res.finished, ideal, res.sent, res.throttled)
	}
}

func TestPacerServesCallsOfASmallQuotaInOrder(t *testing.T) {
	// 10 workers on a quota of 2 a second: calls that find the window spent are booked into later
	// windows in their order, so none waits behind calls that came after it.
	quota := 2
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond, cloud: fixedWindow(&quota, true)}
	res := run.run(t, p, paceEpoch.Add(100*time.Millisecond), 100, 2*time.Minute)
	if res.finished > 50*time.Second || res.throttled > run.workers {
		t.Errorf("100 calls at 2 a second took %s, %d throttled; want at most 50 s", res.finished, res.throttled)
	}
	// Each call waits for the 9 before it: 5 windows, and its place in its window is spread over
	// it (the second of two places starts half a window in).
	if res.longest > 5500*time.Millisecond+100*time.Millisecond {
		t.Errorf("a call took %s: calls are not served in order", res.longest)
	}
}

func TestCallBudgetStartsWhenThePacingLetsItGo(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, attributeJSON("rm-1", ""))
	}))
	defer server.Close()
	c := newTestClient(t, server, 0)
	// One call every 200 ms after the first, and 100 ms for each call: the calls queue for longer
	// than a call may take, which is no failure of the call.
	c.pacer = newPacer(5, time.Now)
	c.callTimeout = 100 * time.Millisecond
	for i := range 3 {
		if _, err := c.DescribeDBInstanceAttribute(context.Background(), "rm-1"); err != nil {
			t.Fatalf("call %d, queued behind the pacer: %v", i+1, err)
		}
	}
}

// outOfOrder delays the n-th call's answer by 0 to 9 ms, in an order unrelated to the sends:
// answers of calls sent together come back in any order, as a loaded machine returns them.
func outOfOrder(n int) time.Duration { return time.Duration(n*7%10) * time.Millisecond }

func TestPacerSpendsAStatedWindowWhenAnswersComeOutOfOrder(t *testing.T) {
	// Bench figure 6b: 10 Terraform workers, each spending 270 ms of its own between refreshes
	// (37 refreshes a second without a quota), under a stated quota of 25/s. Answers of the calls
	// sent together at a window's start come back out of order: an answer stating Remain 15 can
	// come before the answers stating 24 to 16, and those calls must not be counted twice.
	for _, offset := range []time.Duration{0, 300 * time.Millisecond, 700 * time.Millisecond} {
		quota := 25
		p := newPacer(0, nil)
		run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 200 * time.Millisecond,
			cloud: fixedWindow(&quota, true), think: 270 * time.Millisecond, jitter: outOfOrder}
		res := run.run(t, p, paceEpoch.Add(offset), 1000, 2*time.Minute)
		// 1,000 calls at 25 a window: 40 s, and the first window is partly spent.
		if ideal := 40 * time.Second; res.finished > ideal*102/100 {
			t.Errorf("start %s into a window: 1000 calls under a stated quota of 25/s took %s, more than 1.02 x %s (%.1f calls/s; sent %d, throttled %d)",
				offset, res.finished, ideal, 1000/res.finished.Seconds(), res.sent, res.throttled)
		}
		if res.throttled > run.workers {
			t.Errorf("start %s into a window: %d of %d calls throttled", offset, res.throttled, res.sent)
		}
	}
}

func TestPacersShareAQuotaFairly(t *testing.T) {
	// Bench figure 11: two Terraform runs (two pacers, 10 workers each) refresh n instances each
	// against one quota. Together they need 2n calls: each must finish within 1.15 x 2n/Q (so
	// neither starves and together they use the quota), and no call may wait longer than a call's
	// budget (20 s) once its pacing let it go.
	for _, c := range []struct {
		quota, n int
		stated   bool
	}{
		{2, 20, true}, {2, 20, false}, {25, 250, true}, {25, 250, false}, {50, 500, true}, {50, 500, false},
	} {
		quota := c.quota
		ps := []*pacer{newPacer(0, nil), newPacer(0, nil)}
		run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 250 * time.Millisecond,
			cloud: fixedWindow(&quota, c.stated), think: 270 * time.Millisecond, jitter: outOfOrder}
		res := run.runShared(t, ps, paceEpoch.Add(400*time.Millisecond), c.n, 5*time.Minute)
		ideal := time.Duration(2*c.n/c.quota) * time.Second
		for i, r := range res {
			// A client that finishes much earlier than the other took more than its half.
			if r.finished > ideal*115/100 || r.finished < ideal*85/100 {
				t.Errorf("quota %d/s, header %v: client %d finished its %d calls in %s, not within 0.85 to 1.15 x %s (the other in %s; sent %d, throttled %d)",
					c.quota, c.stated, i, c.n, r.finished, ideal, res[1-i].finished, r.sent, r.throttled)
			}
			if r.longest > 20*time.Second {
				t.Errorf("quota %d/s, header %v: client %d: a call took %s", c.quota, c.stated, i, r.longest)
			}
		}
	}
}

func TestPacerTakesAStatedQuotaBackAfterANeighboursBurst(t *testing.T) {
	// Another client spends 40 of the 50 calls of every window for the first 5 s, at each window's
	// start, then stops. The windows' Remain shows it: the pacer takes what is left meanwhile and
	// the whole quota in the window after the neighbour stops.
	quota := 50
	window := fixedWindow(&quota, true)
	neighbourUntil := paceEpoch.Add(5 * time.Second)
	lastWindow := int64(-1)
	cloud := func(at time.Time) cloudAnswer {
		if w := at.Unix(); w != lastWindow && at.Before(neighbourUntil) {
			lastWindow = w
			for range 40 {
				window(time.Unix(w, 0))
			}
		}
		return window(at)
	}
	p := newPacer(0, nil)
	run := quotaRun{workers: 10, latency: 5 * time.Millisecond, backoff: 250 * time.Millisecond, cloud: cloud,
		think: 100 * time.Millisecond, jitter: outOfOrder}
	res := run.run(t, p, paceEpoch, 1000, time.Minute)
	// 10 calls a window for 5 s, then 950 at 50 a window: 24 s.
	if ideal := 24 * time.Second; res.finished > ideal*105/100 {
		t.Errorf("1000 calls took %s, more than 1.05 x %s (sent %d, throttled %d)", res.finished, ideal, res.sent, res.throttled)
	}
	if res.throttled > res.sent*5/100 {
		t.Errorf("%d of %d calls throttled", res.throttled, res.sent)
	}
}
