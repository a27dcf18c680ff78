package simulator

import "time"

// CallSpan is when the first and the last request of one action arrived since the counters were
// last reset, on the simulator's clock (the wall clock unless Options.Now replaces it, never the
// clock AdvanceClock moves). Bench figures 6, 10 and 11 split a plan's time with it: before its
// first call of the paced action, the span of its calls, and after the last (issue 30).
type CallSpan struct {
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
	// PerSecond counts the requests that arrived in each whole second of the clock from First's
	// on, the windows the quota counts in (quota.go): a window the pacing left short shows here.
	PerSecond []int `json:"per_second"`
}

// noteCall stretches action's span to a request arriving at now. Callers hold s.mu.
func (s *Simulator) noteCall(action string, now time.Time) {
	span, seen := s.stats.Spans[action]
	if !seen {
		span.First = now
	}
	span.Last = now
	second := int(now.Unix() - span.First.Unix())
	for len(span.PerSecond) <= second {
		span.PerSecond = append(span.PerSecond, 0)
	}
	span.PerSecond[second]++
	s.stats.Spans[action] = span
}
