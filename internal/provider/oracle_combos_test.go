package provider

// The oracle's combinations (issue 23 §3): scenarios where features meet. Each factor below is one
// feature with its levels; a covering array picks scenarios so that every pair of levels (the
// short form) or every triple (the long form) of two or three factors appears in at least one
// scenario. The array is built greedily from a seeded random generator: the seed changes the
// scenarios, never the coverage, and the same seed builds the same scenarios (RDS_ORACLE_SEED).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// comboFactor is one feature and its levels; the first level is "the feature is not used".
type comboFactor struct {
	name   string
	levels []string
}

var comboFactors = []comboFactor{
	{"base", []string{"8.0 cloud_essd x86", "5.7 general_essd arm", "8.0 cloud_ssd x86"}},
	{"topology", []string{"primary", "primary + read-only"}},
	{"apply_restarts", []string{"immediately", "in_maintenance_window"}},
	{"16K", []string{"unchanged", "on", "off"}},
	{"class", []string{"unchanged", "primary", "read-only", "both"}},
	{"storage", []string{"unchanged", "primary grows", "read-only grows"}},
	{"parameters", []string{"none", "online", "restart-needing", "restart-needing on the read-only", "restart-needing on both"}},
	{"guard", []string{"none", "prevent_restart on the primary", "prevent_restart on the read-only", "rename"}},
	{"fact", []string{"none", "parameter pending a restart", "scheduled task", "drift", "disk-quota lock", "imported with a scheduled task", "tags changed outside"}},
	{"replace", []string{"no", "engine_version", "zone move", "engine_version upgrade", "edition upgrade", "edition downgrade"}},
	{"data protection", []string{"unchanged", "ssl on", "tde on", "ssl and tde on"}},
	{"tags", []string{"none", "added", "changed and removed", "resource group moved"}},
	{"minor version", []string{"unchanged", "upgrade", "older target", "set to Manual"}},
	{"storage autoscaling", []string{"off", "on", "on, the cloud grew the disk", "turned on"}},
	{"billing", []string{"none", "prepaid", "bought in place", "ended in place", "renewal changed"}},
	{"backup policy", []string{"none", "set", "changed"}},
	{"access", []string{"none", "created", "changed"}},
	{"destroy", comboDestroyLevels},            // oracle_destroy_test.go
	{"later run", laterLevels},                 // oracle_later_test.go
	{"mechanism", mechanismLevels},             // oracle_mechanisms_test.go
	{"connectivity", connectivityLevels},       // oracle_connectivity_test.go
	{"parameter group", parameterGroupLevels},  // oracle_parameter_group_test.go
	{"proxy", proxyLevels},                     // oracle_proxy_test.go
	{"audit", auditLevels},                     // oracle_data_loss_test.go
	{"cross-region backup", crossRegionLevels}, // oracle_data_loss_test.go
}

// comboNormalize maps a combination to the one it really is: without a read-only instance, its
// levels that act on the read-only instance are "not used".
func comboNormalize(c []int) []int {
	out := slices.Clone(c)
	comboNormalizeDestroy(out) // first: a destroy leaves the run's other changes unused
	comboNormalizeConnectivity(out)
	comboNormalizeProxy(out)
	comboNormalizeDataLoss(out)
	level := func(f string) string { return comboLevel(out, f) }
	set := func(f, l string) {
		out[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l)
	}
	// Issue 25: a lower engine_version replaces (8.0 -> 5.7); a MySQL major version upgrade
	// (5.7 -> 8.0) goes alone, on a primary without read-only instances (upgrade_rules.go), so
	// its levels of the features it cannot meet are "not used".
	switch level("replace") {
	case "engine_version":
		set("base", "8.0 cloud_essd x86")
	case "engine_version upgrade":
		set("base", "5.7 general_essd arm")
		for _, f := range []string{"topology", "16K", "class", "storage", "parameters", "fact"} {
			out[comboFactorIndex(f)] = 0
		}
		if level("storage autoscaling") == "turned on" {
			set("storage autoscaling", "on") // an upgrade goes alone: autoscaling is on before it
		}
	}
	comboNormalizeLater(out) // first: the minor version and edition levels then drop what they cannot meet
	comboNormalizeMinor(out)
	comboNormalizeEdition(out)
	comboNormalizeParameterGroup(out) // last: it reads the levels the normalizations above leave
	if level("topology") == "primary" {
		switch level("class") {
		case "read-only":
			set("class", "unchanged")
		case "both":
			set("class", "primary")
		}
		if level("storage") == "read-only grows" {
			set("storage", "unchanged")
		}
		switch level("parameters") {
		case "restart-needing on the read-only":
			set("parameters", "none")
		case "restart-needing on both":
			set("parameters", "restart-needing")
		}
		if level("guard") == "prevent_restart on the read-only" {
			set("guard", "none")
		}
	}
	return out
}

func comboFactorIndex(name string) int {
	return slices.IndexFunc(comboFactors, func(f comboFactor) bool { return f.name == name })
}

func comboLevel(c []int, factor string) string {
	i := comboFactorIndex(factor)
	return comboFactors[i].levels[c[i]]
}

// comboTuple is strength factors with one level each: what a covering array must contain.
type comboTuple struct {
	factors, levels []int
}

func (t comboTuple) key() string { return comboKey(t.factors, t.levels) }

// comboKey encodes factors and their levels (each below 256) as a map key.
func comboKey(factors, levels []int) string {
	b := make([]byte, 0, 2*len(factors))
	for i, f := range factors {
		b = append(b, byte(f), byte(levels[i]))
	}
	return string(b)
}

func (t comboTuple) in(c []int) bool {
	for i, f := range t.factors {
		if c[f] != t.levels[i] {
			return false
		}
	}
	return true
}

// comboSubsets lists every set of strength factor indices, in increasing order.
func comboSubsets(strength int) [][]int {
	var out [][]int
	var pick func(start int, factors []int)
	pick = func(start int, factors []int) {
		if len(factors) == strength {
			out = append(out, slices.Clone(factors))
			return
		}
		for f := start; f < len(comboFactors); f++ {
			pick(f+1, append(factors, f))
		}
	}
	pick(0, nil)
	return out
}

// comboTuples lists every tuple of strength factors.
func comboTuples(strength int) []comboTuple {
	var out []comboTuple
	for _, factors := range comboSubsets(strength) {
		var levels func(i int, got []int)
		levels = func(i int, got []int) {
			if i == len(factors) {
				out = append(out, comboTuple{factors, slices.Clone(got)})
				return
			}
			for l := range comboFactors[factors[i]].levels {
				levels(i+1, append(got, l))
			}
		}
		levels(0, nil)
	}
	return out
}

// coveringCombos builds a covering array of the given strength: for each tuple not yet covered (in
// a seeded order), the best of a few random completions (the one covering the most uncovered
// tuples once normalized) joins the array. A tuple that no completion keeps (a read-only level
// without a read-only instance) cannot occur and is dropped.
func coveringCombos(strength int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, uint64(strength)))
	tuples := comboTuples(strength)
	rng.Shuffle(len(tuples), func(i, j int) { tuples[i], tuples[j] = tuples[j], tuples[i] })
	subsets := comboSubsets(strength)
	covered := map[string]bool{}
	keysOf := func(c []int) []string {
		keys := make([]string, len(subsets))
		for i, factors := range subsets {
			levels := make([]int, len(factors))
			for j, f := range factors {
				levels[j] = c[f]
			}
			keys[i] = comboKey(factors, levels)
		}
		return keys
	}
	gain := func(c []int) int {
		n := 0
		for _, k := range keysOf(c) {
			if !covered[k] {
				n++
			}
		}
		return n
	}
	var out [][]int
	for _, t := range tuples {
		if covered[t.key()] {
			continue
		}
		var best []int
		bestGain := -1
		for attempt := range 128 {
			c := make([]int, len(comboFactors))
			for f, factor := range comboFactors {
				c[f] = rng.IntN(len(factor.levels))
			}
			if attempt%2 == 1 {
				// Every other completion has a read-only instance, so its levels are never lost.
				c[comboFactorIndex("topology")] = 1
			}
			if attempt%4 != 0 {
				// Most destroy nothing: a destroy leaves the run's other changes unused (its own
				// pairs come from its tuples, whose level is set below).
				c[comboFactorIndex("destroy")] = 0
			}
			if attempt%3 != 0 {
				// Most replace nothing either: a replacement leaves no later run (comboNormalizeLater).
				c[comboFactorIndex("replace")] = 0
			}
			for i, f := range t.factors {
				c[f] = t.levels[i]
			}
			if c = comboNormalize(c); t.in(c) {
				if g := gain(c); g > bestGain {
					best, bestGain = c, g
				}
			}
		}
		if best == nil {
			// No random completion kept the tuple: its canonical one does whenever any can
			// (comboFeasible), so every feasible tuple is covered for every seed by construction.
			if c := comboCanonical(t); t.in(c) {
				best = c
			}
		}
		covered[t.key()] = true
		if best == nil {
			continue
		}
		for _, k := range keysOf(best) {
			covered[k] = true
		}
		out = append(out, best)
	}
	return out
}

// comboCanonical is the tuple's plainest combination, normalized: every other factor at its first
// level, with a read-only instance (so that every level is meaningful) unless the tuple sets the topology.
func comboCanonical(tuple comboTuple) []int {
	c := make([]int, len(comboFactors))
	c[comboFactorIndex("topology")] = 1
	for i, f := range tuple.factors {
		c[f] = tuple.levels[i]
	}
	return comboNormalize(c)
}

// comboScenarios are the scenarios of a covering array of the given strength.
func comboScenarios(strength int, seed uint64) []oracleScenario {
	var out []oracleScenario
	for _, c := range coveringCombos(strength, seed) {
		out = append(out, comboScenario(c))
	}
	return out
}

var comboBases = map[string]oracleBase{
	"8.0 cloud_essd x86":   {engine: "MySQL", version: "8.0", storageType: "cloud_essd", category: "HighAvailability", class: "mysql.n2.medium.2c", arch: "x86"},
	"5.7 general_essd arm": {engine: "MySQL", version: "5.7", storageType: "general_essd", category: "HighAvailability", class: "mysql.n2m.medium.2c", arch: "arm"},
	"8.0 cloud_ssd x86":    {engine: "MySQL", version: "8.0", storageType: "cloud_ssd", category: "HighAvailability", class: "mysql.n2.medium.2c", arch: "x86"},
}

// comboScenario turns one combination into the configurations before and after, and the fact
// changed behind Terraform's back in between.
func comboScenario(c []int) oracleScenario {
	level := func(f string) string { return comboLevel(c, f) }
	b := comboBases[level("base")]
	pb, pa := primaryAttrs(b), primaryAttrs(b)
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses[b.arch][0], "storage": 100}
	rb, ra := cloneAttrs(ro), cloneAttrs(ro)
	if level("apply_restarts") == "in_maintenance_window" {
		inWindow(pb, pa, rb, ra)
	}
	switch level("16K") {
	case "on":
		setFlag(pb, false)
		setFlag(pa, true)
	case "off":
		setFlag(pa, false)
	}
	if l := level("class"); l == "primary" || l == "both" {
		pa["instance_type"] = oracleClasses["HighAvailability/"+b.arch][1]
	}
	if l := level("class"); l == "read-only" || l == "both" {
		ra["instance_type"] = oracleReadOnlyClasses[b.arch][1]
	}
	switch level("storage") {
	case "primary grows":
		pa["storage"] = 150
	case "read-only grows":
		ra["storage"] = 150
	}
	comboParameters(level("parameters"), pb, pa, rb, ra)
	switch level("guard") {
	case "prevent_restart on the primary":
		pb["prevent_restart"], pa["prevent_restart"] = true, true
	case "prevent_restart on the read-only":
		rb["prevent_restart"], ra["prevent_restart"] = true, true
	case "rename":
		pa["instance_name"] = "orders-db"
	}
	switch level("replace") {
	case "engine_version":
		pa["engine_version"] = "5.7"
	case "engine_version upgrade":
		pa["engine_version"] = "8.0"
	case "zone move":
		pa["zone_id"] = "cn-hangzhou-j"
	}
	if l := level("data protection"); l != "unchanged" {
		pa["ssl_enabled"], pa["tde_enabled"] = l != "tde on", l != "ssl on"
	}
	comboEdition(level("replace"), pb, pa)
	comboTags(level("tags"), pb, pa, ra)
	comboMinorVersion(level("minor version"), pb, pa)
	comboAutoScale(level("storage autoscaling"), pb, pa)
	comboBilling(level("billing"), pb, pa)
	comboConnectivity(level("connectivity"), pb, pa, rb, ra)
	mechanism, afterPlan := comboMechanism(level("mechanism"), b, pa)
	before, after := []oracleResource{{"rds_instance.primary", pb}}, []oracleResource{{"rds_instance.primary", pa}}
	if level("topology") != "primary" {
		before = append(before, oracleResource{"rds_readonly_instance.ro", rb})
		after = append(after, oracleResource{"rds_readonly_instance.ro", ra})
	}
	before, after = comboParameterGroup(level("parameter group"), b, pb, pa, rb, ra, before, after)
	before, after = comboBackupPolicy(level("backup policy"), before, after)
	before, after = comboAccess(level("access"), before, after)
	before, after = comboDataLoss(level("audit"), level("cross-region backup"), pb, pa, before, after)
	after = comboDestroy(level("destroy"), level("billing"), pb, after)
	before, after = comboProxy(level("proxy"), level("guard") == "prevent_restart on the primary", level("apply_restarts") == "in_maintenance_window", before, after)
	var parts []string
	for f, factor := range comboFactors {
		if c[f] != 0 || f == 0 {
			parts = append(parts, factor.name+"="+factor.levels[c[f]])
		}
	}
	name := strings.Join(parts, ", ")
	return oracleScenario{name: "combination " + name, role: "combination", change: name, base: b,
		before: before, after: after, later: comboLater(level("later run"), b), afterPlan: afterPlan, mechanism: comboMechanismName(level("mechanism")),
		connectivity: comboConnectivityName(level("connectivity")), parameterGroup: comboParameterGroupName(level("parameter group")),
		proxy: comboProxyName(level("proxy")), dataLoss: comboDataLossName(level("audit"), level("cross-region backup")),
		fact: comboDataAged(level("audit"), level("cross-region backup"),
			bothFacts(comboAutoScaleGrowth(level("storage autoscaling"), comboFact(level("fact"), b)), mechanism))}
}

// comboParameters sets `parameters`: an online one (innodb_io_capacity) or one that needs a
// restart (back_log), changed on the primary, the read-only instance or both.
func comboParameters(level string, pb, pa, rb, ra map[string]any) {
	restart := func(before, after map[string]any) {
		before["parameters"], after["parameters"] = map[string]string{"back_log": "3000"}, map[string]string{"back_log": "4000"}
	}
	switch level {
	case "online":
		pb["parameters"], pa["parameters"] = map[string]string{"innodb_io_capacity": "20000"}, map[string]string{"innodb_io_capacity": "4000"}
	case "restart-needing":
		restart(pb, pa)
	case "restart-needing on the read-only":
		restart(rb, ra)
	case "restart-needing on both":
		restart(pb, pa)
		restart(rb, ra)
	}
}

// comboBackupPolicy adds an rds_backup_policy on the primary (issue 26 §5): set by the run, or set
// before it and changed in both of ModifyBackupPolicy's modes (data: window, days, retention; log:
// log backups turned off, local hours, log retention).
func comboBackupPolicy(level string, before, after []oracleResource) ([]oracleResource, []oracleResource) {
	set := map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"},
		"preferred_backup_time": "02:00Z-03:00Z", "preferred_backup_period": []string{"Monday", "Thursday", "Saturday"},
		"backup_retention_period": 30, "log_backup_enabled": true, "local_log_retention_hours": 24, "log_backup_retention_period": 14}
	changed := cloneAttrs(set)
	changed["preferred_backup_time"], changed["preferred_backup_period"] = "19:00Z-20:00Z", []string{"Tuesday", "Sunday"}
	changed["backup_retention_period"], changed["log_backup_enabled"] = 60, false
	changed["local_log_retention_hours"], changed["log_backup_retention_period"] = 48, 21
	switch level {
	case "set":
		after = append(after, oracleResource{"rds_backup_policy.p", set})
	case "changed":
		before = append(before, oracleResource{"rds_backup_policy.p", set})
		after = append(after, oracleResource{"rds_backup_policy.p", changed})
	}
	return before, after
}

// comboTags sets tags (issue 27): added to both instances, changed and removed on the primary, or
// the primary moved to another resource group.
func comboTags(level string, pb, pa, ra map[string]any) {
	switch level {
	case "added":
		pa["tags"], ra["tags"] = map[string]string{"team": "db", "env": "prod"}, map[string]string{"tier": "read"}
	case "changed and removed":
		pb["tags"], pa["tags"] = map[string]string{"team": "db", "env": "prod"}, map[string]string{"team": "dba"}
	case "resource group moved":
		pb["resource_group_id"], pa["resource_group_id"] = "rg-first", "rg-second"
	}
}

// oracleFact is a change made behind Terraform's back between the setup and the run.
type oracleFact struct {
	name string
	do   func(w *oracleWorld) error
}

// comboFact is the out-of-band fact of a combination, made directly through the API (or the
// simulator's hooks for a lock): a parameter waiting for a restart, a spec change scheduled for the
// maintenance window, drift in name and parameters, a disk-quota lock, or an import of instances
// with a scheduled task.
func comboFact(level string, b oracleBase) *oracleFact {
	ctx := context.Background()
	primary := func(w *oracleWorld) (rdsapi.API, string, error) {
		api, err := w.h.directClient()
		var id string
		_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
		return api, id, err
	}
	schedule := func(w *oracleWorld) error {
		api, id, err := primary(w)
		if err != nil {
			return err
		}
		_, err = api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id,
			DBInstanceClass: oracleClasses["HighAvailability/"+b.arch][1], EffectiveTime: "MaintainTime"})
		w.taskScheduled = true
		return err
	}
	switch level {
	case "parameter pending a restart":
		return &oracleFact{level, func(w *oracleWorld) error {
			api, id, err := primary(w)
			if err != nil {
				return err
			}
			return api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"innodb_open_files": "4000"}})
		}}
	case "scheduled task":
		return &oracleFact{level, schedule}
	case "drift":
		return &oracleFact{level, func(w *oracleWorld) error {
			api, id, err := primary(w)
			if err != nil {
				return err
			}
			if err := api.ModifyDBInstanceDescription(ctx, id, "renamed-by-hand"); err != nil {
				return err
			}
			return api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"innodb_io_capacity": "6000"}})
		}}
	case "disk-quota lock":
		return &oracleFact{level, func(w *oracleWorld) error {
			_, id, _ := primary(w)
			return w.sim.SetInstanceState(id, simulator.InstanceState{LockMode: "LockByDiskQuota"})
		}}
	case "tags changed outside":
		return &oracleFact{level, func(w *oracleWorld) error {
			api, id, err := primary(w)
			if err != nil {
				return err
			}
			if err := api.TagResources(ctx, &rdsapi.TagResourcesRequest{ResourceIDs: []string{id}, Tags: []rdsapi.Tag{{Key: "added-by-hand", Value: "1"}}}); err != nil {
				return err
			}
			return api.UntagResources(ctx, &rdsapi.UntagResourcesRequest{ResourceIDs: []string{id}, TagKeys: []string{"team"}})
		}}
	case "imported with a scheduled task":
		return &oracleFact{level, func(w *oracleWorld) error {
			if err := schedule(w); err != nil {
				return err
			}
			return w.reimport()
		}}
	}
	return nil
}

// reimport forgets every resource and imports it again (`terraform import`), in the order they
// were created.
func (w *oracleWorld) reimport() error {
	ids := map[string]string{}
	for _, addr := range w.seen {
		var id string
		_ = attrOf(w.state[addr], "id").As(&id)
		ids[addr] = id
		delete(w.state, addr)
		delete(w.priv, addr)
	}
	for _, addr := range w.seen {
		if err := w.importInstance(addr, ids[addr]); err != nil {
			return err
		}
	}
	return nil
}

// comboAutoScale sets storage_auto_scale on the primary (issue 27 §2): on before and after, or
// turned on by the run.
func comboAutoScale(level string, pb, pa map[string]any) {
	on := map[string]any{"threshold": 30, "upper_bound": 1000}
	switch level {
	case "on", "on, the cloud grew the disk":
		pb["storage_auto_scale"], pa["storage_auto_scale"] = on, on
	case "turned on":
		pa["storage_auto_scale"] = on
	}
}

// comboAutoScaleGrowth is the combination's fact with, first, the cloud growing the primary's disk
// (100 GB to 115, and a smaller read-only instance with it): its data fills 75% and the cloud's
// clock passes the autoscaling check.
func comboAutoScaleGrowth(level string, fact *oracleFact) *oracleFact {
	if level != "on, the cloud grew the disk" {
		return fact
	}
	name := "disk grown by autoscaling"
	if fact != nil {
		name += ", then " + fact.name
	}
	return &oracleFact{name, func(w *oracleWorld) error {
		var id string
		_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
		before := w.sim.AutoScaleGrowths(id)
		if err := w.sim.SetDiskUsage(id, 75); err != nil {
			return err
		}
		w.sim.AdvanceClock(2 * time.Minute)
		if w.sim.AutoScaleGrowths(id) != before+1 {
			return fmt.Errorf("the cloud did not grow %s", id)
		}
		if fact != nil {
			return fact.do(w)
		}
		return nil
	}}
}
