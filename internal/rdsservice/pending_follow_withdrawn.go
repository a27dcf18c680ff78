package rdsservice

import "strings"

// A primary's toggle of atomic_write_16k waiting for its window turns its read-only instances on
// there (rule 7), and the plan that deferred it named their restarts. A later plan that sets the
// toggle back sends the primary's own flag in a spec order, which replaces the task: the read-only
// instances then restart for nothing, and their own plans change nothing, so the primary's plan
// names them (found by the oracle, issue 39 §4: a later run that set 16K back left the read-only
// instance's follow promised, and the window made none).

// setsWaitingToggleBack: the configuration sets back the toggle on that waits for the window.
func setsWaitingToggleBack(in PlanInput) bool {
	return in.Prior != nil && !in.Prior.Enabled && in.Facts.Pending.ToggleOn() != nil && in.Desired.AtomicWrite.Is(false)
}

// withdrawFollows names the read-only instances that no longer follow the toggle this plan cancels.
func withdrawFollows(in PlanInput, d *Decision) {
	if !setsWaitingToggleBack(in) || !d.Program.sendsSpecOrder(nil) {
		return
	}
	d.FollowsWithdrawn = FollowingReadOnly(false, true, in.Facts.ReadOnly)
	if len(d.FollowsWithdrawn) > 0 {
		d.add(problem(RuleFollowWithdrawn, "false", "RDS instance "+strings.Join(d.FollowsWithdrawn, ", "), in.Label))
	}
}
