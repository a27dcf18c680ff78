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
// window budget (windowBudget) replaces the learnt rate: each window's places are spread over it
// and handed out in the order calls come, so the whole quota is used, and another client spending
// the same quota shows in Remain and is left its part.
const (
	rateLimitActionHeader = "X-Ratelimit-User-Api"
	rateLimitUserHeader   = "X-Ratelimit-User"
	// windowMargin is added to a window's end before the next call is sent, for the clock
	// resolution of TimeLeft.
	windowMargin = 5 * time.Millisecond
	// placeSpan: a window's places are spread over its first 1/placeSpan. Spread, the calls of
	// clients sharing the quota interleave; within half the window, a plan's last window is
	// spent by its middle, not its end.
	placeSpan = 2
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

// windowBudget places the calls of one action in the cloud's windows: each window has share
// places spread evenly over its first half, handed out in the order calls arrive, so that no call
// waits behind calls that came after it, however many share a small quota.
//
// What is left of the current window is bounded by the lowest Remain an answer stated for it.
// Remain counts the calls the cloud had served when it answered (another client's too); this
// client's calls in flight are counted by the places it gave, not subtracted from Remain: answers
// of calls sent together come back in any order, and an answer stating Remain 15 before those
// stating 24 to 16 must not count those calls twice (that left a fifth of a 25/s quota unused in
// bench figure 6b).
//
// Spreading the places over the window, rather than sending a window's calls at its start, lets
// the calls of two clients sharing the quota interleave: sent at once, the client whose clock
// reads the window's start first would take the whole window every time and the other starve
// (bench figure 11 at 2/s). Each client's share is the limit less what the others spent of the
// last window, but at least half of it (fairShare).
type windowBudget struct {
	// known: the last answer stated the window; otherwise the learnt rate paces the action.
	known bool
	limit int
	// length of a window: one second, or one minute once a TimeLeft above a second was seen
	// (Alibaba states quotas per second or per minute, "5/1(s)", "200/60(s)").
	length time.Duration
	// end of the current window on the local clock, the lowest Remain stated for it (the limit
	// until an answer states one), and the places given in it that the cloud counts (a call
	// throttled or held back gives its place back).
	end    time.Time
	remain int
	spent  int
	// unplaced is what the cloud counted of the current window by the answers to calls sent
	// before the window was known: taken for this client's own.
	unplaced int
	// share is the number of places of the windows not given any yet; others is what other
	// clients spent of the last window (fairShare).
	share, others int
	// The last place given: the lastIndex-th (from 0) of the lastShare places of the window
	// ending at lastEnd.
	lastEnd              time.Time
	lastIndex, lastShare int
}

// take gives one call of action a place at now and says how long it waits for it: the next
// place of the current window when it has one left and the cloud has not stated it spent, else
// the next place of a later window.
func (w *windowBudget) take(now time.Time) time.Duration {
	w.roll(now)
	if !w.lastEnd.After(w.end) {
		if w.lastEnd.Before(w.end) {
			w.lastEnd, w.lastIndex, w.lastShare = w.end, 0, w.share
		}
		if w.lastIndex < w.lastShare && w.remain > 0 {
			at := w.place()
			w.spent++
			return max(0, at.Sub(now))
		}
		w.lastEnd, w.lastIndex, w.lastShare = w.end.Add(w.length), 0, w.share
	} else if w.lastIndex >= w.lastShare {
		w.lastEnd, w.lastIndex, w.lastShare = w.lastEnd.Add(w.length), 0, w.share
	}
	return w.place().Sub(now) + windowMargin
}

// place hands out the next place of the window ending at lastEnd: when it may go. The places
// are spread over the first half of the window (placeSpan).
func (w *windowBudget) place() time.Time {
	start := w.lastEnd.Add(-w.length)
	at := start.Add(time.Duration(w.lastIndex) * w.length / placeSpan / time.Duration(w.lastShare))
	w.lastIndex++
	return at
}

// stillOpen says, when a call's place comes, whether its window is still open to it: another
// client may have spent it meanwhile (an answer stated Remain 0), and then the call gives its
// place back and takes another rather than being sent into a throttle.
func (w *windowBudget) stillOpen(now time.Time) bool {
	w.roll(now)
	if w.remain > 0 {
		return true
	}
	w.spent = max(0, w.spent-1)
	return false
}

// roll moves to the window now is in.
func (w *windowBudget) roll(now time.Time) {
	for !now.Before(w.end) {
		w.share = w.fairShare()
		w.remain, w.unplaced = w.limit, 0
		switch {
		case w.lastEnd.After(w.end.Add(w.length)):
			w.end, w.spent = w.end.Add(w.length), w.lastShare // booked full
		case w.lastEnd.After(w.end):
			w.end, w.spent = w.lastEnd, w.lastIndex
		default:
			windows := int64(now.Sub(w.end)/w.length) + 1
			w.end, w.spent = w.end.Add(time.Duration(windows)*w.length), 0
		}
	}
}

// fairShare is the share of the next window, from the one ending: the limit less what other
// clients spent of it, but at least half of the limit. The calls the cloud counted beyond this
// client's own are another client's, so two clients that each leave the other what it used and
// claim at least half converge on half each, and a client left alone takes the whole limit again
// after one window. The cloud does not count throttled calls, so a client that got nothing claims
// half, and the other sees it in the window after. Others count only when two windows in a row
// show them: a client's own calls sent just before a window's end on its clock can reach the
// cloud just after it, and one window's count of them is no other client. It remembers the
// ending window's count for the next.
func (w *windowBudget) fairShare() int {
	others := max(0, w.limit-w.remain-w.spent-w.unplaced)
	seen := min(others, w.others)
	w.others = others
	return max(w.limit-seen, (w.limit+1)/2)
}

// learn takes in the window an answer received at now states; placed says whether its call had a
// place. A throttled call that had one gives it back: the cloud did not count it, and its retry
// takes a new one. The calls sent before the window was known had none: what the cloud counted of
// their window is taken for this client's own.
func (w *windowBudget) learn(now time.Time, h rateHeader, throttled, placed bool) {
	if h.timeLeft > time.Second {
		w.length = time.Minute
	} else if w.length == 0 {
		w.length = time.Second
	}
	end := now.Add(h.timeLeft)
	if !w.known {
		*w = windowBudget{known: true, limit: h.limit, length: w.length, end: end, remain: h.remain,
			unplaced: h.limit - h.remain, share: h.limit}
		return
	}
	w.limit = h.limit
	w.roll(now)
	switch d := end.Sub(w.end); {
	case d > w.length/2:
		// A window later than the one counted (the local clock is behind): move to it.
		w.roll(end.Add(-w.length / 2))
		w.end, w.remain = end, min(w.remain, h.remain)
	case d >= -w.length/2:
		// The same window: received later than stated, so the earliest end is the closest.
		w.end, w.remain = minTime(w.end, end), min(w.remain, h.remain)
		switch {
		case !placed:
			w.unplaced = max(w.unplaced, w.limit-h.remain)
		case throttled:
			w.spent = max(0, w.spent-1)
		}
	}
	// An answer of the previous window, received after this one began, says nothing of it.
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
