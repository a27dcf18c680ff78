package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLimitFollowsLiveHeapAboveTheFloor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, Floor},
		{60 << 20, Floor}, // 90 MiB + overhead is still below the floor: default pacing
		{100 << 20, 150<<20 + overhead},
		{1 << 30, 1536<<20 + overhead}, // a huge fleet: the limit rises, the collector never runs flat out
	} {
		if got := LimitFor(tc.live); got != tc.want {
			t.Errorf("LimitFor(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

func TestStartSetsALimitUnlessGOMEMLIMITIsSet(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB") // the runtime read it at start; Start must only see that it is set
	Start()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, Start changed the limit to %d", got)
	}

	adjust()
	if got := debug.SetMemoryLimit(-1); got < Floor || got == math.MaxInt64 {
		t.Errorf("adjust set the limit to %d, want at least the floor %d", got, Floor)
	}
}
