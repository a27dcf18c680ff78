package rdsservice

import "slices"

// DestroyReleases: the destroy of req releases the instance (its program sends DeleteDBInstance). A
// subscription abandoned (prepaid_on_destroy = "abandon") stays in the cloud with all it holds, its
// cross-region backups too, and a refused destroy releases nothing: neither deletes data.
func DestroyReleases(req DestroyRequest) bool {
	return slices.Contains(PlanDestroyProgram(req).Program.destroySteps(), OpDelete)
}
