package rdsservice

// A read-only instance that follows its primary's scheduled toggle restarts in the primary's
// window; its own plan names that restart, and its warning says so in the summary, not "This apply
// restarts" over a detail that says "not during this apply" (found trying combinations as a user,
// issue 23).

// allWithPrimary reports whether every restart is one the cloud makes with the primary's
// scheduled change.
func allWithPrimary(restarts []Restart) bool {
	for _, r := range restarts {
		if !r.ByPrimary {
			return false
		}
	}
	return len(restarts) > 0
}
