package main

import (
	"fmt"
	"time"
)

// Figures 6, 10 and 11 split each plan's wall time in three around the calls of the action the
// quota bounds (issue 30): before its first call (Terraform's start, state load, validation,
// the provider's configuration: pre), from its first call to its last (the part the quota paces:
// paced), and after its last (the last plans and the rendering: post). The calls' times come from
// the simulator (its stats' spans), the plan's start and end from the bench; both clocks are this
// machine's.

// boundAction is the action a fleet plan calls once per instance, and so the one whose quota
// bounds it.
const boundAction = "DescribeDBInstanceAttribute"

// callSpan mirrors one action's span in GET /_simulator/stats.
type callSpan struct {
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// planSplit is one plan's (or, for plans run together, their union's) time around the bound
// action's calls, in seconds.
type planSplit struct {
	Pre    float64 `json:"pre_seconds"`
	Paced  float64 `json:"paced_seconds"`
	Post   float64 `json:"post_seconds"`
	Calls  int     `json:"paced_calls"`
	Action string  `json:"paced_action"`
}

// splitPlan places the bound action's calls in the plan (or plans) that ran from start to end.
// Calls is 0 when the action was not called.
func splitPlan(start, end time.Time, st simStats) planSplit {
	span, ok := st.Spans[boundAction]
	if !ok || span.First.IsZero() {
		return planSplit{Action: boundAction}
	}
	return planSplit{
		Pre:    seconds(span.First.Sub(start)),
		Paced:  seconds(span.Last.Sub(span.First)),
		Post:   seconds(end.Sub(span.Last)),
		Calls:  st.Requests[boundAction],
		Action: boundAction,
	}
}

// pacedRatio is the paced part over what the quota allows (ideal: N/Q seconds). It is not what
// the figure is judged on: it shows how much of the judged ratio is the pacing's, the rest being
// the work before and after the calls.
func (s planSplit) pacedRatio(ideal float64) float64 {
	return s.Paced / ideal
}

// shown is the split as the figure's line prints it.
func (s planSplit) shown(ideal float64) string {
	if s.Calls == 0 {
		return "split: no " + s.Action + " call to split the plan around"
	}
	return fmt.Sprintf("split: %.1f s before the first %s, %.1f s paced (paced / quota bound %.3f), %.1f s after the last",
		s.Pre, s.Action, s.Paced, s.pacedRatio(ideal), s.Post)
}

// detail is the split for the figure's JSON.
func (s planSplit) detail(ideal float64) map[string]any {
	if s.Calls == 0 {
		return nil
	}
	return map[string]any{
		"pre_seconds":         s.Pre,
		"paced_seconds":       s.Paced,
		"post_seconds":        s.Post,
		"paced_action":        s.Action,
		"paced_calls":         s.Calls,
		"paced_over_quota":    s.pacedRatio(ideal),
		"outside_paced_share": (s.Pre + s.Post) / (s.Pre + s.Paced + s.Post),
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
