package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSplitPlanAroundTheBoundAction(t *testing.T) {
	start := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	var st simStats
	// As GET /_simulator/stats answers: the bound action from +2.5 s to +22.5 s, another action
	// earlier (it does not move the split).
	raw := `{"requests":{"DescribeDBInstanceAttribute":1000,"DescribeRegions":1},"spans":{
		"DescribeDBInstanceAttribute":{"first":"2026-12-02T04:00:02.5Z","last":"2026-12-02T04:00:22.5Z"},
		"DescribeRegions":{"first":"2026-12-02T04:00:01Z","last":"2026-12-02T04:00:01Z"}}}`
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatal(err)
	}
	s := splitPlan(start, start.Add(23*time.Second+500*time.Millisecond), st)
	if s.Pre != 2.5 || s.Paced != 20 || s.Post != 1 || s.Calls != 1000 {
		t.Fatalf("split %+v, want 2.5 s before, 20 s paced, 1 s after, 1000 calls", s)
	}
	if r := s.pacedRatio(20); r != 1 {
		t.Errorf("paced ratio %.3f, want 1", r)
	}
	if got := s.shown(20); !strings.Contains(got, "2.5 s before the first DescribeDBInstanceAttribute, 20.0 s paced (paced / quota bound 1.000), 1.0 s after") {
		t.Errorf("shown %q", got)
	}
	if d := s.detail(20); d["outside_paced_share"] != 3.5/23.5 {
		t.Errorf("outside share %v, want %v", d["outside_paced_share"], 3.5/23.5)
	}

	none := splitPlan(start, start.Add(time.Second), simStats{})
	if none.Calls != 0 || none.detail(20) != nil || !strings.Contains(none.shown(20), "no DescribeDBInstanceAttribute call") {
		t.Errorf("a plan without the bound action's calls: %+v, %q", none, none.shown(20))
	}
}
