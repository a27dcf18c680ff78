package rdsapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Alibaba's SDKs read the caller's quota window from the x-ratelimit-user-api (per account and
// action) and x-ratelimit-user (per account) headers of an answer, as "Limit:50,Remain:0,
// TimeLeft:640" with TimeLeft in milliseconds (the simulator README cites them; that the gateway
// sends them on served answers too is an assumption). When an action's answers carry it, its
// window budget replaces the learnt rate: the calls left in the window go at once, later ones are
// booked into later windows in their order, so the whole quota is used, and another client
// spending the same quota shows in Remain.
const (
	rateLimitActionHeader = "X-Ratelimit-User-Api"
	rateLimitUserHeader   = "X-Ratelimit-User"
	// windowMargin is added to a window's end before the next call is sent, for the clock
	// resolution of TimeLeft.
	windowMargin = 5 * time.Millisecond
)

// rateHeader is one answer's statement of its action's window.
type rateHeader struct {
	limit, remain int
	timeLeft      time.Duration
}

// parseRateHeader reads "Key:Value,..." (keys in any case, unknown keys ignored). ok is false
// unless Limit, Remain and TimeLeft are all there and sensible.
func parseRateHeader(value string) (h rateHeader, ok bool) {
	seen := 0
	for _, pair := range strings.Split(value, ",") {
		key, v, found := strings.Cut(pair, ":")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !found || err != nil || n < 0 {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "limit":
			h.limit, seen = int(n), seen|1
		case "remain":
			h.remain, seen = int(n), seen|2
		case "timeleft":
			h.timeLeft, seen = time.Duration(n)*time.Millisecond, seen|4
		}
	}
	return h, seen == 7 && h.limit > 0 && h.remain <= h.limit
}

// actionRateHeader is the window an answer states for its action, if any.
func actionRateHeader(resp *http.Response) (rateHeader, bool) {
	if resp == nil {
		return rateHeader{}, false
	}
	return parseRateHeader(resp.Header.Get(rateLimitActionHeader))
}

// spentTimeLeft is how long until the quota serves again when an answer's headers say a window
// is spent (Remain 0): the longer TimeLeft of the two (0: none is spent).
func spentTimeLeft(resp *http.Response) time.Duration {
	var left time.Duration
	for _, name := range []string{rateLimitActionHeader, rateLimitUserHeader} {
		fields := map[string]int64{}
		for _, pair := range strings.Split(resp.Header.Get(name), ",") {
			key, v, _ := strings.Cut(pair, ":")
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				fields[strings.ToLower(strings.TrimSpace(key))] = n
			}
		}
		if remain, ok := fields["remain"]; ok && remain == 0 && fields["timeleft"] > 0 {
			left = max(left, time.Duration(fields["timeleft"])*time.Millisecond)
		}
	}
	return left
}

// windowBudget counts what may still be sent in one action's current window, and books the
// calls that find it spent into later windows, in their order of arrival: no call waits behind
// calls that came after it, however many share a small quota.
type windowBudget struct {
	// known: the last answer stated the window; otherwise the learnt rate paces the action.
	known bool
	limit int
	// length of a window: one second, or one minute once a TimeLeft above a second was seen
	// (Alibaba states quotas per second or per minute, "5/1(s)", "200/60(s)").
	length time.Duration
	// end of the current window on the local clock, and the calls that may still be sent in it.
	end  time.Time
	left int
	// booked counts the calls given a later window: the next window's first min(booked, share)
	// calls are theirs, and so on.
	booked int
	// share is what this client may count on in a window: the limit, or, after a window in which
	// it was throttled (another client spends the same quota), the calls it got through in it.
	share int
	// served and throttled count this window's answers.
	served, throttled int
	// inflight counts attempts taken and not yet answered (booked ones included): they spend
	// Remain before it is read.
	inflight int
}

// take gives one call of action a place at now: in the current window when it has calls left
// and nobody is booked before it (0), else the first later window with room (the wait until it
// begins).
func (w *windowBudget) take(now time.Time) time.Duration {
	w.roll(now)
	w.inflight++
	if w.booked == 0 && w.left > 0 {
		w.left--
		return 0
	}
	w.booked++
	later := time.Duration((w.booked-1)/w.share) * w.length
	return w.end.Add(later).Sub(now) + windowMargin
}

// roll moves to the window now is in, whose first calls are the ones booked for it.
func (w *windowBudget) roll(now time.Time) {
	for !now.Before(w.end) {
		w.share = w.limit
		if w.throttled > 0 {
			w.share = max(1, min(w.served, w.limit))
		}
		w.served, w.throttled = 0, 0
		if w.booked == 0 {
			windows := int64(now.Sub(w.end)/w.length) + 1
			w.end, w.left = w.end.Add(time.Duration(windows)*w.length), w.share
			return
		}
		taken := min(w.booked, w.share)
		w.end, w.booked, w.left = w.end.Add(w.length), w.booked-taken, w.share-taken
	}
}

// count records whether an answer of the current window was throttled.
func (w *windowBudget) count(throttled bool) {
	if throttled {
		w.throttled++
	} else {
		w.served++
	}
}

// answered records an answer (or a failure without one) of an attempt take let through.
func (w *windowBudget) answered() {
	w.inflight = max(0, w.inflight-1)
}

// learn takes in the window an answer received at now states. Remain counts every call the
// cloud has received, also another client's; the attempts still in flight will spend it too.
func (w *windowBudget) learn(now time.Time, h rateHeader) {
	if h.timeLeft > time.Second {
		w.length = time.Minute
	} else if w.length == 0 {
		w.length = time.Second
	}
	end := now.Add(h.timeLeft)
	left := max(0, h.remain-w.inflight)
	if !w.known {
		w.end, w.left, w.booked, w.share = end, left, 0, h.limit
	} else {
		w.roll(now)
		switch d := end.Sub(w.end); {
		case d > w.length/2:
			// A window later than the one counted (the local clock is behind): its own count.
			w.end, w.left = end, left
		case d >= -w.length/2:
			// The same window: received later than stated, so the earliest end is the closest.
			w.end, w.left = minTime(w.end, end), min(w.left, left)
		}
		// An answer of the previous window, received after this one began, says nothing of it.
	}
	w.known, w.limit = true, h.limit
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
