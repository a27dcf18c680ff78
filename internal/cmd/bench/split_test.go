package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSplitPlanAroundItsAPICalls(t *testing.T) {
	start := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	var st simStats
	// As GET /_simulator/stats answers: the attribute reads from +2.5 s to +22 s, the IP arrays'
	// from +2.6 s to +22.5 s (the last call of the plan).
	raw := `{"requests":{"DescribeDBInstanceAttribute":1000,"DescribeDBInstanceIPArrayList":1000},"spans":{
		"DescribeDBInstanceAttribute":{"first":"2026-12-02T04:00:02.5Z","last":"2026-12-02T04:00:22Z","per_second":[50]},
		"DescribeDBInstanceIPArrayList":{"first":"2026-12-02T04:00:02.6Z","last":"2026-12-02T04:00:22.5Z"}}}`
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatal(err)
	}
	s := splitPlan(start, start.Add(23*time.Second+500*time.Millisecond), st)
	if s.Pre != 2.5 || s.Calls != 20 || s.Post != 1 || s.N != 2000 {
		t.Fatalf("split %+v, want 2.5 s before, 20 s of calls, 1 s after, 2000 calls", s)
	}
	if r := s.callsRatio(20); r != 1 {
		t.Errorf("calls ratio %.3f, want 1", r)
	}
	if got := s.shown(20); !strings.Contains(got, "2.5 s before the first API call, 20.0 s of calls (calls / quota bound 1.000, not judged), 1.0 s after") {
		t.Errorf("shown %q", got)
	}
	if d := s.detail(20); d["outside_calls_share_of_wall"] != 3.5/23.5 {
		t.Errorf("outside share %v, want %v", d["outside_calls_share_of_wall"], 3.5/23.5)
	}

	none := splitPlan(start, start.Add(time.Second), simStats{})
	if none.N != 0 || none.detail(20) != nil || !strings.Contains(none.shown(20), "no API call") {
		t.Errorf("a plan without calls: %+v, %q", none, none.shown(20))
	}
}

func TestWindowFillCountsWholeWindowsShortOfTheQuota(t *testing.T) {
	st := simStats{Spans: map[string]callSpan{
		boundAction: {PerSecond: []int{7, 50, 49, 50, 12}}, // the first and last windows are partial
		"Short":     {PerSecond: []int{3, 4}},
	}}
	if short, whole := windowFill(st, boundAction, 50); short != 1 || whole != 3 {
		t.Errorf("windowFill = %d of %d, want 1 of 3", short, whole)
	}
	if short, whole := windowFill(st, "Short", 50); short != 0 || whole != 0 {
		t.Errorf("two partial windows: %d of %d, want none", short, whole)
	}
	if got := fillShown(st, boundAction, 50); got != "DescribeDBInstanceAttribute: 1 of 3 whole windows short of 50" {
		t.Errorf("shown %q", got)
	}
}
