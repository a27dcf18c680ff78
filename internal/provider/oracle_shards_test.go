package provider

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"
)

// The oracle's short form (make test) runs as oracleShards top-level tests, each planning and
// applying every oracleShards-th scenario of the one seeded sample. As one test it ran for over a
// minute idle, and go test does not start parallel tests in the order they are declared (the
// runtime wakes them in an order of its own), so it often started late and ran on alone at the end
// of make test. The shards share one tally; the shard that finishes last enforces the floors over
// all of them, and TestMain fails a run in which some shards ran but not all (the floors would go
// unchecked: run them together with -run TestOraclePlanAgreesWithApply). The long form and
// RDS_ORACLE_ONLY run every scenario in TestOraclePlanAgreesWithApply.
const oracleShards = 4

// oracleShardRun is what the shards of one process share: the seed (read once, so that shards
// running across midnight UTC draw the same sample), the tally and how many shards finished.
var oracleShardRun struct {
	mu       sync.Mutex
	seed     uint64
	tally    *oracleTally
	started  int
	finished int
}

func TestOraclePlanAgreesWithApply_shard2(t *testing.T) { oracleShardTest(t, 1) }

func TestOraclePlanAgreesWithApply_shard3(t *testing.T) { oracleShardTest(t, 2) }

func TestOraclePlanAgreesWithApply_shard4(t *testing.T) { oracleShardTest(t, 3) }

// oracleShardTest is a shard other than the first (which is TestOraclePlanAgreesWithApply).
func oracleShardTest(t *testing.T, shard int) {
	t.Parallel()
	if os.Getenv("RDS_ORACLE_LONG") != "" || os.Getenv("RDS_ORACLE_ONLY") != "" || os.Getenv("RDS_ORACLE_SEEDS") != "" {
		t.Skip("the long form, RDS_ORACLE_ONLY and a sweep run every scenario in TestOraclePlanAgreesWithApply")
	}
	runOracleShard(t, oracleSeed(t), shard)
}

// runOracleShard runs the shard's scenarios of the short sample into the shared tally; the last
// shard to finish checks the floors.
func runOracleShard(t *testing.T, seed uint64, shard int) {
	run := &oracleShardRun
	run.mu.Lock()
	if run.tally == nil {
		run.seed = seed
		run.tally = &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}}
	}
	seed = run.seed
	run.started++
	run.mu.Unlock()

	scenarios, generated := oracleSample(seed, false, "")
	t.Logf("oracle seed %d (replay with RDS_ORACLE_SEED=%d), shard %d of %d: every %dth of %d of %d generated scenarios",
		seed, seed, shard+1, oracleShards, oracleShards, len(scenarios), generated)
	start := time.Now()
	h := newOracleHarness(t)
	ran := 0
	for i := shard; i < len(scenarios); i += oracleShards {
		outcomes := h.runScenario(scenarios[i])
		run.mu.Lock()
		run.tally.add(scenarios[i], outcomes)
		run.mu.Unlock()
		ran++
	}
	t.Logf("shard %d ran %d scenarios in %v", shard+1, ran, time.Since(start).Round(time.Millisecond))

	run.mu.Lock()
	defer run.mu.Unlock()
	run.finished++
	if run.finished == oracleShards {
		run.tally.topUp(t, h, oracleReserve(seed, scenarios), oracleShortFloors)
		run.tally.check(t, oracleShortFloors)
		run.tally, run.started, run.finished = nil, 0, 0 // a next round (-count) draws a new tally
	}
}

// oracleShardsIncomplete is TestMain's check after the tests: 0, or 1 with a message when some
// shards of the oracle's short form ran but not all, so that no floor was checked.
func oracleShardsIncomplete() int {
	run := &oracleShardRun
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.started == 0 || run.finished == oracleShards {
		return 0
	}
	fmt.Fprintf(os.Stderr, "FAIL: %d of the oracle's %d shards finished, so its floors were not checked: run them together (-run TestOraclePlanAgreesWithApply)\n",
		run.finished, oracleShards)
	return 1
}
