package provider

// The actions in the oracle (issue 23 §3): after a combination of features was applied, each
// action is planned by rdsservice.PlanAction (its program) and invoked over the plugin protocol.
// The restarts the program names must be the restarts the simulator counts, on the instance and
// on no other (a read-only instance the action restarts unannounced is a disagreement), a
// switchover is sent exactly when the program holds one, and a refused plan sends nothing.

import (
	"context"
	"fmt"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// oracleActions are the actions tried after each combination, the one whose plan depends on
// what the apply left waiting first.
var oracleActions = []struct{ kind, name string }{
	{rdsservice.OpApplyPendingNow, "rds_apply_pending"},
	{rdsservice.OpSwitchDBInstanceHA, "rds_switchover"},
	{rdsservice.OpRestartInstance, "rds_restart"},
}

func TestOracleActionsAfterCombinations(t *testing.T) {
	t.Parallel()
	for _, seed := range sampleSeeds(t) {
		oracleActionsAfterCombinations(t, seed)
	}
}

func oracleActionsAfterCombinations(t *testing.T, seed uint64) {
	h := newOracleHarness(t)
	var applied, ran, restarting, switching, refused int
	for _, sc := range comboScenarios(2, seed) {
		// Eight combinations, more (up to 30) while a floor is short: which combinations apply, and
		// how many are High-availability, varies with the seed.
		if applied >= 8 && min(restarting, switching, refused) >= 6 || applied == 30 {
			break
		}
		w := h.newWorld()
		if ok, _ := w.setup(sc); !ok {
			continue
		}
		if sc.fact != nil {
			if err := sc.fact.do(w); err != nil {
				t.Fatalf("%s: %s: %v", sc.name, sc.fact.name, err)
			}
		}
		var id string
		if res := w.run(sc.name, sc.after); res.kind != outcomeApplied || attrOf(w.state["rds_instance.primary"], "id").As(&id) != nil || id == "" {
			continue
		}
		applied++
		prevent := false // the primary's own prevent_restart, as a configuration passes it on
		for _, r := range sc.after {
			if r.addr == "rds_instance.primary" {
				prevent, _ = r.attrs["prevent_restart"].(bool)
			}
		}
		// Each action as the configuration passes the primary's prevent_restart on, then the
		// restart with prevent_restart set, which must send nothing.
		for _, a := range append(oracleActions, oracleActions[2]) {
			plan := w.compareAction(t, sc.name, a.kind, a.name, id, prevent || ran%4 == 3, func(_, format string, args ...any) {
				t.Errorf(format, args...)
			})
			ran++
			restarting += min(len(plan.Program.Restarts()), 1)
			switching += switchesIn(plan.Program)
			if plan.Problem.Rule != "" && plan.Problem.Severity == rdsservice.SeverityError {
				refused++
			}
		}
	}
	t.Logf("actions after %d applied combinations (seed %d): %d invoked, %d with a planned restart, %d switchovers, %d refused at plan",
		applied, seed, ran, restarting, switching, refused)
	if applied < 6 || restarting < 6 || switching < 6 || refused < 6 {
		t.Errorf("seed %d floors: %d combinations applied (floor 6), %d actions restarting (floor 6), %d switchovers (floor 6), %d refused (floor 6)",
			seed, applied, restarting, switching, refused)
	}
}

// compareAction plans one action and invokes it, and reports each disagreement between the program and what the
// simulator counted. It returns the action's plan.
func (w *oracleWorld) compareAction(t testing.TB, scenario, kind, name, id string, prevent bool, disagree func(class, format string, args ...any)) rdsservice.ActionPlan {
	t.Helper()
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	plan, err := rdsservice.PlanAction(context.Background(), api, rdsservice.ActionRequest{Kind: kind, Name: name, InstanceID: id, PreventRestart: prevent})
	if err != nil {
		t.Fatalf("%s: plan %s: %v", scenario, name, err)
	}
	refused := plan.Problem.Rule != "" && plan.Problem.Severity == rdsservice.SeverityError
	before := w.sim.Stats()
	_, diags := invokeAction(t, w, name, map[string]any{"instance_id": id, "prevent_restart": prevent})
	after := w.sim.Stats()
	where := fmt.Sprintf("%s, then %s (prevent_restart %v)", scenario, name, prevent)
	if refused != diagsHaveError(diags) {
		disagree("action: plan and invocation disagree on refusal", "%s: the plan refused: %v; the invocation failed: %s", where, refused, diagSummaries(diags))
	}
	switches := switchesIn(plan.Program)
	if got := after.Requests["SwitchDBInstanceHA"] - before.Requests["SwitchDBInstanceHA"]; got != switches {
		disagree("action: switchovers differ from the program", "%s: the program holds %d switchovers, the cloud received %d", where, switches, got)
	}
	named := map[string]int{}
	for _, rs := range plan.Program.Restarts() {
		named[restartKey(rs, id)]++
	}
	for inst, n := range after.Restarts {
		if got := n - before.Restarts[inst]; got != named[inst] {
			disagree(fmt.Sprintf("action: %s restarts differ from the program", name), "%s: %s restarted %d times, the program names %d", where, inst, got, named[inst])
		}
	}
	return plan
}

func switchesIn(p rdsservice.Program) (n int) {
	for _, op := range p.Operations {
		if op.Action == rdsservice.OpSwitchDBInstanceHA {
			n++
		}
	}
	return n
}
