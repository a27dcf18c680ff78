package rdsapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Alibaba's OpenAPI gateway states the caller's quota window in the x-ratelimit-user-api header
// (per account and action) and x-ratelimit-user (per account), as "Limit:50,Remain:0,TimeLeft:640"
// with TimeLeft in milliseconds; Alibaba's SDKs read it (the simulator README cites them). When an
// action's answers carry it, its window budget replaces the learnt rate: the calls left in the
// window go at once, and the next call waits for the window's end, so the whole quota is used and
// another client spending the same quota is seen at once, in Remain.
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

// windowBudget counts what may still be sent in one action's current window.
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
	// inflight counts attempts sent and not yet answered: they spend Remain before it is read.
	inflight int
}

// take spends one call of the window at now. When the window is spent, it returns how long until
// the window ends; the caller then asks again.
func (w *windowBudget) take(now time.Time) time.Duration {
	if !now.Before(w.end) {
		// The window ended without an answer saying so: the next one holds limit calls.
		windows := int64(now.Sub(w.end)/w.length) + 1
		w.end = w.end.Add(time.Duration(windows) * w.length)
		w.left = w.limit
	}
	if w.left <= 0 {
		return w.end.Sub(now) + windowMargin
	}
	w.left--
	w.inflight++
	return 0
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
	switch d := end.Sub(w.end); {
	case !w.known || d > w.length/2:
		// A window later than the one counted: its own count.
		w.end, w.left = end, left
	case d >= -w.length/2:
		// The same window: received later than stated, so the earliest end is the closest.
		w.end, w.left = minTime(w.end, end), min(w.left, left)
	}
	// An answer of the previous window, received after this one began, says nothing of it.
	w.known, w.limit = true, h.limit
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
