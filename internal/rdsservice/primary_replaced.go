package rdsservice

import "fmt"

// A read-only instance whose primary this apply replaces is replaced too (its master_instance_id
// is known only at apply), and the new one is created against the new primary. The new primary's
// storage is known at plan from the primary's own plan (Facts.PrimaryReplaced), so the
// read-only instance's storage is checked against it then, not only by the apply's final check.

// checkStorageAgainstNewPrimary refuses a read-only instance's storage below the storage its
// primary's replacement is planned with. Unknown storage on either side is left to the apply,
// which decides again with the values known before it creates anything.
func checkStorageAgainstNewPrimary(in PlanInput, d *Decision) {
	p := in.Facts.PrimaryReplaced
	if in.Role != RoleReadOnly || p == nil || !in.Desired.Storage.IsKnown() || !p.Storage.IsKnown() {
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
