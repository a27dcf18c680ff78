// Package memlimit keeps a provider process's memory close to what it actually holds.
//
// A plan of many resources makes the provider allocate mostly short-lived garbage (the framework
// converts every request and builds logging contexts for each), while what stays live grows with
// the number of resources (about 70 KiB each, held by terraform-plugin-go and the framework). With
// Go's default pacing (GOGC=100) the heap grows to twice the live heap before each collection:
// about 160 MiB at 1,000 instances. Start sets a soft memory limit that lets the heap grow to
// 1.5 times the live heap instead, but never below 120 MiB, so small plans keep the default
// pacing (no extra collections) and a large fleet never drives the collector into running
// continuously (the limit rises with what is live).
//
// An explicit GOMEMLIMIT in the environment wins: Start then does nothing.
package memlimit

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// Floor is the least soft limit: below it the runtime's default pacing applies unchanged.
	Floor = 120 << 20
	// overhead is room for what the limit counts besides the heap (goroutine stacks, runtime
	// metadata, free pages not yet returned).
	overhead = 16 << 20
	// interval is how often the limit follows the live heap.
	interval = 250 * time.Millisecond
)

// liveHeap is the runtime metric the limit follows: heap memory reachable at the last collection.
const liveHeap = "/gc/heap/live:bytes"

// Start sets the soft memory limit and keeps it following the live heap, unless GOMEMLIMIT is
// set. Call it once, first thing in main.
func Start() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	adjust()
	go func() {
		for range time.Tick(interval) {
			adjust()
		}
	}()
}

// adjust sets the limit for the live heap the runtime reports now.
func adjust() {
	sample := []metrics.Sample{{Name: liveHeap}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return // an older or newer runtime without this metric: keep the default pacing
	}
	debug.SetMemoryLimit(LimitFor(sample[0].Value.Uint64()))
}

// LimitFor is the soft limit for a live heap of live bytes: 1.5 times it plus the runtime's
// overhead, and at least Floor.
func LimitFor(live uint64) int64 {
	return max(Floor, int64(live+live/2+overhead))
}
