package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// name16KRefusalPossibleOnCreate: atomic_write_16k known only at apply on a new instance (created, or
// replacing one) whose engine, version and storage type are known: the apply's final plan refuses true
// where rule 1 refuses it, so the plan names that refusal (issue 39 §3).
func name16KRefusalPossibleOnCreate(in PlanInput, d *Decision) {
	c := in.Desired
	if !c.AtomicWrite.IsUnknown() || !c.Engine.IsKnown() || !c.EngineVersion.IsKnown() || !c.StorageType.IsKnown() {
		return
	}
	var refusals []string
	for _, p := range prerequisiteProblems(c.Engine.Value(), c.EngineVersion.Value(), "", c.StorageType.Value(), "") {
		refusals = append(refusals, p.Summary)
	}
	if len(refusals) > 0 {
		d.add(problem(Rule16KRefusalPossibleUnknown, "", in.Label, strings.Join(refusals, "; ")))
	}
}

// possibleRefusals are the refusals a plan names as possible for values known only at apply: a
// replacement names those of the new instance's plan.
func possibleRefusals(d Decision) []Problem {
	return slices.DeleteFunc(slices.Clone(d.Problems), func(p Problem) bool { return p.Rule != Rule16KRefusalPossibleUnknown })
}

// nameNewReadOnlyStorageRefusalPossible: a read-only instance created in a run whose plan of its primary
// knows the primary's storage only at apply: the apply's final plan refuses the read-only instance below
// that storage, so the plan names the refusal as possible (issue 39 §3).
func nameNewReadOnlyStorageRefusalPossible(in PlanInput, d *Decision, primary *ExistingInstance) {
	if !in.Facts.PrimaryStorage.IsUnknown() || !in.Desired.Storage.IsKnown() {
		return
	}
	s := in.Desired.Storage.Value()
	d.add(problem(RuleStorageReadOnlyBelowUnknown, fmt.Sprint(s), in.Label, primary.ID, s))
}
