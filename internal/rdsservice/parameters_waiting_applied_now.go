package rdsservice

import (
	"slices"
	"strings"
)

// A restart-needing value this apply sends that already waits in the cloud with that very value
// (an earlier deferred apply's, its group's for instance, issue 39 §4) is not a change this apply
// makes: an SSL or TDE restart during the apply, which goes before the parameters (programOf:
// security before update), runs it, as any restart runs what waits (simulator README
// "Parameters"). The value the apply then sends, now or for the window, is the running one:
// nothing waits and nothing restarts for it, and a parameter task has nothing left, so the cloud
// cancels it. Parameter group factor, sweep seed 63: the plan kept such a value in
// parameters_pending and named the window's restart for it.

// waitingAppliedNow takes the values a security restart of this apply runs first out of
// parameters_pending, names them in that restart's reasons, and drops the parameters' own
// restart, now or in the window, when nothing else is left for it.
func waitingAppliedNow(in PlanInput, d *Decision) {
	f := in.Facts.Parameters
	if in.Prior == nil || f == nil || !securityRestartsNow(*d) {
		return
	}
	applied := map[string]string{}
	for _, name := range d.Parameters.Restart {
		if v, waits := f.Pending[name]; waits && SameParameterValue(f.Template.Parameters[name], v, d.Parameters.Send[name]) {
			applied[name] = v
			delete(d.Parameters.Pending, name)
		}
	}
	if len(applied) == 0 {
		return
	}
	first := slices.IndexFunc(d.Restarts, func(r Restart) bool { return r.Op == OpModifySSL || r.Op == OpModifyTDE })
	d.Restarts[first].Reasons = append(d.Restarts[first].Reasons, PendingAppliedReason(applied))
	if len(applied) < len(d.Parameters.Restart) || !d.Order.Empty() || d.Upgrade != nil || d.Minor.Upgrade != nil || d.ZoneMove != nil {
		return
	}
	d.Restarts = slices.DeleteFunc(d.Restarts, func(r Restart) bool {
		return r.InstanceID == in.Label && r.Op == "" && r.Task == "" && !r.ByPrimary &&
			strings.HasPrefix(r.Reasons[0], parameterRestartReasonPrefix)
	})
}
