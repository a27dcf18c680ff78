package rdsservice

import "fmt"

// A read-only instance whose primary this apply replaces is replaced too (its master_instance_id
// is known only at apply), and the new one is created against the new primary. The new primary's
// storage is known at plan from the primary's own plan (Facts.PrimaryReplaced), so the
// read-only instance's storage is checked against it then, not only by the apply's final check.

// checkStorageAgainstNewPrimary refuses a read-only instance's storage below the storage its
// primary's replacement is planned with. With the replacement's storage known only at apply, the
// apply's final check may refuse it after the new primary exists: the plan names that refusal as
// possible (issue 39 §3). The read-only instance's own unknown storage is left to the apply.
func checkStorageAgainstNewPrimary(in PlanInput, d *Decision) {
	p := in.Facts.PrimaryReplaced
	if in.Role != RoleReadOnly || p == nil || !in.Desired.Storage.IsKnown() {
		return
	}
	if !p.Storage.IsKnown() {
		d.add(problem(RuleStorageReadOnlyBelowUnknown, fmt.Sprint(in.Desired.Storage.Value()), in.Label, "the replacement of "+p.ID, in.Desired.Storage.Value()))
		return
	}
	if s := in.Desired.Storage.Value(); s < p.Storage.Value() {
		d.add(problem(RuleStorageReadOnlyBelow, fmt.Sprint(s), s, in.Label, "the replacement of "+p.ID, p.Storage.Value()))
	}
}

// ReplacedPrimary is a primary this run's plan replaces: its id now and the storage its
// replacement is planned with.
type ReplacedPrimary struct {
	ID      string
	Storage Val[int64]
}
