package provider

import (
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// warnedOfFailure: the planner warned (rule instance-stopped or instance-locked) that the
// resource's instance takes no change in its state, and the apply failed for the status or lock
// mode that row was raised for.
func warnedOfFailure(p *oraclePlanned, applyErr string) bool {
	if p == nil {
		return false
	}
	if warnedOfDestroyFailure(p, applyErr) {
		return true
	}
	for _, d := range p.decisions {
		for _, w := range d.Warnings() {
			if (w.Rule == rdsservice.RuleInstanceStopped || w.Rule == rdsservice.RuleInstanceLocked) && w.Value != "" && strings.Contains(applyErr, w.Value) {
				return true
			}
			// A refusal that depends on a value known only at apply, named as possible (issue 39 §3).
			if w.Rule == rdsservice.RuleStorageReadOnlyBelowUnknown && strings.Contains(applyErr, rdsservice.Raise(rdsservice.RuleStorageReadOnlyBelow, "", int64(0), "", "", int64(0)).Summary) {
				return true
			}
			// The refusal's class has its ids stripped (<id>): so has the warning naming it.
			if (w.Rule == rdsservice.Rule16KRefusalPossibleUnknown || w.Rule == rdsservice.RuleAloneRefusalPossibleUnknown) && strings.Contains(stripIDs(w.Detail), strings.Trim(strings.TrimPrefix(refusalClass(applyErr), "final plan: "), `"`)) {
				return true
			}
		}
	}
	return warnedOfAccessFailure(p, applyErr)
}

// The plan and the apply agree on instances in unusual states (issue 19 item 7): a Deleting
// instance is refused at plan as the cloud refuses it; on a Stopped or locked one the plan warns
// that the apply fails, and it fails at once with no restart; growing storage under a disk-quota
// lock plans and applies cleanly.
func TestOracleUnusualStates(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	base := oracleBase{engine: "MySQL", version: "8.0", storageType: "cloud_essd", category: "HighAvailability", class: "mysql.n2.medium.2c", arch: "x86"}
	before := primaryAttrs(base)
	before["atomic_write_16k"] = true
	edit := func(change func(m map[string]any)) map[string]any {
		after := cloneAttrs(before)
		change(after)
		return after
	}
	toggle := edit(func(m map[string]any) { m["atomic_write_16k"] = false })
	rename := edit(func(m map[string]any) { m["instance_name"] = "orders-db" })
	grow := edit(func(m map[string]any) { m["storage"] = 120 })
	for _, tc := range []struct {
		name     string
		state    simulator.InstanceState
		after    map[string]any
		category string
	}{
		{"stopped, toggle", simulator.InstanceState{Status: "Stopped"}, toggle, "warned at plan, refused at apply"},
		{"stopped, rename", simulator.InstanceState{Status: "Stopped"}, rename, "warned at plan, refused at apply"},
		{"stopped, unchanged", simulator.InstanceState{Status: "Stopped"}, before, "applied"},
		{"expired, toggle", simulator.InstanceState{LockMode: "LockByExpiration"}, toggle, "warned at plan, refused at apply"},
		{"disk full, grow storage", simulator.InstanceState{LockMode: "LockByDiskQuota"}, grow, "applied"},
		{"deleting, rename", simulator.InstanceState{Status: "Deleting", ForMS: 600000}, rename, "refused at plan, cloud refuses too"},
	} {
		sc := oracleScenario{name: tc.name, role: "primary", base: base,
			before: []oracleResource{{"rds_instance.db", before}}, after: []oracleResource{{"rds_instance.db", tc.after}}}
		w := h.newWorld()
		if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
			t.Fatalf("%s: setup: %+v", tc.name, setup)
		}
		var id string
		_ = attrOf(w.state["rds_instance.db"], "id").As(&id)
		if err := w.sim.SetInstanceState(id, tc.state); err != nil {
			t.Fatal(err)
		}
		out := w.run(tc.name, sc.after)
		if !strings.HasPrefix(out.category, tc.category) || len(out.disagreements) > 0 {
			t.Errorf("%s: outcome %q with disagreements %+v, want %q and none", tc.name, out.category, out.disagreements, tc.category)
		}
		if n := w.sim.Stats().Restarts[id]; n != 0 {
			t.Errorf("%s: %d restarts", tc.name, n)
		}
	}
}
