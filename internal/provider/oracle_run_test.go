package provider

// The oracle's driver: which scenarios run (a seeded sample), what each run counts toward, and the
// floors. A run that compares fewer than a floor fails, so a harness that skips, refuses or
// excuses everything cannot pass; each kind of comparison has its own floor.

import (
	"fmt"
	"hash/fnv"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// oracleFloors are the least a run must compare of each kind.
type oracleFloors struct {
	// applied: plans that passed and were applied and compared; combined: those of them that are
	// combinations of features.
	applied, combined int
	// probed: refused plans whose request was sent to the cloud (create, read-only create, clone,
	// spec change, delete) and refused there too.
	probed int
	// restarts: instances whose restarts were compared where the plan or the cloud had one;
	// atWindow: runs taken to the maintenance window.
	restarts, atWindow int
	// policies: rds_backup_policy resources compared with the cloud's DescribeBackupPolicy after an apply.
	policies int
	// editions: applied combinations with an edition level (upgrade in place, downgrade replaced).
	editions int
	// access: accounts, databases and grants compared with what the cloud lists after an apply.
	access int
	// destroys: applied combinations with a destroy level (oracle_destroy_test.go).
	destroys int
	// laters: later runs before the window (oracle_later_test.go) compared through to the window.
	laters int
	// connectivity: applied runs whose endpoints that stop answering were compared with the plan
	// (oracle_connectivity_test.go).
	connectivity int
	// accessLists: applied runs whose access lists were compared with the cloud and its logins (oracle_access_lists_test.go).
	accessLists int
	// parameterGroups: applied runs whose instances that use a parameter group were compared with it and the cloud
	// (oracle_parameter_group_test.go).
	parameterGroups int
	// proxy: runs whose database proxy was compared with the cloud (oracle_proxy_test.go).
	proxy int
	// dataLoss: applied runs whose data-loss warnings were compared with what the cloud deleted
	// (oracle_data_loss_test.go).
	dataLoss int
}

// Issue 25 §3 (the replace factor's "zone" level is now a move in place, which goes alone: its
// combinations with other changes of the primary are refused by that policy, excused by rule id)
// lowered the short form's applied combinations to 13 with seed 20261201.
// Measured with seeds 1, 20261201 and 20261202: short form applied 311-324 (combinations 19-22),
// probed 102-109, restart comparisons 157-162, at the window 15-18; long form (seed 20261201)
// applied 4752 (combinations 92), probed 1702, restart comparisons 2237, at the window 142.
// With the billing factor and the three billing destroys (issue 27 §3), short form, seed 20261201:
// 553 scenarios, applied 358 (combinations 24), probed 143, restart comparisons 188, at the window 20.
// With the backup policy factor (issue 26 §5), short form, seed 20261201: 547 scenarios, applied 336
// (combinations 16), probed 151, restart comparisons 179, at the window 19, backup policies
// compared with the cloud 24; the three-way combinations with a policy (RDS_ORACLE_ONLY, same
// seed) compared about 180 policies (the long form was not re-measured).
// With the edition levels (issue 25 §4), short form, seed 20261201: 559 scenarios, applied 341
// (combinations 21), probed 162, restart comparisons 181, at the window 19, policies 32, edition
// combinations applied 8; RDS_ORACLE_ONLY="replace=edition" (pairs and triples, same seed) applied
// 50, so the triples about 42 (the long form was not re-measured).
// With the access factor (issue 23: access writes in the program), short form: seed 20261201 applied 345 and
// compared 136 access resources with the cloud, seed 20261202 applied 381 and compared 160;
// RDS_ORACLE_ONLY="access=" (pairs and triples, seed 20261201) compared 1024, so the triples about 890
// (the long form was not re-measured).
// With the destroy factor (issue 23), short form: seed 20261201, 555 scenarios, applied 351
// (combinations 31), probed 154, restart comparisons 183, at the window 20, policies 37, editions
// 7, destroy combinations applied 14; seed 20261202, 599 scenarios, applied 383 (combinations 24),
// probed 156, restarts 198, at the window 23, policies 30, editions 5, destroys 10. The long form
// was not re-measured; its destroy floor assumes the triples apply at least as many as the pairs.
// With the later-run and mechanism factors (issue 39 §4), short form, seed 20261206: later runs compared
// at the window 26 (before the mechanism factor); the long form's later floor assumes, likewise, at least
// as many as the pairs.
// With the connectivity factor (issue 42 §4), its pairs alone (seed 20261206, 106 combinations with a
// connectivity level) compared the endpoints of 32 applied runs, seed 20261202 (110) of 40; the long form's
// floor assumes, likewise, at least as many as the pairs.
// With the audit and cross-region backup factors (issue 46 §4), their pairs alone compared the data-loss
// warnings of 24 applied runs with what the cloud deleted for seeds 1 and 2 (the rest are refused by
// prevent_data_loss or by another factor's rule); the long form's floor assumes at least as many as the pairs.
// With the proxy factor (issue 44 §4), its pairs alone (86-89 combinations with a proxy level, seeds 1 to 5) compared
// the proxy with the cloud in 108-124 runs (setups included); the long form's floor assumes at least as many as the pairs.
// With the parameter group factor (issue 45 §2), its pairs alone (seeds 1 to 5, 82-93 combinations with a group
// level) compared the group's instances in 77-100 runs (the setup runs count: they create the group and its
// instances); the long form's floor assumes, likewise, at least as many as the pairs.
var (
	oracleShortFloors = oracleFloors{applied: 300, combined: 12, probed: 85, restarts: 130, atWindow: 12, policies: 12, editions: 4, access: 100, destroys: 7, laters: 12,
		connectivity: 15, accessLists: 3, parameterGroups: 40, proxy: 60, dataLoss: 15}
	oracleLongFloors = oracleFloors{applied: 4500, combined: 75, probed: 1550, restarts: 2050, atWindow: 125, policies: 120, editions: 25, access: 750, destroys: 14, laters: 26,
		connectivity: 32, accessLists: 6, parameterGroups: 76, proxy: 108, dataLoss: 30}
)

// oracleShortEvery picks one single-feature scenario in this many (by a seeded hash) for the short
// form; the combinations cover every pair of levels (short form) or every triple (long form).
const oracleShortEvery = 15

// oracleCISeeds are the seeds make test (and so CI) runs: fixed, so that a run passes or fails the same on any
// day. The oracles' floors hold for every seed by construction (each tops its sample up while a floor is short),
// and make test-sweep runs many seeds before an issue is called done; a seed a sweep found failing stays here as
// a pinned case once fixed: 20261206 left the access oracle's SQL-vs-API comparisons at 27 of 32 when the seed
// was the date (issue 39 §4).
var oracleCISeeds = []uint64{20261206, 20261202}

// oracleSeeds are the seeds of this run: RDS_ORACLE_SEED (one seed, to replay a failure) or RDS_ORACLE_SEEDS
// (FIRST-LAST, a sweep) when set, else oracleCISeeds.
func oracleSeeds(t testing.TB) []uint64 {
	if s := os.Getenv("RDS_ORACLE_SEEDS"); s != "" {
		first, last, ok := strings.Cut(s, "-")
		a, errA := strconv.ParseUint(first, 10, 64)
		b, errB := strconv.ParseUint(last, 10, 64)
		if !ok || errA != nil || errB != nil || b < a {
			t.Fatalf("RDS_ORACLE_SEEDS=%q: want FIRST-LAST, e.g. RDS_ORACLE_SEEDS=1-50", s)
		}
		var seeds []uint64
		for seed := a; seed <= b; seed++ {
			seeds = append(seeds, seed)
		}
		return seeds
	}
	if s := os.Getenv("RDS_ORACLE_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RDS_ORACLE_SEED=%q: want a non-negative integer, e.g. RDS_ORACLE_SEED=20261201", s)
		}
		return []uint64{seed}
	}
	return oracleCISeeds
}

// oracleSeed is the first of oracleSeeds: the seed of the short form's sharded sample.
func oracleSeed(t testing.TB) uint64 { return oracleSeeds(t)[0] }

// floorRow is one count of a run beside its floor.
type floorRow struct {
	what      string
	got, want int
}

func floorsMet(rows []floorRow) bool {
	for _, r := range rows {
		if r.got < r.want {
			return false
		}
	}
	return true
}

// oracleSample is the scenarios of a run: the short form's seeded sample of single features and
// the pairwise combinations; the long form's every single feature and the three-way combinations;
// RDS_ORACLE_ONLY's scenarios whose names contain it (with the floors lifted).
func oracleSample(seed uint64, long bool, only string) (scenarios []oracleScenario, generated int) {
	singles := allOracleScenarios()
	generated = len(singles)
	switch {
	case only != "":
		for _, sc := range append(append(singles, comboScenarios(2, seed)...), comboScenarios(3, seed)...) {
			if strings.Contains(sc.name, only) {
				scenarios = append(scenarios, sc)
			}
		}
		return scenarios, generated
	case long:
		combos := comboScenarios(3, seed)
		return append(singles, combos...), generated + len(combos)
	}
	for _, sc := range singles {
		f := fnv.New64a()
		_, _ = fmt.Fprintf(f, "%d\x00%s", seed, sc.name)
		if sc.short || f.Sum64()%oracleShortEvery == 0 {
			scenarios = append(scenarios, sc)
		}
	}
	combos := comboScenarios(2, seed)
	return append(scenarios, combos...), generated + len(combos)
}

// oracleTally counts what the runs compared.
type oracleTally struct {
	run, applied, combined, probed, guards, notProbed, warned, restarts, atWindow, policies, editions, access, destroys, laters, connectivity int
	accessLists, parameterGroups, proxy, dataLoss                                                                                             int
	byCategory                                                                                                                                map[string]int
	classes                                                                                                                                   map[string][]string
	// strict fails on known disagreements too; known replaces oracleKnownDisagreements.
	strict bool
	known  map[string]string
}

// oracleKnownDisagreements are product bugs the oracle found that are not fixed yet, by
// disagreement class, where "*" stands for any text, with what is wrong. The short form logs them (KNOWN)
// and fails on every other class; the long form (make test-oracle) and RDS_ORACLE_ONLY fail on them too.
// Remove an entry when its fix lands. The later-run and mechanism dimensions' first entries (seed 20261206, issue 39
// §4) are fixed and pinned in oracle_pinned_test.go, and so is what the sweeps over seeds 42-66 found.
var oracleKnownDisagreements = map[string]string{}

// knownDisagreement looks class up in the tally's known list (oracleKnownDisagreements unless a
// test sets its own).
func (t *oracleTally) knownDisagreement(class string) (filed string, known bool) {
	list := t.known
	if list == nil {
		list = oracleKnownDisagreements
	}
	for k, filed := range list {
		if regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(k), `\*`, ".*") + "$").MatchString(class) {
			return filed, true
		}
	}
	return "", false
}

func (t *oracleTally) add(sc oracleScenario, outcomes []oracleOutcome) {
	t.run++
	for _, o := range outcomes {
		for _, d := range o.disagreements {
			t.classes[d.class] = append(t.classes[d.class], d.repro)
		}
		t.restarts += o.restartChecks
		t.policies += o.policyChecks
		t.access += o.accessChecks
		if o.later && o.atWindow {
			t.laters++
		}
		if o.connectivity {
			t.connectivity++
		}
		if o.accessLists {
			t.accessLists++
		}
		if o.parameterGroup {
			t.parameterGroups++
		}
		if o.proxy {
			t.proxy++
		}
		if o.dataLoss {
			t.dataLoss++
		}
	}
	last := outcomes[len(outcomes)-1]
	if !last.compared {
		t.byCategory[sc.role+", not compared: "+last.category]++
		return
	}
	t.byCategory[sc.role+", "+last.category]++
	switch last.kind {
	case outcomeApplied:
		t.applied++
		if sc.role == "combination" {
			t.combined++
		}
		if strings.Contains(sc.name, "replace=edition") {
			t.editions++
		}
		if strings.Contains(sc.name, "destroy=the") {
			t.destroys++
		}
	case outcomeRefusalProbed:
		t.probed++
	case outcomeGuard:
		t.guards++
	case outcomeNotProbed:
		t.notProbed++
	case outcomeWarnedFailure:
		t.warned++
	}
	if last.atWindow {
		t.atWindow++
	}
}

// check reports the tally, fails on each disagreement, and enforces each floor.
func (t *oracleTally) check(tb testing.TB, floors oracleFloors) {
	var cats, names []string
	for c, n := range t.byCategory {
		cats = append(cats, fmt.Sprintf("  %5d  %s", n, c))
	}
	sort.Strings(cats)
	for c := range t.classes {
		names = append(names, c)
	}
	sort.Strings(names)
	tb.Logf("oracle: %d scenarios run; applied %d (floor %d), of them combinations %d (floor %d); refusals probed against the cloud %d (floor %d); "+
		"restart comparisons %d (floor %d); at the maintenance window %d (floor %d); guards excused by rule id %d; refusals not probed %d; "+
		"backup policies compared with the cloud %d (floor %d); edition combinations applied %d (floor %d); destroy combinations applied %d (floor %d); failures warned of at plan %d; %d disagreement classes\nby outcome:\n%s",
		t.run, t.applied, floors.applied, t.combined, floors.combined, t.probed, floors.probed, t.restarts, floors.restarts,
		t.atWindow, floors.atWindow, t.guards, t.notProbed, t.policies, floors.policies, t.editions, floors.editions, t.destroys, floors.destroys, t.warned, len(names), strings.Join(cats, "\n"))
	tb.Logf("access resources compared with the cloud %d (floor %d); later runs compared at the window %d (floor %d); connectivity runs compared %d (floor %d); parameter group runs compared %d (floor %d); proxy runs compared %d (floor %d); data-loss runs compared %d (floor %d)",
		t.access, floors.access, t.laters, floors.laters, t.connectivity, floors.connectivity, t.parameterGroups, floors.parameterGroups, t.proxy, floors.proxy, t.dataLoss, floors.dataLoss)
	for _, c := range names {
		repros := t.classes[c]
		sort.Strings(repros)
		if filed, known := t.knownDisagreement(c); known && !t.strict {
			tb.Logf("KNOWN DISAGREEMENT x%d [%s] (%s)\n    repro: %s", len(repros), c, filed, repros[0])
			continue
		}
		tb.Errorf("DISAGREEMENT x%d [%s]\n    repro: %s", len(repros), c, repros[0])
	}
	for _, f := range t.floorRows(floors) {
		if f.got < f.want {
			tb.Errorf("only %d %s, floor %d", f.got, f.what, f.want)
		}
	}
}

// floorRows are the tally's counts beside their floors.
func (t *oracleTally) floorRows(floors oracleFloors) []floorRow {
	return []floorRow{
		{"applied scenarios", t.applied, floors.applied}, {"applied combinations", t.combined, floors.combined},
		{"refusals probed against the cloud", t.probed, floors.probed}, {"restart comparisons", t.restarts, floors.restarts},
		{"runs at the maintenance window", t.atWindow, floors.atWindow},
		{"backup policies compared with the cloud", t.policies, floors.policies},
		{"applied edition combinations", t.editions, floors.editions},
		{"access resources compared with the cloud", t.access, floors.access},
		{"applied destroy combinations", t.destroys, floors.destroys},
		{"later runs compared at the window", t.laters, floors.laters},
		{"connectivity runs compared", t.connectivity, floors.connectivity},
		{"access-list runs compared", t.accessLists, floors.accessLists},
		{"parameter group runs compared", t.parameterGroups, floors.parameterGroups},
		{"proxy runs compared", t.proxy, floors.proxy},
		{"data-loss runs compared", t.dataLoss, floors.dataLoss},
	}
}

// oracleTopUpMost bounds the scenarios a short run adds while a floor is short.
const oracleTopUpMost = 400

// topUp runs scenarios of the reserve (oracleReserve) while a floor is short, each only where it can
// add to a short floor, at most oracleTopUpMost: the seeded sample decides which scenarios a run
// compares, this makes sure every seed's run compares at least the floors' worth. A harness that
// refuses or excuses everything still fails the floors: the reserve runs out.
func (t *oracleTally) topUp(tb testing.TB, h *oracleHarness, reserve []oracleScenario, floors oracleFloors) {
	added := 0
	for _, sc := range reserve {
		short := t.shortFloors(floors)
		if len(short) == 0 || added == oracleTopUpMost {
			break
		}
		if !mayFeed(sc, short) {
			continue
		}
		t.add(sc, h.runScenario(sc))
		added++
	}
	if added > 0 {
		tb.Logf("oracle topped up %d scenarios from the reserve to meet the floors", added)
	}
}

// shortFloors names the floors the tally does not meet yet.
func (t *oracleTally) shortFloors(floors oracleFloors) map[string]bool {
	short := map[string]bool{}
	for _, f := range t.floorRows(floors) {
		if f.got < f.want {
			short[f.what] = true
		}
	}
	return short
}

// mayFeed is whether running sc can add to one of the short floors: the combinations' own floors
// only by a combination of the matching level, the others by any scenario.
func mayFeed(sc oracleScenario, short map[string]bool) bool {
	combo := sc.role == "combination"
	for what := range short {
		switch what {
		case "applied combinations":
			if combo {
				return true
			}
		case "applied edition combinations":
			if strings.Contains(sc.name, "replace=edition") {
				return true
			}
		case "applied destroy combinations":
			if strings.Contains(sc.name, "destroy=the") {
				return true
			}
		case "later runs compared at the window":
			if sc.later != nil {
				return true
			}
		case "connectivity runs compared":
			if sc.connectivity != "" {
				return true
			}
		case "access-list runs compared":
			if sc.connectivity == levelAccessLists {
				return true
			}
		case "parameter group runs compared":
			if sc.parameterGroup != "" {
				return true
			}
		case "proxy runs compared":
			if sc.proxy != "" {
				return true
			}
		case "data-loss runs compared":
			if sc.dataLoss != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// oracleReserve is what a short run of seed may add while a floor is short, in a seeded order: the
// single features its sample left out, then the pairwise combinations drawn from two further seeds.
func oracleReserve(seed uint64, sample []oracleScenario) []oracleScenario {
	taken := map[string]bool{}
	for _, sc := range sample {
		taken[sc.name] = true
	}
	var singles []oracleScenario
	for _, sc := range allOracleScenarios() {
		if !taken[sc.name] {
			singles = append(singles, sc)
		}
	}
	rank := func(sc oracleScenario) uint64 {
		f := fnv.New64a()
		_, _ = fmt.Fprintf(f, "%d\x00reserve\x00%s", seed, sc.name)
		return f.Sum64()
	}
	sort.SliceStable(singles, func(i, j int) bool { return rank(singles[i]) < rank(singles[j]) })
	reserve := singles
	for _, next := range []uint64{seed ^ 1<<63, seed ^ 1<<62} {
		for _, sc := range comboScenarios(2, next) {
			if !taken[sc.name] {
				taken[sc.name] = true
				reserve = append(reserve, sc)
			}
		}
	}
	return reserve
}

// TestOraclePlanAgreesWithApply runs the oracle. It needs no terraform binary (it plays Terraform
// core over the plugin protocol) and so runs without TF_ACC. The seed is printed: replay a failure
// with RDS_ORACLE_SEED=<seed> (and RDS_ORACLE_ONLY=<part of the scenario's name>).
func TestOraclePlanAgreesWithApply(t *testing.T) {
	t.Parallel()
	long, only, sweep := os.Getenv("RDS_ORACLE_LONG") != "", os.Getenv("RDS_ORACLE_ONLY"), os.Getenv("RDS_ORACLE_SEEDS") != ""
	if !long && only == "" && !sweep {
		runOracleShard(t, oracleSeed(t), 0) // make test's short form runs in shards: oracle_shards_test.go
		return
	}
	floors := oracleShortFloors
	if long {
		floors = oracleLongFloors
	}
	if only != "" {
		floors = oracleFloors{applied: 1}
	}
	h := newOracleHarness(t)
	h.verbose = only != ""
	for _, seed := range oracleSeeds(t) {
		scenarios, generated := oracleSample(seed, long, only)
		t.Logf("oracle seed %d (replay with RDS_ORACLE_SEED=%d); %d of %d generated scenarios", seed, seed, len(scenarios), generated)
		start := time.Now()
		tally := &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}, strict: long || only != ""}
		for _, sc := range scenarios {
			tally.add(sc, h.runScenario(sc))
		}
		if !long && only == "" {
			tally.topUp(t, h, oracleReserve(seed, scenarios), floors)
		}
		t.Logf("oracle seed %d ran in %v", seed, time.Since(start).Round(time.Millisecond))
		tally.check(t, floors)
	}
}

// TestOracleUnderFaults runs combinations with a tenth of the API calls throttled and the provider
// retrying: the plan and the apply still agree. Which calls are throttled follows from the seed
// (RDS_ORACLE_SEED replays them).
func TestOracleUnderFaults(t *testing.T) {
	t.Parallel()
	for _, seed := range sampleSeeds(t) {
		oracleUnderFaults(t, seed)
	}
}

// sampleSeeds are the seeds of a test that runs one sample in make test (the first of oracleCISeeds, or
// RDS_ORACLE_SEED) and every seed of a sweep (RDS_ORACLE_SEEDS).
func sampleSeeds(t testing.TB) []uint64 {
	if os.Getenv("RDS_ORACLE_SEEDS") != "" {
		return oracleSeeds(t)
	}
	return oracleSeeds(t)[:1]
}

func oracleUnderFaults(t *testing.T, seed uint64) {
	h := newOracleHarness(t)
	h.faults, h.faultSeed, h.maxRetries = simulator.Faults{ThrottleRate: 0.1}, seed, 6
	t.Logf("oracle under faults: seed %d (replay with RDS_ORACLE_SEED=%d), 10%% of calls throttled", seed, seed)
	tally := &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}}
	for _, sc := range comboScenarios(2, seed) {
		// Enough applied runs to compare, whatever share of the seed's combinations is refused at plan:
		// six applied with two restarts compared, looking through at most 40.
		if tally.applied >= 6 && tally.restarts >= 2 || tally.run == 40 {
			break
		}
		if strings.Contains(sc.name, "prevent_restart") {
			continue // mostly refused at plan: nothing to learn under faults
		}
		tally.add(sc, h.runScenario(sc))
	}
	tally.check(t, oracleFloors{applied: 4, combined: 4, restarts: 2})
	t.Logf("seed %d: %d calls throttled", seed, h.throttled.Load())
	if n := h.throttled.Load(); n < 10 {
		t.Errorf("seed %d: only %d calls were throttled: the faults were not injected", seed, n)
	}
}
