package simulator

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

func TestStatsSpanFirstAndLastCallPerAction(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Faults.QPS = map[string]int{"DescribeDBInstanceAttribute": 1} })
	describe := map[string]string{"DBInstanceId": "rm-seedbasic"}
	e.sim.ResetStats()
	// Start on a whole second, so that the per-second counts are known.
	e.clock.Add(time.Second - time.Duration(e.clock.Now().Nanosecond()))
	start := e.clock.Now().UTC()
	e.c.ok("DescribeDBInstanceAttribute", describe)
	e.clock.Add(300 * time.Millisecond)
	e.c.ok("DescribeDBInstances", listParams)
	e.clock.Add(400 * time.Millisecond)
	// A throttled call arrived too: it stretches the span.
	e.c.fails("DescribeDBInstanceAttribute", describe, 400, "Throttling.Api")
	// The next second is the quota's next window.
	e.clock.Add(400 * time.Millisecond)
	e.c.ok("DescribeDBInstanceAttribute", describe)

	spans := e.sim.Stats().Spans
	attr, list := spans["DescribeDBInstanceAttribute"], spans["DescribeDBInstances"]
	if !attr.First.Equal(start) || !attr.Last.Equal(start.Add(1100*time.Millisecond)) {
		t.Errorf("DescribeDBInstanceAttribute span %v .. %v, want %v .. +1.1s", attr.First, attr.Last, start)
	}
	if !slices.Equal(attr.PerSecond, []int{2, 1}) || !slices.Equal(list.PerSecond, []int{1}) {
		t.Errorf("per second: DescribeDBInstanceAttribute %v (want [2 1]), DescribeDBInstances %v (want [1])", attr.PerSecond, list.PerSecond)
	}
	if !list.First.Equal(start.Add(300*time.Millisecond)) || !list.Last.Equal(list.First) {
		t.Errorf("DescribeDBInstances span %v .. %v, want one call at +300ms", list.First, list.Last)
	}
	if len(spans) != 2 {
		t.Errorf("spans of %d actions, want 2: %v", len(spans), spans)
	}

	// The stats endpoint carries them, and a reset forgets them.
	var out Stats
	resp, err := e.srv.Client().Get(e.srv.URL + "/_simulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if got := out.Spans["DescribeDBInstanceAttribute"]; !got.Last.Equal(attr.Last) || !slices.Equal(got.PerSecond, attr.PerSecond) {
		t.Errorf("stats endpoint span %v, want %v", got, attr)
	}
	e.sim.ResetStats()
	if n := len(e.sim.Stats().Spans); n != 0 {
		t.Errorf("%d spans after a reset, want none", n)
	}
}
