package main

import (
	"fmt"
	"time"
)

// Figures 6, 10 and 11 split each plan's wall time in three around its API calls (issue 30):
// before the first call (Terraform's start, state load, validation, the provider's start and
// configuration: pre), from the first call to the last (the part the quota paces: calls), and
// after the last (the last instances' plans, Terraform's rendering and exit: post). The calls'
// times come from the simulator (its stats' spans of every action), the plan's start and end from
// the bench; both clocks are this machine's.

// boundAction is the action a fleet plan calls once per instance: its windows are the ones the
// figures count as full or short.
const boundAction = "DescribeDBInstanceAttribute"

// callSpan mirrors one action's span in GET /_simulator/stats.
type callSpan struct {
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
	PerSecond []int     `json:"per_second"`
}

// planSplit is one plan's (or, for plans run together, their union's) time around its API calls,
// in seconds. Calls is the number of API calls (0: none, and no split).
type planSplit struct {
	Pre, Calls, Post float64
	N                int
}

// splitPlan places the API calls the simulator counted in the plan (or plans) that ran from
// start to end.
func splitPlan(start, end time.Time, st simStats) planSplit {
	var first, last time.Time
	for _, span := range st.Spans {
		if first.IsZero() || span.First.Before(first) {
			first = span.First
		}
		last = maxTime(last, span.Last)
	}
	if first.IsZero() {
		return planSplit{}
	}
	return planSplit{
		Pre:   seconds(first.Sub(start)),
		Calls: seconds(last.Sub(first)),
		Post:  seconds(end.Sub(last)),
		N:     st.TotalRequests(),
	}
}

// callsRatio is the span of the calls over what the quota allows (ideal: N/Q seconds). It is
// not what the figure is judged on: it shows how much of the judged ratio is the pacing's, the
// rest being the work before the first call and after the last.
func (s planSplit) callsRatio(ideal float64) float64 {
	return s.Calls / ideal
}

// shown is the split as the figure's line prints it.
func (s planSplit) shown(ideal float64) string {
	if s.N == 0 {
		return "split: no API call to split the plan around"
	}
	return fmt.Sprintf("split: %.1f s before the first API call, %.1f s of calls (calls / quota bound %.3f, not judged), %.1f s after the last",
		s.Pre, s.Calls, s.callsRatio(ideal), s.Post)
}

// detail is the split for the figure's JSON.
func (s planSplit) detail(ideal float64) map[string]any {
	if s.N == 0 {
		return nil
	}
	return map[string]any{
		"pre_seconds":                 s.Pre,
		"calls_seconds":               s.Calls,
		"post_seconds":                s.Post,
		"calls_over_quota_bound":      s.callsRatio(ideal),
		"outside_calls_share_of_wall": (s.Pre + s.Post) / (s.Pre + s.Calls + s.Post),
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// windowFill counts the windows between the first and the last of action's calls (the whole
// seconds the quota counts in, from the simulator's per-second counts) and how many of them
// carried fewer than q calls: a window short of the quota is time the pacing left unused, unless
// the plan's workers had no call to send.
func windowFill(st simStats, action string, q int) (short, whole int) {
	counts := st.Spans[action].PerSecond
	if len(counts) < 3 {
		return 0, 0
	}
	for _, n := range counts[1 : len(counts)-1] {
		if n < q {
			short++
		}
	}
	return short, len(counts) - 2
}

// fillShown is windowFill as a figure's line prints it.
func fillShown(st simStats, action string, q int) string {
	short, whole := windowFill(st, action, q)
	return fmt.Sprintf("%s: %d of %d whole windows short of %d", action, short, whole, q)
}
