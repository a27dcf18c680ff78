package provider

// Terraform's own mechanisms and values unknown at plan (issue 39 §4): the "mechanism" factor puts lifecycle
// ignore_changes on restarting attributes of the primary, changed outside Terraform before the run, or feeds an
// attribute from a value known only at apply. The harness plays them as core does (oracle_harness_test.go:
// ignoring, oracleUnknown): an ignored attribute reaches PlanResourceChange as the prior state's value and
// ApplyResourceChange as written; an unknown one is unknown in the plan and known in the final plan. The run is
// then checked like any other: the apply makes only the restarts the plan named (a possible one counts when a
// value was unknown), and prevent_restart refuses a possible restart at plan as it refuses a certain one.

import (
	"context"
	"slices"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// mechanismLevels are the "mechanism" factor's levels.
var mechanismLevels = []string{"none", "ignore_changes on 16K and parameters, changed outside", "ignore_changes on the class, changed outside",
	"instance_type known at apply", "storage known at apply", "16K known at apply", "saved plan, the cloud moved on"}

// comboMechanism sets the primary's mechanism level on its configuration after the run (pa) and returns the change
// made outside Terraform before the run (before) or between its plan and its apply (a saved plan applied after the
// cloud moved on: afterPlan), if any.
func comboMechanism(level string, b oracleBase, pa map[string]any) (before, afterPlan *oracleFact) {
	unknown := func(name string) {
		if v, ok := pa[name]; ok {
			pa[name] = oracleUnknown{v}
		}
	}
	switch level {
	case "ignore_changes on 16K and parameters, changed outside":
		pa[ignoreChanges] = []string{"atomic_write_16k", "parameters"}
		return outsideChange(level, func(api rdsapi.API, id string, attr *rdsapi.DBInstanceAttribute) error {
			flag := rdsapi.OptimizedWritesOn
			if attr.OptimizedWrites != nil && attr.OptimizedWrites.Enabled {
				flag = rdsapi.OptimizedWritesOff
			}
			ctx := context.Background()
			if _, err := api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: attr.DBInstanceClass, OptimizedWrites: flag}); err != nil {
				return err
			}
			return api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"innodb_io_capacity": "6000"}})
		}), nil
	case "ignore_changes on the class, changed outside":
		pa[ignoreChanges] = []string{"instance_type"}
		return outsideChange(level, func(api rdsapi.API, id string, attr *rdsapi.DBInstanceAttribute) error {
			classes := oracleClasses["HighAvailability/"+b.arch]
			class := classes[len(classes)-1]
			if attr.DBInstanceClass == class {
				class = classes[0]
			}
			_, err := api.ModifyDBInstanceSpec(context.Background(), &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: class})
			return err
		}), nil
	case "saved plan, the cloud moved on":
		return nil, driftAfterPlan(outsideChange(level, func(api rdsapi.API, id string, _ *rdsapi.DBInstanceAttribute) error {
			ctx := context.Background()
			if err := api.ModifyDBInstanceDescription(ctx, id, "renamed-after-the-plan"); err != nil {
				return err
			}
			return api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"innodb_io_capacity": "7000"}})
		}), "instance_name", "parameters")
	case "instance_type known at apply":
		unknown("instance_type")
	case "storage known at apply":
		unknown("storage")
	case "16K known at apply":
		unknown("atomic_write_16k")
	}
	return nil, nil
}

// outsideChange is a change of the primary made through the API before the run, given the time to finish (a
// change the cloud refuses, on a locked instance say, is drift of nothing).
func outsideChange(name string, change func(api rdsapi.API, id string, attr *rdsapi.DBInstanceAttribute) error) *oracleFact {
	return &oracleFact{name, func(w *oracleWorld) error {
		api, err := w.h.directClient()
		if err != nil {
			return err
		}
		var id string
		_ = attrOf(w.state["rds_instance.primary"], "id").As(&id)
		attr, err := api.DescribeDBInstanceAttribute(context.Background(), id)
		if err != nil {
			return err
		}
		if err := change(api, id, attr); err != nil {
			w.h.t.Logf("%s: refused by the cloud (nothing drifted): %v", name, err)
		}
		w.sim.AdvanceClock(10 * time.Minute)
		return nil
	}}
}

// bothFacts runs the combination's fact, then the mechanism's change outside Terraform.
func bothFacts(facts ...*oracleFact) *oracleFact {
	facts = slices.DeleteFunc(facts, func(f *oracleFact) bool { return f == nil })
	switch len(facts) {
	case 0:
		return nil
	case 1:
		return facts[0]
	}
	return &oracleFact{facts[0].name + ", " + facts[1].name, func(w *oracleWorld) error {
		for _, f := range facts {
			if err := f.do(w); err != nil {
				return err
			}
		}
		return nil
	}}
}

// knownAfterApply is the configuration of the plans after an apply: the values known only at apply are known.
func knownAfterApply(order []oracleResource) []oracleResource {
	out := make([]oracleResource, len(order))
	for i, r := range order {
		out[i] = r.atApply()
	}
	return out
}

// driftAfterPlan marks the attributes fact changes between the plan and the apply, which the state after the apply
// keeps as planned (Terraform requires the planned values; the next refresh reads the cloud's).
func driftAfterPlan(fact *oracleFact, attrs ...string) *oracleFact {
	return &oracleFact{fact.name, func(w *oracleWorld) error {
		w.driftedAfterPlan = map[string]bool{}
		for _, a := range attrs {
			w.driftedAfterPlan[a] = true
		}
		return fact.do(w)
	}}
}

// comboMechanismName is the level as the scenario records it: "" for none.
func comboMechanismName(level string) string {
	if level == "none" {
		return ""
	}
	return level
}
