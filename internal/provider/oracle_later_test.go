package provider

// Later runs before the window (issue 39 §4): after an apply that left restarts waiting for the maintenance window,
// the configuration changes again before the window opens (the window moved, opened now, the change reverted, more
// work for the same window, a read-only instance added or released, rds_apply_pending invoked). The later run is
// checked like any other, and then at the window the cloud must make exactly what the two runs promised together:
// what the later plan named for every instance it planned, and what the first plan deferred for the instances the
// later plan left alone.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// laterLevels are the "later run" factor's levels.
var laterLevels = []string{"none", "window moved", "window opened now", "change reverted", "more work for the window",
	"read-only added", "read-only released", "rds_apply_pending"}

// oracleLater is the second run of a scenario, before the first run's maintenance window.
type oracleLater struct {
	name string
	// configure is the later configuration, from the first run's (after) and the one before it.
	configure func(w *oracleWorld, before, after []oracleResource) []oracleResource
	// action, when set, is invoked on the primary instead of a later configuration.
	action string
}

// comboNormalizeLater makes a later run meet something waiting: the first run defers its restarts to the window
// and restarts the primary (a class change where nothing else restarts it); a released read-only instance needs
// one; a destroy leaves nothing to wait.
func comboNormalizeLater(c []int) {
	set := func(f, l string) { c[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	level := func(f string) string { return comboLevel(c, f) }
	if level("later run") == "none" {
		return
	}
	if level("destroy") != "no" || level("replace") != "no" {
		set("later run", "none")
		return
	}
	set("apply_restarts", "in_maintenance_window")
	if level("16K") == "unchanged" && level("class") == "unchanged" && level("parameters") != "restart-needing" && level("parameters") != "restart-needing on both" {
		set("class", "primary")
	}
	if level("later run") == "read-only released" {
		set("topology", "primary + read-only")
	}
}

// comboLater is the later run of a level.
func comboLater(level string, b oracleBase) *oracleLater {
	each := func(edit func(w *oracleWorld, r oracleResource, before map[string]any) map[string]any) func(*oracleWorld, []oracleResource, []oracleResource) []oracleResource {
		return func(w *oracleWorld, before, after []oracleResource) []oracleResource {
			out := make([]oracleResource, 0, len(after))
			for _, r := range after {
				var was map[string]any
				if i := slices.IndexFunc(before, func(o oracleResource) bool { return o.addr == r.addr }); i >= 0 {
					was = before[i].attrs
				}
				out = append(out, oracleResource{r.addr, edit(w, r, was)})
			}
			return out
		}
	}
	// window is a window of hours hours; one opened now lasts three, so that it is still open when the apply runs
	// however late in the hour the run starts (a plan and its apply on either side of its end would disagree).
	window := func(hours int, start func(now time.Time) int) func(*oracleWorld, oracleResource, map[string]any) map[string]any {
		return func(w *oracleWorld, r oracleResource, _ map[string]any) map[string]any {
			attrs := cloneAttrs(r.attrs)
			if attrs["apply_restarts"] == "in_maintenance_window" {
				h := start(w.clock.Now())
				attrs["maintenance_window"] = fmt.Sprintf("%02d:00Z-%02d:00Z", h, (h+hours)%24)
			}
			return attrs
		}
	}
	switch level {
	case "window moved":
		return &oracleLater{name: level, configure: each(window(1, func(now time.Time) int { return (now.UTC().Hour() + 9) % 24 }))}
	case "window opened now":
		return &oracleLater{name: level, configure: each(window(3, func(now time.Time) int { return now.UTC().Hour() }))}
	case "change reverted":
		return &oracleLater{name: level, configure: each(func(_ *oracleWorld, r oracleResource, before map[string]any) map[string]any {
			if before == nil || !isInstanceResource(r.addr) {
				return r.attrs
			}
			return cloneAttrs(before)
		})}
	case "more work for the window":
		return &oracleLater{name: level, configure: each(func(_ *oracleWorld, r oracleResource, _ map[string]any) map[string]any {
			attrs := cloneAttrs(r.attrs)
			if r.addr == "rds_instance.primary" {
				params := map[string]string{}
				if p, ok := attrs["parameters"].(map[string]string); ok {
					maps.Copy(params, p)
				}
				params["innodb_read_io_threads"] = "8" // needs a restart (the template's ForceRestart)
				attrs["parameters"] = params
			}
			return attrs
		})}
	case "read-only added":
		return &oracleLater{name: level, configure: func(_ *oracleWorld, _, after []oracleResource) []oracleResource {
			ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses[b.arch][0], "storage": 150}
			inWindow(ro)
			return append(slices.Clone(after), oracleResource{"rds_readonly_instance.late", ro})
		}}
	case "read-only released":
		return &oracleLater{name: level, configure: func(_ *oracleWorld, _, after []oracleResource) []oracleResource {
			return slices.DeleteFunc(slices.Clone(after), func(r oracleResource) bool { return r.addr == "rds_readonly_instance.ro" })
		}}
	case "rds_apply_pending":
		return &oracleLater{name: level, action: rdsservice.OpApplyPendingNow}
	}
	return nil
}

// runLater runs the scenario's later run after the first one held its window (first.held). Its disagreements'
// classes name the level ("later run (window moved): ..."), so that a class found in later runs is told apart.
func (w *oracleWorld) runLater(sc oracleScenario, first oracleOutcome) oracleOutcome {
	name := sc.name + " [later: " + sc.later.name + "]"
	var out oracleOutcome
	if sc.later.action != "" {
		out = w.laterAction(name, sc, first.deferred)
	} else {
		w.carried = first.deferred
		out = w.run(name, sc.later.configure(w, sc.before, knownAfterApply(sc.after)))
		w.carried = nil
		out.later = out.compared && out.kind == outcomeApplied
	}
	for i := range out.disagreements {
		out.disagreements[i].class = "later run (" + sc.later.name + "): " + out.disagreements[i].class
	}
	return out
}

// laterAction invokes rds_apply_pending on the primary before the window: its plan's restarts happen now, and at
// the window only what the first run deferred on instances the action's program does not restart.
func (w *oracleWorld) laterAction(name string, sc oracleScenario, carried map[string]int) oracleOutcome {
	out := oracleOutcome{compared: true, category: "later action applied", kind: outcomeApplied, later: true}
	disagree := func(class, format string, args ...any) {
		out.disagreements = append(out.disagreements, oracleDisagreement{class: class, repro: name + ": " + fmt.Sprintf(format, args...)})
	}
	var id string
	_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
	plan := w.compareAction(w.h.t, name, sc.later.action, "rds_apply_pending", id, false, disagree)
	if plan.Problem.Severity == rdsservice.SeverityError {
		out.category, out.later = "later action refused at plan", false
		return out
	}
	// Each restart the action runs now stands for one the first run deferred: a read-only instance that follows the
	// toggle now still makes its own deferred change at its window.
	waiting := maps.Clone(carried)
	for _, rs := range plan.Program.Restarts() {
		if key := restartKey(rs, id); waiting[key] > 1 {
			waiting[key]--
		} else {
			delete(waiting, key)
		}
	}
	out.restartChecks += w.atTheWindow(knownAfterApply(sc.after), waiting, disagree)
	out.atWindow = true
	return out
}

// laterPromise is what the window must make after a later run: the later plan's deferred restarts, and the first
// run's (carried) for every instance the later plan neither planned a change of nor named a restart of, nor named
// as no longer following its primary's toggle (Decision.FollowsWithdrawn).
func (w *oracleWorld) laterPromise(carried map[string]int, plan *oraclePlan, deferred map[string]int, order []oracleResource) map[string]int {
	promise := maps.Clone(deferred)
	definite, _, _ := plannedRestarts(plan, order)
	withdrawn := map[string]bool{}
	for _, p := range plan.res {
		for _, d := range p.decisions {
			for _, id := range d.FollowsWithdrawn {
				withdrawn[id] = true
			}
		}
	}
	for key, n := range carried {
		if _, named := promise[key]; named || definite[key] > 0 || withdrawn[key] {
			continue
		}
		addr := w.addrOf(key, order)
		if p := plan.res[addr]; addr == "not managed" || p != nil && p.action != actNoop {
			continue // released, or replanned: the later plan's word stands
		}
		promise[key] = n
	}
	return promise
}

// byID keys restarts by instance id, as the simulator counts them: an instance the apply created ("new:<address>")
// by its id in the state.
func (w *oracleWorld) byID(restarts map[string]int) map[string]int {
	out := map[string]int{}
	for key, n := range restarts {
		if addr, ok := strings.CutPrefix(key, "new:"); ok {
			_ = attrOf(w.state[addr], "id").As(&key)
		}
		out[key] += n
	}
	return out
}
