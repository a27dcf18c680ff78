package rdsservice

import (
	"slices"
	"strings"
)

// followAppliesParameters: a read-only instance whose own waiting task is parameters alone (beside
// the follow its deferring plan recorded there), and which follows its primary's toggle in a window
// that opens no later than that task's, restarts once: the follow restart applies the waiting
// values, and the task then has nothing left to restart for (simulator README "Parameters";
// PendingBehaviours, more work). The plan names that one restart with both reasons, as the plan
// that deferred them did (issue 39 §4, a later run after the read-only instance's parameters and
// its follow were deferred to the window).
func followAppliesParameters(pending PendingChange, follow Follow, restarts []Restart) []Restart {
	own := PendingChange{Changes: slices.DeleteFunc(slices.Clone(pending.Changes), func(c string) bool { return strings.HasPrefix(c, followReasonPrefix) })}
	kinds := own.PendingKinds()
	if follow.Scheduled == nil || len(kinds) > 1 || len(kinds) == 1 && kinds[0] != PendingParameters || follow.Scheduled.StartsAt == "" ||
		pending.StartsAt == "" || follow.Scheduled.StartsAt > pending.StartsAt {
		return restarts
	}
	task := slices.IndexFunc(restarts, func(r Restart) bool { return r.Task != "" && !r.ByPrimary })
	by := slices.IndexFunc(restarts, func(r Restart) bool { return r.ByPrimary })
	if task < 0 || by < 0 {
		return restarts
	}
	if len(own.Changes) > 0 {
		restarts[by].Reasons = append(slices.Clone(restarts[by].Reasons), strings.Join(own.Changes, "; "))
	}
	return slices.Delete(restarts, task, task+1)
}

// followReasonPrefix begins the reason of a read-only instance's restart following its primary's
// toggle (followScheduledPrimary), as scheduled_change lists it.
const followReasonPrefix = "follows its primary "
