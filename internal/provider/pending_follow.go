package provider

import "github.com/openrds/terraform-provider-rds/internal/rdsservice"

// A primary's toggle waiting for its window turns its read-only instances on there (rule 7), so a
// read-only instance's plan names that restart from the cloud's pending task. When this run's plan
// of the primary sends a spec order for the window (a new order, or its own spec to cancel the
// change), that order replaces the cloud's task: the read-only instance follows only the toggle the
// new order carries (plannedPrimaries.scheduled), if any. Found trying combinations as a user
// (issue 23): setting the primary back named a follow restart that never came, and prevent_restart
// on the read-only instance refused the cancel.

// replacesPendingTask: the program sends a ModifyDBInstanceSpec for the window.
func replacesPendingTask(dec rdsservice.Decision) bool {
	for _, op := range dec.Program.Operations {
		if op.Action == rdsservice.OpModifySpec && op.When == rdsservice.WhenInWindow {
			return true
		}
	}
	return false
}
