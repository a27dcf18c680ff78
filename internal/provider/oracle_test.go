package provider

// The plan-versus-apply oracle of issue 11 §3: generated scenarios over engine x version x storage
// type x edition x architecture x purchase date x role (primary; read-only instance whose primary
// changes in the same run; clone) x change. Each scenario sets up its instances (created through
// the provider, or planted in the simulator and imported when bought before 2025), then applies one
// changed configuration and compares what the plan told the user with what the cloud did:
//   - a refused plan wrote nothing, and the cloud refuses the same request (probeRefusal; only a
//     provider guard, identified by rule id, is excused);
//   - an accepted plan applies without error, with the final plan and the new state agreeing with
//     the planned values where the plan knew them (Terraform core's own consistency checks);
//   - the restarts the simulator counts per instance equal the restarts the planner's decision
//     lists (plannedRestarts), each shown in the plan; deferred ones happen at the window;
//   - an instance is replaced exactly when the plan said so (creates and deletes counted);
//   - a refresh and plan afterwards show no change.
// Any disagreement fails the test with a minimal repro. The short form runs in `make test`; the long
// form (RDS_ORACLE_LONG=1, `make test-oracle`) runs every scenario. The combinations of features
// (oracle_combos_test.go) and the floors, seed and tally (oracle_run_test.go) are beside it.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// oracleBase is the instance a scenario starts from.
type oracleBase struct {
	engine, version, storageType, category, class, arch string
	// bought is the purchase date of a planted instance; zero for one created by the provider now.
	bought time.Time
}

func (b oracleBase) String() string {
	when := "new"
	if !b.bought.IsZero() {
		when = "bought " + b.bought.Format("2006-01-02")
	}
	return fmt.Sprintf("%s %s %s %s %s(%s) %s", b.engine, b.version, b.storageType, b.category, b.class, b.arch, when)
}

// eligible is the 16K rule set of the spec (MySQL 5.7/8.0, ESSD, bought after the cutoff or YiTian).
func (b oracleBase) eligible() bool {
	essd := strings.HasPrefix(b.storageType, "cloud_essd") || b.storageType == "general_essd"
	return b.engine == "MySQL" && (b.version == "5.7" || b.version == "8.0") && essd && (b.bought.IsZero() || b.arch == "arm")
}

var oracleBought2024 = time.Date(2024, 6, 1, 8, 0, 0, 0, time.UTC)

// classes per edition and architecture, from the simulator's catalogue: [current, same-arch other, cross-arch].
var oracleClasses = map[string][3]string{
	"HighAvailability/x86": {"mysql.n2.medium.2c", "mysql.n2.large.2c", "mysql.n2m.large.2c"},
	"HighAvailability/arm": {"mysql.n2m.medium.2c", "mysql.n2m.large.2c", "mysql.n2.large.2c"},
	"Basic/x86":            {"mysql.n2.medium.1", "mysql.n2.large.1", ""},
	"cluster/x86":          {"mysql.n2.medium.xc", "", "mysql.n2e.medium.xc"},
	"cluster/arm":          {"mysql.n2e.medium.xc", "mysql.x2e.large.xc", "mysql.n2.medium.xc"},
	"pg/x86":               {"pg.n2.medium.2c", "pg.n2.large.2c", ""},
}

var oracleReadOnlyClasses = map[string][2]string{
	"x86": {"mysqlro.n2.medium.1c", "mysqlro.n2.large.1c"},
	"arm": {"mysqlro.n2m.small.1c", "mysqlro.x2m.large.1c"},
}

var oracleStorageTypes = []string{"cloud_essd", "cloud_essd2", "general_essd", "cloud_ssd", "local_ssd"}

func oracleBases(versions, storages []string, categories []string) []oracleBase {
	var out []oracleBase
	for _, v := range versions {
		for _, st := range storages {
			for _, cat := range categories {
				for _, arch := range []string{"x86", "arm"} {
					cls, ok := oracleClasses[cat+"/"+arch]
					if !ok || (arch == "arm" && st == "local_ssd") {
						continue
					}
					for _, bought := range []time.Time{{}, oracleBought2024} {
						out = append(out, oracleBase{engine: "MySQL", version: v, storageType: st, category: cat, class: cls[0], arch: arch, bought: bought})
					}
				}
			}
		}
	}
	return out
}

// oracleScenario is one generated case: the resources before and after, and how to set them up.
type oracleScenario struct {
	name, role, change string
	base               oracleBase
	// seedFlag is the 16K flag a planted instance starts with.
	seedFlag bool
	before   []oracleResource
	after    []oracleResource
	// short: always in the short form (one base of each scenario family that needs it).
	short bool
	// fact, when set, changes the cloud behind Terraform's back between the setup and the run.
	fact *oracleFact
	// later, when set, is a second run before the first run's maintenance window (oracle_later_test.go).
	later *oracleLater
	// afterPlan, when set, changes the cloud between the run's plan and its apply: a saved plan applied
	// after the cloud moved on (oracle_mechanisms_test.go).
	afterPlan *oracleFact
	// mechanism is the level of the "mechanism" factor ("" for none).
	mechanism string
	// connectivity is the level of the "connectivity" factor ("" for none): its world's name service answers on the
	// connection strings and its runs compare the endpoints that stop answering with the plan (oracle_connectivity_test.go).
	connectivity string
	// parameterGroup is the level of the "parameter group" factor ("" for none): oracle_parameter_group_test.go.
	parameterGroup string
	// proxy is the level of the "proxy" factor ("" for none): its runs compare the proxy with the cloud (oracle_proxy_test.go).
	proxy string
	// dataLoss names the levels of the "audit" and "cross-region backup" factors ("" for none): its runs compare the
	// plan's data-loss warnings with what the simulator deleted (oracle_data_loss_test.go).
	dataLoss string
}

func primaryAttrs(b oracleBase) map[string]any {
	return map[string]any{
		"engine": b.engine, "engine_version": b.version, "instance_type": b.class, "storage": 100,
		"storage_type": b.storageType, "category": b.category,
	}
}

func cloneAttrs(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// oracleChange edits the "before" attributes into the "after" ones; before may also be adjusted
// (e.g. the flag explicitly off so that the change turns it on).
type oracleChange struct {
	name  string
	apply func(b oracleBase, before, after map[string]any) bool // false: not applicable to this base
}

func setFlag(m map[string]any, v any) { m["atomic_write_16k"] = v }

func primaryChanges() []oracleChange {
	cls := func(b oracleBase, i int) string {
		key := b.category + "/" + b.arch
		if b.engine != "MySQL" {
			key = "pg/x86"
		}
		return oracleClasses[key][i]
	}
	other := map[string]string{"5.7": "8.0", "8.0": "5.7", "5.6": "5.7", "8.4": "8.0", "16.0": "15.0"}
	changes := []oracleChange{
		{"flag on", func(b oracleBase, before, after map[string]any) bool {
			setFlag(before, false)
			setFlag(after, true)
			return true
		}},
		{"flag off", func(b oracleBase, before, after map[string]any) bool { setFlag(after, false); return true }},
		{"flag unset after explicit off", func(b oracleBase, before, after map[string]any) bool {
			setFlag(before, false)
			return true
		}},
		{"class same architecture", func(b oracleBase, before, after map[string]any) bool {
			after["instance_type"] = cls(b, 1)
			return cls(b, 1) != ""
		}},
		{"class other architecture", func(b oracleBase, before, after map[string]any) bool {
			after["instance_type"] = cls(b, 2)
			return cls(b, 2) != ""
		}},
		{"storage up", func(b oracleBase, before, after map[string]any) bool { after["storage"] = 150; return true }},
		{"storage down", func(b oracleBase, before, after map[string]any) bool { after["storage"] = 50; return true }},
		{"version", func(b oracleBase, before, after map[string]any) bool {
			after["engine_version"] = other[b.version]
			return true
		}},
		{"zone move", func(b oracleBase, before, after map[string]any) bool { after["zone_id"] = "cn-hangzhou-j"; return true }},
		{"name", func(b oracleBase, before, after map[string]any) bool {
			after["instance_name"] = "orders-db"
			return true
		}},
		{"security ips", func(b oracleBase, before, after map[string]any) bool {
			after["security_ips"] = []string{"10.0.0.0/8", "192.168.1.10"}
			return true
		}},
		{"deletion protection on", func(b oracleBase, before, after map[string]any) bool {
			after["deletion_protection"] = true
			return true
		}},
		{"deletion protection off", func(b oracleBase, before, after map[string]any) bool {
			before["deletion_protection"] = true
			return true
		}},
		{"flag on + class other architecture", func(b oracleBase, before, after map[string]any) bool {
			setFlag(before, false)
			setFlag(after, true)
			after["instance_type"] = cls(b, 2)
			return cls(b, 2) != ""
		}},
		{"flag on + storage type general_essd", func(b oracleBase, before, after map[string]any) bool {
			setFlag(before, false)
			setFlag(after, true)
			after["storage_type"] = "general_essd"
			return b.storageType != "general_essd"
		}},
		{"class + storage up", func(b oracleBase, before, after map[string]any) bool {
			after["instance_type"] = cls(b, 1)
			after["storage"] = 200
			return cls(b, 1) != ""
		}},
		{"name + ips + deletion protection", func(b oracleBase, before, after map[string]any) bool {
			after["instance_name"] = "orders-db"
			after["security_ips"] = []string{"10.0.0.0/8"}
			after["deletion_protection"] = true
			return true
		}},
		{"deletion protection + version (replacement)", func(b oracleBase, before, after map[string]any) bool {
			before["deletion_protection"] = true
			after["engine_version"] = other[b.version]
			return true
		}},
		{"flag on + storage up", func(b oracleBase, before, after map[string]any) bool {
			setFlag(before, false)
			setFlag(after, true)
			after["storage"] = 150
			return true
		}},
		{"flag off + class same architecture", func(b oracleBase, before, after map[string]any) bool {
			setFlag(after, false)
			after["instance_type"] = cls(b, 1)
			return cls(b, 1) != ""
		}},
		{"buffer pool extension on", func(b oracleBase, before, after map[string]any) bool {
			after["buffer_pool_extension"] = true
			return true
		}},
		{"storage type general_essd + buffer pool extension on", func(b oracleBase, before, after map[string]any) bool {
			after["storage_type"], after["buffer_pool_extension"] = "general_essd", true
			return b.storageType != "general_essd"
		}},
		{"destroy", func(b oracleBase, before, after map[string]any) bool { after[oracleDestroy] = true; return true }},
		{"deletion protection on, destroy", func(b oracleBase, before, after map[string]any) bool {
			before["deletion_protection"] = true
			after[oracleDestroy] = true
			return true
		}},
		{"billing: prepaid, destroy", func(b oracleBase, before, after map[string]any) bool {
			before["billing"] = oraclePrepaid("Month", 1, false)
			after[oracleDestroy] = true
			return true
		}},
		{"billing: prepaid, destroy with convert_and_delete", func(b oracleBase, before, after map[string]any) bool {
			before["billing"], before["prepaid_on_destroy"] = oraclePrepaid("Year", 1, true), "convert_and_delete"
			after[oracleDestroy] = true
			return true
		}},
		{"billing: prepaid, destroy with abandon", func(b oracleBase, before, after map[string]any) bool {
			before["billing"], before["prepaid_on_destroy"] = oraclePrepaid("Month", 3, false), "abandon"
			after[oracleDestroy] = true
			return true
		}},
		{"prevent_restart + class", func(b oracleBase, before, after map[string]any) bool {
			before["prevent_restart"] = true
			after["instance_type"] = cls(b, 1)
			return cls(b, 1) != ""
		}},
		{"prevent_restart + name", func(b oracleBase, before, after map[string]any) bool {
			before["prevent_restart"] = true
			after["instance_name"] = "orders-db"
			return true
		}},
		{"prevent_restart + zone move", func(b oracleBase, before, after map[string]any) bool {
			before["prevent_restart"] = true
			after["zone_id"] = "cn-hangzhou-j"
			return true
		}},
	}
	for _, st := range oracleStorageTypes {
		changes = append(changes, oracleChange{"storage type " + st, func(b oracleBase, before, after map[string]any) bool {
			after["storage_type"] = st
			return b.storageType != st
		}})
	}
	return changes
}

func primaryScenarios() []oracleScenario {
	bases := oracleBases([]string{"5.6", "5.7", "8.0", "8.4"}, oracleStorageTypes, []string{"HighAvailability", "Basic", "cluster"})
	for _, st := range oracleStorageTypes {
		for _, bought := range []time.Time{{}, oracleBought2024} {
			bases = append(bases, oracleBase{engine: "PostgreSQL", version: "16.0", storageType: st, category: "HighAvailability", class: "pg.n2.medium.2c", arch: "x86", bought: bought})
		}
	}
	var out []oracleScenario
	for _, b := range bases {
		for _, c := range primaryChanges() {
			before, after := primaryAttrs(b), primaryAttrs(b)
			if !c.apply(b, before, after) {
				continue
			}
			for k, v := range before {
				if _, changed := after[k]; !changed || k == "atomic_write_16k" && after[k] == nil {
					after[k] = v
				}
			}
			fixAfter(before, after, c.name)
			afterRes := []oracleResource{{"rds_instance.db", after}}
			if after[oracleDestroy] == true {
				afterRes = nil
			}
			out = append(out, oracleScenario{
				name: fmt.Sprintf("primary %s: %s", b, c.name), role: "primary", change: c.name, base: b, seedFlag: b.eligible() && before["atomic_write_16k"] == nil,
				before: []oracleResource{{"rds_instance.db", before}},
				after:  afterRes,
			})
		}
	}
	return out
}

// oracleDestroy in a change's "after" attributes removes the resource from the configuration.
const oracleDestroy = "(destroy)"

// fixAfter carries "before" values the change did not touch into "after"; a change that unsets an
// attribute says so by name.
func fixAfter(before, after map[string]any, change string) {
	if change == "flag unset after explicit off" {
		delete(after, "atomic_write_16k")
	}
	if strings.HasPrefix(change, "deletion protection off") {
		after["deletion_protection"] = false
	}
}

// readOnlyScenarios: a primary and its read-only instance (master_instance_id references the
// primary), with the primary, the read-only instance or both changed in one run.
func readOnlyScenarios() []oracleScenario {
	bases := oracleBases([]string{"5.7", "8.0"}, []string{"cloud_essd", "general_essd", "cloud_ssd"}, []string{"HighAvailability"})
	type roChange struct {
		name string
		// edit changes the primary's and the read-only instance's attributes (before and after).
		edit func(b oracleBase, pb, pa, rb, ra map[string]any) bool
		// addReadOnly: the read-only instance exists only after the change.
		addReadOnly bool
		// destroy: 1 removes the read-only instance from the configuration, 2 both.
		destroy int
	}
	ref := oracleRef{"rds_instance.primary", "atomic_write_16k"}
	changes := []roChange{
		{"primary flag on, read-only unset", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			return true
		}, false, 0},
		{"primary flag off, read-only unset", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pa["atomic_write_16k"] = false
			return true
		}, false, 0},
		{"both flags off", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pa["atomic_write_16k"], ra["atomic_write_16k"] = false, false
			return true
		}, false, 0},
		{"primary flag on, read-only false", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			rb["atomic_write_16k"], ra["atomic_write_16k"] = false, false
			return true
		}, false, 0},
		{"primary flag on, read-only true", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			ra["atomic_write_16k"] = true
			return true
		}, false, 0},
		{"primary flag on, read-only references the primary's flag", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			rb["atomic_write_16k"], ra["atomic_write_16k"] = ref, ref
			return true
		}, false, 0},
		{"primary flag off, read-only references the primary's flag", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pa["atomic_write_16k"] = false
			rb["atomic_write_16k"], ra["atomic_write_16k"] = ref, ref
			return true
		}, false, 0},
		{"primary flag on, read-only prevent_restart", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			rb["prevent_restart"], ra["prevent_restart"] = true, true
			return true
		}, false, 0},
		{"primary flag on, new read-only unset", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			return true
		}, true, 0},
		{"primary class, read-only unchanged", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pa["instance_type"] = oracleClasses["HighAvailability/"+b.arch][1]
			return true
		}, false, 0},
		{"primary flag on, read-only class", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, true
			ra["instance_type"] = oracleReadOnlyClasses[b.arch][1]
			return true
		}, false, 0},
		{"read-only class", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			ra["instance_type"] = oracleReadOnlyClasses[b.arch][1]
			return true
		}, false, 0},
		{"read-only storage up", func(b oracleBase, pb, pa, rb, ra map[string]any) bool { ra["storage"] = 150; return true }, false, 0},
		{"read-only storage below the primary's", func(b oracleBase, pb, pa, rb, ra map[string]any) bool { ra["storage"] = 50; return true }, false, 0},
		{"primary storage above the read-only's", func(b oracleBase, pb, pa, rb, ra map[string]any) bool { pa["storage"] = 200; return true }, false, 0},
		{"read-only flag on alone", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			pb["atomic_write_16k"], pa["atomic_write_16k"] = false, false
			ra["atomic_write_16k"] = true
			return true
		}, false, 0},
		{"read-only name + deletion protection", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			ra["instance_name"], ra["deletion_protection"] = "orders-ro", true
			return true
		}, false, 0},
		{"destroy the read-only instance", func(b oracleBase, pb, pa, rb, ra map[string]any) bool { return true }, false, 1},
		{"destroy both", func(b oracleBase, pb, pa, rb, ra map[string]any) bool { return true }, false, 2},
		{"destroy both, read-only protected", func(b oracleBase, pb, pa, rb, ra map[string]any) bool {
			rb["deletion_protection"] = true
			return true
		}, false, 2},
	}
	var out []oracleScenario
	for _, b := range bases {
		for _, c := range changes {
			pb, pa := primaryAttrs(b), primaryAttrs(b)
			ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses[b.arch][0], "storage": 100}
			rb, ra := cloneAttrs(ro), cloneAttrs(ro)
			if !c.edit(b, pb, pa, rb, ra) {
				continue
			}
			for _, readOnly := range []int{1, 2} {
				if readOnly == 2 && !twoReadOnly[c.name] {
					continue
				}
				before := []oracleResource{{"rds_instance.primary", pb}}
				after := []oracleResource{{"rds_instance.primary", pa}}
				for i := 1; i <= readOnly; i++ {
					addr := "rds_readonly_instance.ro"
					if i > 1 {
						addr += fmt.Sprint(i)
					}
					if !c.addReadOnly {
						before = append(before, oracleResource{addr, cloneAttrs(rb)})
					}
					if c.destroy == 0 {
						after = append(after, oracleResource{addr, cloneAttrs(ra)})
					}
				}
				if c.destroy == 2 {
					after = nil
				}
				name := c.name
				if readOnly == 2 {
					name += ", two read-only instances"
				}
				out = append(out, oracleScenario{
					name: fmt.Sprintf("read-only of %s: %s", b, name), role: "read-only", change: name, base: b,
					seedFlag: b.eligible() && pb["atomic_write_16k"] == nil,
					before:   before,
					after:    after,
				})
			}
		}
	}
	return out
}

// twoReadOnly are the read-only changes also run with two read-only instances of one primary.
var twoReadOnly = map[string]bool{
	"primary flag on, read-only unset": true, "primary flag off, read-only unset": true, "both flags off": true,
	"primary flag on, read-only true": true, "destroy both": true, "destroy the read-only instance": true,
}

// cloneScenarios: a source instance, then a clone of it (restore_from referencing the source),
// sometimes with the source changed in the same run.
func cloneScenarios() []oracleScenario {
	bases := oracleBases([]string{"5.7", "8.0"}, []string{"cloud_essd", "general_essd", "cloud_ssd"}, []string{"HighAvailability"})
	type cloneChange struct {
		name string
		edit func(b oracleBase, src, clone map[string]any) bool
	}
	other := map[string]string{"5.7": "8.0", "8.0": "5.7"}
	changes := []cloneChange{
		{"clone, flag unset", func(b oracleBase, src, clone map[string]any) bool { return true }},
		{"clone, flag true", func(b oracleBase, src, clone map[string]any) bool { clone["atomic_write_16k"] = true; return true }},
		{"clone, flag false", func(b oracleBase, src, clone map[string]any) bool { clone["atomic_write_16k"] = false; return true }},
		{"clone, other engine_version", func(b oracleBase, src, clone map[string]any) bool {
			clone["engine_version"] = other[b.version]
			return true
		}},
		{"clone, class other architecture", func(b oracleBase, src, clone map[string]any) bool {
			clone["instance_type"] = oracleClasses["HighAvailability/"+b.arch][2]
			return true
		}},
		{"clone, bigger storage", func(b oracleBase, src, clone map[string]any) bool { clone["storage"] = 200; return true }},
		{"clone, name + ips + deletion protection", func(b oracleBase, src, clone map[string]any) bool {
			clone["instance_name"], clone["security_ips"], clone["deletion_protection"] = "orders-clone", []string{"10.0.0.0/8"}, true
			return true
		}},
		{"clone, prevent_restart + flag true", func(b oracleBase, src, clone map[string]any) bool {
			clone["atomic_write_16k"], clone["prevent_restart"] = true, true
			return true
		}},
		{"clone while the source is turned off", func(b oracleBase, src, clone map[string]any) bool {
			src["atomic_write_16k"] = false
			return true
		}},
		{"clone while the source is turned on", func(b oracleBase, src, clone map[string]any) bool {
			src["atomic_write_16k"] = true
			return true
		}},
	}
	var out []oracleScenario
	for _, b := range bases {
		for _, c := range changes {
			sb, sa := primaryAttrs(b), primaryAttrs(b)
			if c.name == "clone while the source is turned on" {
				sb["atomic_write_16k"] = false
			}
			clone := primaryAttrs(b)
			clone["restore_from"] = map[string]any{"source_instance_id": oracleRef{"rds_instance.src", "id"}, "backup_id": "b-oracle"}
			if !c.edit(b, sa, clone) {
				continue
			}
			out = append(out, oracleScenario{
				name: fmt.Sprintf("clone of %s: %s", b, c.name), role: "clone", change: c.name, base: b, seedFlag: b.eligible() && sb["atomic_write_16k"] == nil,
				before: []oracleResource{{"rds_instance.src", sb}},
				after:  []oracleResource{{"rds_instance.src", sa}, {"rds_instance.clone", clone}},
			})
		}
	}
	return out
}

func allOracleScenarios() []oracleScenario {
	var out []oracleScenario
	out = append(out, primaryScenarios()...)
	out = append(out, readOnlyScenarios()...)
	out = append(out, cloneScenarios()...)
	out = append(out, deferredScenarios()...)
	return out
}

// ---- running a scenario ----

// oracleDisagreement is one place where plan and cloud disagree. class groups them (no ids, no
// scenario), repro is the minimal reproduction.
type oracleDisagreement struct {
	class, repro string
}

type oracleOutcome struct {
	compared bool
	// atWindow: the apply deferred restarts, and the cloud was taken past the maintenance window.
	atWindow      bool
	category      string // "applied" or "refused at plan" (with the refusal) or "setup refused"
	disagreements []oracleDisagreement
	// kind is what the run counts toward: outcomeApplied, outcomeRefusalProbed, outcomeGuard,
	// outcomeNotProbed, outcomeWarnedFailure.
	kind oracleOutcomeKind
	// restartChecks counts the instances whose restarts were compared where the plan or the cloud
	// had at least one (during the apply and at the window).
	restartChecks int
	// policyChecks counts the rds_backup_policy resources compared with DescribeBackupPolicy.
	policyChecks int
	// accessChecks counts the access resources compared with what the cloud lists (oracle_access_combos_test.go).
	accessChecks int
	// held: the run left restarts waiting (deferred) and kept the cloud before its window for a later run;
	// later: this is a later run (or action) that was compared, at the window too.
	held, later bool
	deferred    map[string]int
	// connectivity: the endpoints that stopped answering were compared with the plan (oracle_connectivity_test.go).
	connectivity bool
	// accessLists: the access lists the plan promised were compared with the cloud and its logins (oracle_access_lists_test.go).
	accessLists bool
	// parameterGroup: the instances that use a parameter group were compared with it (oracle_parameter_group_test.go).
	parameterGroup bool
	// proxy: the proxy in state was compared with the cloud (oracle_proxy_test.go).
	proxy bool
	// dataLoss: the data-loss warnings were compared with what the cloud deleted (oracle_data_loss_test.go).
	dataLoss bool
}

// oracleOutcomeKind is what a run counts toward; each counted kind has its own floor.
type oracleOutcomeKind int

const (
	_ oracleOutcomeKind = iota // the zero value: no outcome yet
	// outcomeApplied: the plan passed and the apply was compared with it.
	outcomeApplied
	// outcomeRefusalProbed: the plan refused, and the same request was sent to the cloud.
	outcomeRefusalProbed
	// outcomeGuard: a provider guard (prevent_restart) refused, excused by rule id.
	outcomeGuard
	// outcomeNotProbed: the plan refused, and no request could be sent to compare.
	outcomeNotProbed
	// outcomeWarnedFailure: the plan warned that the apply fails (Stopped, locked), and it did.
	outcomeWarnedFailure
)

func mutationsIn(st simulator.Stats) int {
	n := 0
	for _, a := range mutatingActions {
		n += st.Requests[a]
	}
	return n
}

// setup brings the world to the scenario's "before" configuration: planted and imported when the
// base was bought before 2025, else created through the provider. The run is checked like any
// other; its disagreements count.
func (w *oracleWorld) setup(sc oracleScenario) (ok bool, out oracleOutcome) {
	if !sc.base.bought.IsZero() {
		ids := map[string]string{}
		for _, r := range sc.before {
			seed := simulator.SeedInstance{Engine: sc.base.engine, EngineVersion: sc.base.version, DBInstanceClass: sc.base.class, Storage: 100,
				StorageType: sc.base.storageType, Category: sc.base.category, PurchaseTime: sc.base.bought, OptimizedWrites: sc.seedFlag}
			if r.typeName() == "rds_readonly_instance" {
				seed.DBInstanceClass, seed.MasterID = r.attrs["instance_type"].(string), ids["rds_instance.primary"]
				seed.Category = ""
			}
			id, err := w.sim.AddInstance(seed)
			if err != nil {
				w.h.t.Fatalf("%s: planting %s: %v", sc.name, r.addr, err)
			}
			ids[r.addr] = id
			// Someone configured it by hand before it was imported.
			if err := w.configureByHand(id, r.addr); err != nil {
				w.h.t.Fatalf("%s: %v", sc.name, err)
			}
			if err := w.importInstance(r.addr, id); err != nil {
				w.h.t.Fatalf("%s: %v", sc.name, err)
			}
		}
		// Imported into a configuration that leaves every optional attribute unset, the plan is
		// empty: nothing the cloud has (name, allow-list, flag) is silently replaced.
		out = w.planAfterImport(sc)
	}
	res := w.run(sc.name+" [setup]", sc.before)
	res.disagreements = append(out.disagreements, res.disagreements...)
	return res.category == "applied", res
}

// configureByHand gives a planted instance a name and an allow-list other than the defaults.
func (w *oracleWorld) configureByHand(id, addr string) error {
	api, err := w.h.directClient()
	if err != nil {
		return err
	}
	ctx := context.Background()
	if err := api.ModifyDBInstanceDescription(ctx, id, "legacy-"+strings.SplitN(addr, ".", 2)[1]); err != nil {
		return err
	}
	if strings.HasPrefix(addr, "rds_readonly_instance.") {
		return nil
	}
	return api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "10.1.0.0/16,192.168.7.7", DBInstanceIPArrayName: "default"})
}

func (w *oracleWorld) planAfterImport(sc oracleScenario) oracleOutcome {
	var out oracleOutcome
	var minimal []oracleResource
	for _, r := range sc.before {
		keep := map[string]any{}
		for _, name := range []string{"engine", "engine_version", "instance_type", "storage", "storage_type", "category", "master_instance_id"} {
			if v, ok := r.attrs[name]; ok {
				keep[name] = v
			}
		}
		minimal = append(minimal, oracleResource{r.addr, keep})
	}
	plan, err := w.planWalk(minimal)
	if err != nil {
		w.h.t.Fatalf("%s: plan after import: %v", sc.name, err)
	}
	name := sc.name + " [import]"
	if plan.errAt != "" {
		out.disagreements = append(out.disagreements, oracleDisagreement{"plan after import fails: " + refusalClass(plan.errMsg),
			fmt.Sprintf("%s: the plan after import fails at %s: %s", name, plan.errAt, plan.errMsg)})
		return out
	}
	for _, r := range minimal {
		if p := plan.res[r.addr]; p.action != actNoop {
			diff := valueDiff(p.prior, p.planned, false)
			out.disagreements = append(out.disagreements, oracleDisagreement{
				fmt.Sprintf("plan after import not empty: %s %s", r.typeName(), strings.Join(attrNames(diff), ",")),
				fmt.Sprintf("%s: imported into a configuration without optional attributes, the plan wants to %s %s: %s", name, p.action, r.addr, strings.Join(diff, ", "))})
		}
	}
	return out
}

// run applies one configuration as `terraform apply` would and checks every promise.
func (w *oracleWorld) run(name string, order []oracleResource) oracleOutcome {
	out := oracleOutcome{compared: true}
	disagree := func(class, format string, args ...any) {
		out.disagreements = append(out.disagreements, oracleDisagreement{class: class, repro: name + ": " + fmt.Sprintf(format, args...)})
	}
	idOf := func(addr string) string {
		var id string
		if v, ok := w.state[addr]; ok {
			_ = attrOf(v, "id").As(&id)
		}
		return id
	}
	oldIDs := map[string]string{}
	for _, r := range order {
		oldIDs[r.addr] = idOf(r.addr)
	}

	w.sim.ResetStats()
	plan, err := w.planWalk(order)
	if err != nil {
		w.h.t.Fatalf("%s: plan walk: %v", name, err)
	}
	if n := mutationsIn(w.sim.Stats()); n > 0 {
		disagree("the plan wrote to the cloud", "planning sent %d mutating requests %v", n, w.sim.Stats().Requests)
	}
	for _, r := range order {
		if p := plan.res[r.addr]; p != nil {
			for _, inv := range p.invalid {
				disagree("invalid plan: "+r.typeName()+" "+strings.SplitN(inv, " ", 2)[0], "%s: the plan does not keep the configured value: %s", r.addr, inv)
			}
		}
	}
	if plan.errAt != "" {
		// Terraform stops here. The cloud must refuse the same request: a plan that refuses what
		// the cloud accepts is a disagreement too.
		refused, policy, probed, answer := w.probeRefusal(order, plan)
		switch {
		case policy:
			out.kind = outcomeGuard
			out.category = "refused at plan by a provider guard: " + answer
		case !probed:
			out.kind = outcomeNotProbed
			out.category = "refused at plan (" + answer + "): " + refusalClass(plan.errMsg)
		case refused:
			out.kind = outcomeRefusalProbed
			out.category = "refused at plan, cloud refuses too: " + refusalClass(plan.errMsg)
		default:
			out.kind = outcomeRefusalProbed
			disagree("plan refuses what the cloud accepts: "+refusalClass(plan.errMsg), "the plan of %s fails with %s; the same request sent to the cloud is %s",
				plan.errAt, plan.errMsg, answer)
			out.category = "refused at plan, cloud accepts: " + refusalClass(plan.errMsg)
		}
		return out
	}
	definite, possible, deferred := plannedRestarts(plan, order)
	for _, r := range order {
		if p := plan.res[r.addr]; p != nil {
			for _, who := range unshownRestarts(p) {
				disagree("restart planned but not shown: "+r.typeName(), "%s: the planner restarts %s, but no diagnostic of the plan names it (plan: %s)", r.addr, who, planSummary(plan, order))
			}
		}
	}
	var stats simulator.Stats
	defer func() {
		if w.h.verbose {
			w.h.t.Logf("%s\n  plan: %s\n  named restarts %v (+possible %v, in the window %v)\n  cloud: requests %v restarts %v\n  disagreements %v",
				name, planSummary(plan, order), definite, possible, deferred, stats.Requests, stats.Restarts, out.disagreements)
		}
	}()

	var owners map[string]string
	if w.endpoints {
		owners = w.endpointOwners()
	}
	groupsBefore := w.groupRunning(order)
	proxyBefore := w.proxyBefore(order)
	w.sim.ResetStats()
	if w.beforeApply != nil {
		w.beforeApply(w)
	}
	applied, err := w.applyWalk(order, plan)
	if err != nil {
		w.h.t.Fatalf("%s: apply walk: %v", name, err)
	}
	order = knownAfterApply(order) // what was known only at apply is known to every later plan
	out.category, out.kind = "applied", outcomeApplied
	stats = w.sim.Stats()
	switch {
	case applied.errAt != "" && warnedOfFailure(plan.res[applied.errAt], applied.errMsg):
		// The plan said this apply fails (a Stopped or locked instance) and named the fix.
		out.category, out.kind = "warned at plan, refused at apply: "+refusalClass(applied.errMsg), outcomeWarnedFailure
	case applied.errAt != "":
		disagree("plan passed, apply failed: "+refusalClass(applied.errMsg), "the plan passed (%s); the apply of %s failed: %s", planSummary(plan, order), applied.errAt, applied.errMsg)
	}
	for _, inc := range applied.inconsistent {
		disagree(fmt.Sprintf("%s: %s: %s", inc.what, strings.SplitN(inc.addr, ".", 2)[0], strings.Join(attrNames(inc.diff), ",")),
			"%s: %s: %s", inc.addr, inc.what, strings.Join(inc.diff, ", "))
	}

	// Restarts per instance: what the plan named against what the cloud counted.
	keyOf := map[string]string{} // instance id -> key used by plannedRestarts
	for _, r := range order {
		p := plan.res[r.addr]
		if p == nil || !isInstanceResource(r.addr) {
			continue
		}
		if id := idOf(r.addr); id != "" {
			keyOf[id] = id
			if p.action == actCreate || p.action == actReplace {
				keyOf[id] = "new:" + r.addr
			}
		}
	}
	out.restartChecks += compareRestarts(definite, possible, stats.Restarts, keyOf, applied.errAt == "", func(id string) string { return w.addrOf(id, order) }, disagree)

	// Replacement exactly when planned: ids, creates and deletes.
	wantCreates, wantDeletes := 0, 0
	for _, r := range order {
		p := plan.res[r.addr]
		if !isInstanceResource(r.addr) {
			continue // a backup policy is adopted and left, never created or deleted
		}
		switch p.action {
		case actCreate:
			wantCreates++
		case actReplace:
			wantCreates++
			wantDeletes++
			if idOf(r.addr) == oldIDs[r.addr] && applied.errAt == "" {
				disagree("replacement planned, id unchanged", "%s: the plan replaces it (%v) but its id is still %s", r.addr, p.replace, oldIDs[r.addr])
			}
		case actUpdate, actNoop:
			if old := oldIDs[r.addr]; old != "" && idOf(r.addr) != old {
				disagree("id changed without a planned replacement", "%s: planned %s, but its id changed from %s to %s", r.addr, p.action, old, idOf(r.addr))
			}
		}
	}
	for addr, p := range plan.res {
		if p.action == actDelete && isInstanceResource(addr) && !abandonedOnDestroy(p.prior) {
			wantDeletes++
		}
	}
	// Requests answered Throttling (injected faults) were not carried out.
	served := func(action string) int { return stats.Requests[action] - stats.Throttled[action] }
	creates := served("CreateDBInstance") + served("CreateReadOnlyDBInstance") + served("CloneDBInstance")
	if applied.errAt == "" && (creates != wantCreates || !deletesAgree(served("DeleteDBInstance"), wantDeletes, plan)) {
		disagree("creates/deletes differ from the plan", "the plan creates %d and deletes %d instances; the cloud received %d creates and %d deletes",
			wantCreates, wantDeletes, creates, served("DeleteDBInstance"))
	}
	if applied.errAt != "" {
		return out
	}

	// prevent_restart = true means no restart of that instance, named or not.
	for _, r := range order {
		if r.attrs["prevent_restart"] == true {
			if n := stats.Restarts[idOf(r.addr)]; n > 0 {
				disagree("prevent_restart = true, but the apply restarted the instance: "+r.typeName(),
					"%s has prevent_restart = true; the plan passed (%s) and the simulator counted %d restart(s) of %s", r.addr, planSummary(plan, order), n, idOf(r.addr))
			}
		}
	}

	// The state after the apply is what the cloud has (what outputs of this run see): a refresh
	// changes nothing. read_only_instance_ids of a primary whose read-only instance is created
	// later in the same run is Terraform's own limitation (the primary is applied first).
	if w.afterApply != nil {
		w.afterApply(w)
	}
	out.policyChecks = w.checkBackupPolicies(order, disagree)
	out.accessChecks = w.checkAccess(order, disagree)
	out.connectivity = w.endpoints && w.checkConnectivity(plan, order, owners, disagree)
	out.accessLists = w.endpoints && w.checkAccessLists(plan, order, disagree)
	out.parameterGroup = groupsBefore != nil && w.checkParameterGroups(groupRun{plan, groupsBefore, definite, stats.Restarts, w.byID(deferred)}, order, disagree)
	out.proxy = w.checkProxy(plan, order, proxyBefore, disagree)
	w.checkProxyDrops(plan, order, stats.ProxyDrops, disagree)
	out.dataLoss = w.dataLoss && w.checkDataLoss(plan, disagree)
	w.checkDestroys(plan, disagree)
	appliedState := map[string]tftypes.Value{}
	for addr, v := range w.state {
		appliedState[addr] = v
	}
	w.sim.ResetStats()
	again, err := w.planWalk(order)
	for _, r := range order {
		before, ok := appliedState[r.addr]
		if !ok {
			continue
		}
		var stale []string
		for _, d := range valueDiff(before, w.state[r.addr], true) {
			if !strings.HasPrefix(d, "read_only_instance_ids:") && !w.driftedAfterPlan[strings.SplitN(d, ":", 2)[0]] {
				stale = append(stale, d)
			}
		}
		if len(stale) > 0 {
			disagree(fmt.Sprintf("state after apply is stale: %s %s", r.typeName(), strings.Join(attrNames(stale), ",")),
				"after the apply (plan: %s), %s in state differs from the cloud: %s", planSummary(plan, order), r.addr, strings.Join(stale, ", "))
		}
	}
	if err != nil {
		disagree("refresh after apply failed", "%v", err)
		return out
	}
	if again.errAt != "" {
		disagree("plan after apply fails: "+refusalClass(again.errMsg), "the plan after the apply fails at %s: %s", again.errAt, again.errMsg)
		return out
	}
	for _, r := range order {
		p := again.res[r.addr]
		if p.action != actNoop {
			diff := valueDiff(p.prior, p.planned, false)
			disagree(fmt.Sprintf("plan after apply not empty: %s %s", r.typeName(), stripIDs(strings.Join(attrNames(diff), ","))),
				"the plan after the apply wants to %s %s: %s", p.action, r.addr, strings.Join(diff, ", "))
		}
	}
	deferred = w.byID(deferred)
	w.notePossibleAtWindow(plan, order)
	if w.carried != nil {
		deferred = w.laterPromise(w.carried, plan, deferred, order)
	}
	if w.holdWindow && (len(deferred) > 0 || len(w.mayAtWindow) > 0) && len(out.disagreements) == 0 {
		out.held, out.deferred = true, deferred
		return out
	}
	// A later run goes to the window also when its plan left nothing waiting: what the first run deferred and the later
	// plan cancelled must not happen there.
	if (len(deferred) > 0 || w.taskScheduled || len(w.mayAtWindow) > 0 || w.carried != nil) && len(out.disagreements) == 0 {
		windowDisagree := disagree
		if w.taskScheduled {
			windowDisagree = func(class, format string, args ...any) {
				disagree("after a task scheduled outside Terraform, "+class, format, args...)
			}
		}
		out.restartChecks += w.atTheWindow(order, deferred, windowDisagree)
		out.atWindow = true
		w.groupsAtTheWindow(order, windowDisagree)
	}
	return out
}

// compareRestarts compares the restarts a plan promised (per key: an id or "new:<address>") with
// those the simulator counted (per instance id; keyOf maps an id to its key). complete is false
// when the apply stopped early, so that promised restarts may be missing, on an instance the apply
// never reached or on one it reached before it stopped (a read-only instance restarted following
// its primary, whose own change Terraform then never ran), but never one more than the plan named
// (seed 20261201, pinned in TestOraclePinnedCombinations). It returns how many
// instances were compared where the plan or the cloud had a restart.
func compareRestarts(definite, possible, counted map[string]int, keyOf map[string]string, complete bool,
	addrOf func(id string) string, disagree func(class, format string, args ...any)) (checks int) {
	seen := map[string]bool{}
	for id, n := range counted {
		key := keyOf[id]
		if key == "" {
			key = id
		}
		seen[key] = true
		lo, hi := definite[key], definite[key]+possible[key]
		if !complete {
			lo = 0
		}
		if n > 0 || hi > 0 {
			checks++
		}
		if n < lo || n > hi {
			disagree(fmt.Sprintf("restarts: plan named %d (+%d possible), cloud restarted %d", definite[key], possible[key], n),
				"the plan named %d restart(s) (+%d possible) of %s (%s); the simulator counted %d", definite[key], possible[key], key, addrOf(id), n)
		}
	}
	for key, n := range definite {
		if !seen[key] && n > 0 && complete {
			checks++
			disagree(fmt.Sprintf("restarts: plan named %d, cloud restarted 0", n), "the plan named %d restart(s) of %s; the simulator counted none", n, key)
		}
	}
	return checks
}

// atTheWindow moves the cloud's clock past the maintenance window the plan named and checks that
// the cloud made there exactly the restarts the plan deferred (one per instance however many
// changes waited), and that a refresh and plan afterwards show no change.
func (w *oracleWorld) atTheWindow(order []oracleResource, deferred map[string]int, disagree func(class, format string, args ...any)) (checks int) {
	w.sim.ResetStats()
	if w.beforeWindow != nil {
		w.beforeWindow(w)
	}
	w.sim.AdvanceClock(26 * time.Hour)
	after, err := w.planWalk(order)
	restarts := w.sim.Stats().Restarts
	w.checkProxyDropsAtWindow(order, w.sim.Stats().ProxyDrops, disagree)
	for key, n := range deferred {
		checks++
		if restarts[key] < n || restarts[key] > n+w.mayAtWindow[key] {
			disagree(fmt.Sprintf("window restarts: plan deferred %d, cloud restarted %d", n, restarts[key]),
				"the plan deferred %d restart(s) of %s to the maintenance window; at the window the simulator counted %d", n, key, restarts[key])
		}
	}
	for id, n := range restarts {
		if _, named := deferred[id]; !named && n > w.mayAtWindow[id] && !w.abandoned[id] {
			disagree("window restarts: unnamed restart at the window", "at the window the simulator restarted %s (%s) %d time(s), which the plan did not name", id, w.addrOf(id, order), n)
		}
	}
	switch {
	case err != nil:
		disagree("refresh after the window failed", "%v", err)
	case after.errAt != "":
		disagree("plan after the window fails: "+refusalClass(after.errMsg), "the plan after the window fails at %s: %s", after.errAt, after.errMsg)
	default:
		for _, r := range order {
			if p := after.res[r.addr]; p.action != actNoop {
				diff := valueDiff(p.prior, p.planned, false)
				disagree(fmt.Sprintf("plan after the window not empty: %s %s", r.typeName(), stripIDs(strings.Join(attrNames(diff), ","))),
					"after the window the plan wants to %s %s: %s", p.action, r.addr, strings.Join(diff, ", "))
			}
		}
	}
	return checks
}

// addrOf names the resource whose instance has id, for messages.
func (w *oracleWorld) addrOf(id string, order []oracleResource) string {
	for _, r := range order {
		if !isInstanceResource(r.addr) {
			continue // a backup policy's id is its instance's
		}
		var got string
		if v, ok := w.state[r.addr]; ok {
			_ = attrOf(v, "id").As(&got)
		}
		if got == id {
			return r.addr
		}
	}
	return "not managed"
}

// isInstanceResource reports whether addr is an instance (rds_instance, rds_readonly_instance),
// whose creates, deletes and restarts the cloud counts; an rds_backup_policy shares its instance's id.
func isInstanceResource(addr string) bool {
	return strings.HasPrefix(addr, "rds_instance.") || strings.HasPrefix(addr, "rds_readonly_instance.")
}

func attrNames(diff []string) []string {
	out := make([]string, len(diff))
	for i, d := range diff {
		out[i] = strings.SplitN(d, ":", 2)[0]
	}
	return out
}

func stripIDs(s string) string {
	return namedIDPattern.ReplaceAllString(idPattern.ReplaceAllString(s, "<id>"), "<id>")
}

// namedIDPattern is an id with its instance name, as messages label instances.
var namedIDPattern = regexp.MustCompile(`<id> \([^)]*\)`)

// refusalClass names a refusal without its ids and values, for grouping.
func refusalClass(msg string) string {
	if i := strings.Index(msg, `":`); i > 0 {
		msg = msg[:i+1]
	}
	return stripIDs(msg)
}

func planSummary(plan *oraclePlan, order []oracleResource) string {
	var parts []string
	for _, r := range order {
		if p := plan.res[r.addr]; p != nil {
			s := r.addr + " " + p.action.String()
			if len(p.replace) > 0 {
				s += fmt.Sprintf(" (forced by %v)", p.replace)
			}
			if w := diagText(p.diags); w != "" {
				s += " with " + w
			}
			parts = append(parts, s)
		}
	}
	var deletes []string
	for addr, p := range plan.res {
		if p.action == actDelete {
			deletes = append(deletes, addr+" delete")
		}
	}
	sort.Strings(deletes)
	return strings.Join(append(parts, deletes...), "; ")
}

// runScenario sets up and applies one scenario.
func (h *oracleHarness) runScenario(sc oracleScenario) []oracleOutcome {
	outcomes := h.runScenarioOnce(sc)
	if sc.mechanism != "" {
		// Classes found under a mechanism name it, so that they are told apart (oracle_mechanisms_test.go).
		for _, o := range outcomes {
			for i := range o.disagreements {
				o.disagreements[i].class = "mechanism (" + sc.mechanism + "): " + o.disagreements[i].class
			}
		}
	}
	return outcomes
}

func (h *oracleHarness) runScenarioOnce(sc oracleScenario) []oracleOutcome {
	w := h.newWorld(sc.connectivity != "")
	w.dataLoss = sc.dataLoss != ""
	defer func() { _ = w.sim.Close() }()
	ok, setup := w.setup(sc)
	outcomes := []oracleOutcome{setup}
	if !ok {
		// The starting point itself is refused: counted once per base, not as a compared change.
		setup.category = "setup " + setup.category
		setup.compared = false
		outcomes[0] = setup
		return outcomes
	}
	if sc.fact != nil {
		if err := sc.fact.do(w); err != nil {
			w.h.t.Fatalf("%s: %s: %v", sc.name, sc.fact.name, err)
		}
	}
	w.holdWindow = sc.later != nil
	if sc.afterPlan != nil {
		w.beforeApply = func(w *oracleWorld) {
			if err := sc.afterPlan.do(w); err != nil {
				w.h.t.Fatalf("%s: %s: %v", sc.name, sc.afterPlan.name, err)
			}
		}
	}
	res := w.run(sc.name, sc.after)
	w.holdWindow, w.beforeApply = false, nil
	if res.held {
		outcomes = append(outcomes, res)
		res = w.runLater(sc, res)
	}
	return append(outcomes, res)
}

// The oracle notices what it is there to notice: a restart nobody announced, and a cloud that no
// longer matches the state after the apply.
func TestOracleNoticesDisagreements(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	base := oracleBase{engine: "MySQL", version: "8.0", storageType: "cloud_essd", category: "HighAvailability", class: "mysql.n2.medium.2c", arch: "x86"}
	before := primaryAttrs(base)
	after := cloneAttrs(before)
	after["instance_name"] = "orders-db"
	sc := oracleScenario{name: "rename", role: "primary", base: base,
		before: []oracleResource{{"rds_instance.db", before}}, after: []oracleResource{{"rds_instance.db", after}}}
	behindTheBack := func(do func(api rdsapi.API, id string) error) func(w *oracleWorld) {
		return func(w *oracleWorld) {
			api, err := w.h.directClient()
			if err != nil {
				t.Fatal(err)
			}
			var id string
			_ = attrOf(w.state["rds_instance.db"], "id").As(&id)
			if err := do(api, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name, want              string
		beforeApply, afterApply func(w *oracleWorld)
	}{
		{"deferred, then an unannounced restart before the window", "window restarts: plan deferred 1, cloud restarted 2", nil, nil},
		{"unannounced restart", "restarts: plan named 0 (+0 possible), cloud restarted 1",
			behindTheBack(func(api rdsapi.API, id string) error { return api.RestartDBInstance(context.Background(), id) }), nil},
		{"cloud changed after the apply", "state after apply is stale: rds_instance deletion_protection",
			nil, behindTheBack(func(api rdsapi.API, id string) error {
				return api.ModifyDBInstanceDeletionProtection(context.Background(), id, true)
			})},
	} {
		w := h.newWorld()
		if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
			t.Fatalf("%s: setup: %+v", tc.name, setup)
		}
		w.beforeApply, w.afterApply = tc.beforeApply, tc.afterApply
		after := sc.after
		if strings.HasPrefix(tc.name, "deferred") {
			// A deferred class change, then a restart behind Terraform's back before the window.
			deferredAfter := cloneAttrs(sc.before[0].attrs)
			inWindow(deferredAfter)
			deferredAfter["instance_type"] = "mysql.n2.large.2c"
			after = []oracleResource{{"rds_instance.db", deferredAfter}}
			w.beforeWindow = behindTheBack(func(api rdsapi.API, id string) error { return api.RestartDBInstance(context.Background(), id) })
		}
		out := w.run(tc.name, after)
		var classes []string
		for _, d := range out.disagreements {
			classes = append(classes, d.class)
		}
		if !slices.Contains(classes, tc.want) {
			t.Errorf("%s: the oracle reported %q, want %q among them", tc.name, classes, tc.want)
		}
	}
}

// The restarts the oracle reads from a plan come from the planner's decisions: one per listed
// restart, a new instance's restart belongs to the resource that plans it, a restart with a "when"
// is deferred to the window, MayRestart is possible, not promised; a decision seen twice (two
// resources naming a follower) counts once.
func TestOracleReadsRestartsFromThePlan(t *testing.T) {
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	prior := func(id string) tftypes.Value {
		return tftypes.NewValue(obj, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	}
	follower := rdsservice.Restart{InstanceID: "rr-follower1", Reasons: []string{"follows its primary"}}
	// decided is a decision whose program causes the restarts.
	decided := func(may []string, restarts ...rdsservice.Restart) []rdsservice.Decision {
		d := rdsservice.Decision{Restarts: restarts, MayRestart: may}
		for i := range restarts {
			d.Program.Operations = append(d.Program.Operations, rdsservice.Operation{Instance: restarts[i].InstanceID,
				Action: rdsservice.OpModifySpec, Effect: rdsservice.EffectRestart, Restart: &restarts[i]})
		}
		return []rdsservice.Decision{d}
	}
	plan := &oraclePlan{res: map[string]*oraclePlanned{
		"rds_instance.primary": {action: actUpdate, prior: prior("rm-primary1"), decisions: decided(nil,
			rdsservice.Restart{InstanceID: "rm-primary1", Reasons: []string{"atomic_write_16k changes"}}, follower)},
		"rds_instance.clone": {action: actCreate, prior: tftypes.NewValue(obj, nil), decisions: decided(nil,
			rdsservice.Restart{InstanceID: "the new clone of rm-primary1", Reasons: []string{"toggled after creation"}})},
		"rds_readonly_instance.ro": {action: actUpdate, prior: prior("rr-follower1"), decisions: decided([]string{"instance_type"}, follower)},
		"rds_instance.later": {action: actUpdate, prior: prior("rm-later1"), decisions: decided(nil,
			rdsservice.Restart{InstanceID: "rm-later1", When: "in the maintenance window 02:00Z-03:00Z"})},
	}}
	order := []oracleResource{{addr: "rds_instance.primary"}, {addr: "rds_instance.clone"}, {addr: "rds_readonly_instance.ro"}, {addr: "rds_instance.later"}}
	definite, possible, deferred := plannedRestarts(plan, order)
	wantDefinite := map[string]int{"rm-primary1": 1, "rr-follower1": 1, "new:rds_instance.clone": 1}
	wantPossible := map[string]int{"rr-follower1": 1}
	wantDeferred := map[string]int{"rm-later1": 1}
	if fmt.Sprint(definite, possible, deferred) != fmt.Sprint(wantDefinite, wantPossible, wantDeferred) {
		t.Fatalf("planned restarts = %v (+possible %v, deferred %v), want %v (+possible %v, deferred %v)",
			definite, possible, deferred, wantDefinite, wantPossible, wantDeferred)
	}
	// A restart the planner decides but no diagnostic shows is reported.
	if got := unshownRestarts(plan.res["rds_instance.primary"]); fmt.Sprint(got) != "[rm-primary1 rr-follower1]" {
		t.Fatalf("unshown restarts = %v, want both", got)
	}
}

// ---- restarts in the maintenance window (issue 15) ----

// inWindow sets apply_restarts = "in_maintenance_window" with a fixed window on resource attributes.
func inWindow(attrs ...map[string]any) {
	for _, m := range attrs {
		m["apply_restarts"], m["maintenance_window"] = "in_maintenance_window", oracleWindow
	}
}

// deferredScenarios: updates with apply_restarts = "in_maintenance_window" on a primary, on a
// read-only instance, and on a primary whose read-only instance follows its toggle. The apply must
// restart nothing; at the window (the simulator's clock moved past it) the cloud restarts each
// instance exactly as often as the plan deferred, and the plan is empty afterwards. The short form
// runs every change on one base (8.0, cloud_essd, x86, new).
func deferredScenarios() []oracleScenario {
	bases := oracleBases([]string{"5.7", "8.0"}, []string{"cloud_essd", "general_essd", "cloud_ssd"}, []string{"HighAvailability"})
	params := func(backLog, ioCapacity string) map[string]string {
		return map[string]string{"back_log": backLog, "innodb_io_capacity": ioCapacity}
	}
	type change struct {
		name     string
		readOnly bool
		// edit changes the primary's (pb, pa) and the read-only instance's (rb, ra) attributes.
		edit func(b oracleBase, pb, pa, rb, ra map[string]any)
	}
	changes := []change{
		{"flag on", false, func(b oracleBase, pb, pa, rb, ra map[string]any) { setFlag(pb, false); setFlag(pa, true) }},
		{"class", false, func(b oracleBase, pb, pa, rb, ra map[string]any) {
			pa["instance_type"] = oracleClasses[b.category+"/"+b.arch][1]
		}},
		{"restart-needing parameters", false, func(b oracleBase, pb, pa, rb, ra map[string]any) {
			pb["parameters"], pa["parameters"] = params("3000", "20000"), params("4000", "4000")
		}},
		{"online parameters only", false, func(b oracleBase, pb, pa, rb, ra map[string]any) {
			pb["parameters"], pa["parameters"] = params("3000", "20000"), params("3000", "4000")
		}},
		{"flag on + class + parameters", false, func(b oracleBase, pb, pa, rb, ra map[string]any) {
			setFlag(pb, false)
			setFlag(pa, true)
			pa["instance_type"] = oracleClasses[b.category+"/"+b.arch][1]
			pb["parameters"], pa["parameters"] = params("3000", "20000"), params("4000", "20000")
		}},
		{"primary flag on, read-only follows", true, func(b oracleBase, pb, pa, rb, ra map[string]any) { setFlag(pb, false); setFlag(pa, true) }},
		{"read-only class + parameters", true, func(b oracleBase, pb, pa, rb, ra map[string]any) {
			ra["instance_type"] = oracleReadOnlyClasses[b.arch][1]
			rb["parameters"], ra["parameters"] = map[string]string{"back_log": "3000"}, map[string]string{"back_log": "4000"}
		}},
	}
	var out []oracleScenario
	for _, b := range bases {
		for _, c := range changes {
			pb, pa := primaryAttrs(b), primaryAttrs(b)
			ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses[b.arch][0], "storage": 100}
			rb, ra := cloneAttrs(ro), cloneAttrs(ro)
			inWindow(pb, pa, rb, ra)
			c.edit(b, pb, pa, rb, ra)
			addr, role := "rds_instance.db", "deferred primary"
			before, after := []oracleResource{{addr, pb}}, []oracleResource{{addr, pa}}
			if c.readOnly {
				role = "deferred read-only"
				before = []oracleResource{{"rds_instance.primary", pb}, {"rds_readonly_instance.ro", rb}}
				after = []oracleResource{{"rds_instance.primary", pa}, {"rds_readonly_instance.ro", ra}}
			}
			out = append(out, oracleScenario{
				name: fmt.Sprintf("%s %s: %s", role, b, c.name), role: role, change: c.name, base: b,
				seedFlag: b.eligible() && pb["atomic_write_16k"] == nil, before: before, after: after,
				short: b.version == "8.0" && b.storageType == "cloud_essd" && b.arch == "x86" && b.bought.IsZero(),
			})
		}
	}
	return out
}
