package provider

// Data loss (issue 46 §4): the "audit" factor gives the primary sql_audit (on, its retention shortened, turned
// off, prevent_data_loss with a shorter retention) and the "cross-region backup" factor gives its backup policy
// cross_region (on, its retention shortened, prevent_data_loss with a shorter retention, backup_retention_period
// shortened, on with released_keep_policy stated), in combination with every other factor: destroy, replacement,
// backup policy changes. Their worlds first age the data (a backup set made and copied to the other region, then
// the cloud's clock eight days on), so that a shorter retention, a release or a turning off has data to delete.
// After each apply the oracle compares the data-loss warnings the plan showed (the family of
// rdsservice.DataLossFamily: what goes, of which instance, how many) with what the simulator deleted
// (Simulator.DataDeleted): a loss without a warning, or a warning without a loss, is a disagreement.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// auditLevels are the "audit" factor's levels.
var auditLevels = []string{"none", "on", "retention shortened", "turned off", "prevent_data_loss, shortened"}

// crossRegionLevels are the "cross-region backup" factor's levels.
var crossRegionLevels = []string{"none", "on", "retention shortened", "prevent_data_loss, shortened", "backup retention shortened",
	"on, released_keep_policy stated"}

// dataAge is how far the data-loss worlds run the cloud's clock before the run: past the shortest retention (7 days).
const dataAge = 8 * 24 * time.Hour

// comboNormalizeDataLoss: a destroy of the primary leaves no configuration after the run, so a change of it is "on";
// a major version upgrade goes alone, without an audit change.
func comboNormalizeDataLoss(c []int) {
	set := func(f, l string) { c[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	if comboLevel(c, "destroy") == "the primary" {
		if l := comboLevel(c, "audit"); l == "retention shortened" || l == "turned off" {
			set("audit", "on")
		}
		if l := comboLevel(c, "cross-region backup"); l == "retention shortened" || l == "backup retention shortened" {
			set("cross-region backup", "on")
		}
	}
	if comboLevel(c, "replace") == "engine_version upgrade" && comboLevel(c, "audit") != "none" {
		set("audit", "on")
	}
}

// comboDataLoss sets the levels' attributes: sql_audit on the primary (pb, pa), cross_region on its backup policy
// (added when the backup policy factor has none before the run).
func comboDataLoss(audit, cross string, pb, pa map[string]any, before, after []oracleResource) ([]oracleResource, []oracleResource) {
	on := func(days int) map[string]any {
		return map[string]any{"enabled": true, "retention_days": days, "hot_retention_days": 7}
	}
	switch audit {
	case "on":
		pb["sql_audit"], pa["sql_audit"] = on(30), on(30)
	case "retention shortened":
		pb["sql_audit"], pa["sql_audit"] = on(30), on(7)
	case "turned off":
		pb["sql_audit"], pa["sql_audit"] = on(30), map[string]any{"enabled": false}
	case "prevent_data_loss, shortened":
		pb["sql_audit"], pa["sql_audit"] = on(30), on(7)
		pb["prevent_data_loss"], pa["prevent_data_loss"] = true, true
	}
	if cross == "none" {
		return before, after
	}
	copies := func(days int) map[string]any {
		return map[string]any{"region": "cn-shanghai", "retention_days": days, "log_backup_enabled": false}
	}
	pol := func(list []oracleResource) []oracleResource {
		if slices.ContainsFunc(list, func(r oracleResource) bool { return r.addr == "rds_backup_policy.p" }) {
			return list
		}
		return append(list, oracleResource{"rds_backup_policy.p", map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"},
			"backup_retention_period": 30, "log_backup_retention_period": 14}})
	}
	before, after = pol(before), pol(after)
	b, a := before[slices.IndexFunc(before, isPolicy)].attrs, after[slices.IndexFunc(after, isPolicy)].attrs
	b["cross_region"], a["cross_region"] = copies(30), copies(30)
	b["backup_retention_period"], b["log_backup_retention_period"] = 30, 14
	switch cross {
	case "retention shortened":
		a["cross_region"] = copies(7)
	case "prevent_data_loss, shortened":
		a["cross_region"] = copies(7)
		b["prevent_data_loss"], a["prevent_data_loss"] = true, true
		pb["prevent_data_loss"], pa["prevent_data_loss"] = true, true
	case "backup retention shortened":
		a["backup_retention_period"], a["log_backup_retention_period"] = 7, 7
	case "on, released_keep_policy stated":
		pb["released_keep_policy"], pa["released_keep_policy"] = "Lastest", "Lastest"
	}
	return before, after
}

func isPolicy(r oracleResource) bool { return r.addr == "rds_backup_policy.p" }

// comboDataLossName is the levels as the scenario records them: "" for none.
func comboDataLossName(audit, cross string) string {
	var parts []string
	if audit != "none" {
		parts = append(parts, "audit "+audit)
	}
	if cross != "none" {
		parts = append(parts, "cross-region backup "+cross)
	}
	return strings.Join(parts, ", ")
}

// comboDataAged is the combination's fact with, first, data to lose: a backup set of the primary (copied to the
// other region where copying is on) and the cloud's clock run dataAge on, so that logs, sets and copies are older
// than the shortest retention.
func comboDataAged(audit, cross string, fact *oracleFact) *oracleFact {
	if audit == "none" && cross == "none" {
		return fact
	}
	name := "data aged eight days"
	if fact != nil {
		name += ", then " + fact.name
	}
	return &oracleFact{name, func(w *oracleWorld) error {
		api, err := w.h.directClient()
		if err != nil {
			return err
		}
		var id string
		_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
		if _, err := api.CreateBackup(context.Background(), &rdsapi.CreateBackupRequest{DBInstanceID: id, BackupMethod: rdsapi.BackupMethodSnapshot}); err != nil {
			return err
		}
		w.sim.AdvanceClock(dataAge)
		if fact != nil {
			return fact.do(w)
		}
		return nil
	}}
}

// dataLossKey is what goes, of which instance.
type dataLossKey struct{ instance, kind string }

// dataLossKinds maps each warning row of the family to the kind of data the simulator records deleted.
var dataLossKinds = map[rdsservice.RuleID]string{
	rdsservice.RuleDataLossBackupSet: simulator.DeletedBackupSet, rdsservice.RuleDataLossRetention: simulator.DeletedBackupSet,
	rdsservice.RuleDataLossDatabase: simulator.DeletedDatabase, rdsservice.RuleDataLossAudit: simulator.DeletedAuditLogs,
	rdsservice.RuleDataLossCrossRegion: simulator.DeletedCrossRegion, rdsservice.RuleDataLossCrossRelease: simulator.DeletedCrossRegion,
}

// dataLossPattern is a family row's summary as a pattern, with the positions of its instance and count arguments.
type dataLossPattern struct {
	rule            rdsservice.RuleID
	re              *regexp.Regexp
	instance, count int // submatch indices; count 0: the row names one item
}

var verbRE = regexp.MustCompile(`%\[(\d+)\][a-z]`)

// dataLossPatterns reads the family's rows: a summary's %[n]v becomes a group, the "instance" argument names the
// instance and the "sets" or "copies" argument the count.
func dataLossPatterns() []dataLossPattern {
	var out []dataLossPattern
	for _, id := range rdsservice.DataLossFamily {
		row := rdsservice.Rules[id]
		p := dataLossPattern{rule: id}
		var expr strings.Builder
		last := 0
		for i, m := range verbRE.FindAllStringSubmatchIndex(row.Summary, -1) {
			group := "(.+?)"
			n, _ := strconv.Atoi(row.Summary[m[2]:m[3]])
			switch row.Args[n-1].Name {
			case "instance":
				// The instance's id, and its name in brackets when it has one; what goes may hold " of ".
				p.instance, group = i+1, `(\S+)(?: \(.*\))?`
			case "sets", "copies":
				p.count = i + 1
			}
			expr.WriteString(regexp.QuoteMeta(row.Summary[last:m[0]]) + group)
			last = m[1]
		}
		expr.WriteString(regexp.QuoteMeta(row.Summary[last:]))
		p.re = regexp.MustCompile("^" + expr.String() + "$")
		out = append(out, p)
	}
	return out
}

// namedDataLosses are the losses the diagnostics the user sees name, with their counts.
func namedDataLosses(plan *oraclePlan) map[dataLossKey]int {
	patterns := dataLossPatterns()
	named := map[dataLossKey]int{}
	for _, p := range plan.res {
		shown := p.diags
		if p.action == actReplace {
			shown = p.shown
		}
		for _, d := range shown {
			summary := strings.TrimPrefix(d.Summary, "prevent_data_loss refuses this plan: ")
			for _, pat := range patterns {
				m := pat.re.FindStringSubmatch(strings.ToUpper(summary[:1]) + summary[1:])
				if m == nil {
					continue
				}
				n := 1
				if pat.count > 0 {
					n, _ = strconv.Atoi(m[pat.count])
				}
				named[dataLossKey{m[pat.instance], dataLossKinds[pat.rule]}] += n
			}
		}
	}
	return named
}

// checkDataLoss compares the losses the plan named with what the simulator deleted during the apply; reports
// whether it compared anything.
func (w *oracleWorld) checkDataLoss(plan *oraclePlan, disagree func(class, format string, args ...any)) bool {
	named, deleted := namedDataLosses(plan), map[dataLossKey]int{}
	var what = map[dataLossKey][]string{}
	for _, d := range w.sim.DataDeleted() {
		k := dataLossKey{d.Instance, d.Kind}
		deleted[k]++
		what[k] = append(what[k], d.What)
	}
	for k, n := range deleted {
		switch m, ok := named[k]; {
		case !ok:
			disagree("data loss: "+k.kind+" deleted, the plan did not name it", "the cloud deleted %d %s of %s (%s); the plan named %v",
				n, k.kind, k.instance, strings.Join(what[k], ", "), named)
		case m != n && k.kind != simulator.DeletedAuditLogs:
			disagree("data loss: the plan named another number of "+k.kind, "the plan named %d %s of %s deleted, the cloud deleted %d (%s)",
				m, k.kind, k.instance, n, strings.Join(what[k], ", "))
		}
	}
	for k, m := range named {
		if _, ok := deleted[k]; !ok {
			disagree("data loss: the plan named "+k.kind+" deleted, nothing went", "the plan named %d %s of %s deleted; the cloud deleted none of them",
				m, k.kind, k.instance)
		}
	}
	return len(named) > 0 || len(deleted) > 0
}

// dataLossGuard: prevent_data_loss refused the plan (in the resource's diagnostics: a destroy's or a backup
// policy's refusal is not a planner decision); the cloud has no equivalent.
func dataLossGuard(p *oraclePlanned) rdsservice.RuleID {
	prefix := strings.SplitN(rdsservice.Rules[rdsservice.RuleDataLossRefused].Summary, ":", 2)[0] + ":"
	for _, d := range p.diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && strings.HasPrefix(d.Summary, prefix) {
			return rdsservice.RuleDataLossRefused
		}
	}
	return ""
}

// String names a loss in messages.
func (k dataLossKey) String() string { return fmt.Sprintf("%s of %s", k.kind, k.instance) }

// Combinations the data-loss factors found in disagreement, pinned so that each runs in every `make test`
// whatever the seed samples; each must agree with the cloud and end as the fix decided.
func TestOraclePinnedDataLossCombinations(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	for _, tc := range []struct {
		name   string
		levels map[string]string
		want   oracleOutcomeKind
		// lost: the apply deletes data, which the run compares with the plan's warnings.
		lost bool
	}{
		// Seed 1: the sets a shorter backup_retention_period deletes were judged by the provider's clock, not the
		// cloud's, and went unnamed.
		{"backup retention shortened, by the cloud's clock", map[string]string{"cross-region backup": "backup retention shortened"}, outcomeApplied, true},
		// Seed 1: sql_audit of an imported instance (no audit in state) shortened: the logs went unnamed, and
		// prevent_data_loss did not refuse it.
		{"audit shortened after an import", map[string]string{"fact": "imported with a scheduled task", "audit": "retention shortened"}, outcomeApplied, true},
		{"audit shortened after an import, prevent_data_loss", map[string]string{"fact": "imported with a scheduled task", "audit": "prevent_data_loss, shortened"}, outcomeGuard, false},
		// A primary renamed outside Terraform, destroyed: its copies go with it, named with its name beside its id.
		{"a renamed primary's copies go with its destroy", map[string]string{"fact": "drift", "destroy": "the primary", "cross-region backup": "on"}, outcomeApplied, true},
		// Seed 1: a replaced primary's databases go with its release (Terraform finds nothing left to drop).
		{"a replaced primary's databases and copies", map[string]string{"replace": "engine_version", "access": "changed", "cross-region backup": "on"}, outcomeApplied, true},
		// Seed 5: a subscription abandoned on destroy stays with its copies; its plan named them as deleted.
		{"an abandoned subscription keeps its copies", map[string]string{"billing": "prepaid", "destroy": "the primary", "cross-region backup": "on"}, outcomeApplied, false},
	} {
		outcomes := h.runScenario(comboScenario(comboNormalize(comboOf(t, tc.levels))))
		last := outcomes[len(outcomes)-1]
		for _, o := range outcomes {
			for _, d := range o.disagreements {
				t.Errorf("%s: DISAGREEMENT [%s]\n    repro: %s", tc.name, d.class, d.repro)
			}
		}
		if last.kind != tc.want || !last.compared || last.dataLoss != tc.lost {
			t.Errorf("%s: ended %q (kind %d, data loss compared %t), want kind %d (data loss %t)", tc.name, last.category, last.kind, last.dataLoss, tc.want, tc.lost)
		}
	}
}
