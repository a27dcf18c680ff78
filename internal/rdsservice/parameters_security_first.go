package rdsservice

import "maps"

// Parameters behind an SSL or TDE restart (issue 39 §4, sweep seed 63). The security operations go before everything
// an update in place sends (programOf), and their first restart runs every value waiting for a restart (simulator
// README "Parameters"; applyPending names them on it). A restart-needing value that already waits with the configured
// value (an earlier apply deferred it to the window; a later run then sets the endpoint back with SSL on) runs from
// that restart on: it is not sent again, and no restart of its own is named, now or in the window. The plan sent it
// again after the restarts with its restart in the window; it ran already, and the window made none.

// securityRestartsFirst reports whether this update restarts the instance for SSL or TDE before it sends its
// parameters: SSL changed, TDE turned on (planSecurity), or SSL turned off and on around the endpoint
// (planSSLAroundEndpoint).
func securityRestartsFirst(in PlanInput) bool {
	if in.Prior == nil {
		return false
	}
	want, now := in.Desired.Security, in.Facts.Security
	return want.SSL.IsKnown() && want.SSL.Value() != now.SSL || want.TDE.Is(true) && !now.TDE || sslAroundEndpoint(in)
}

// runningWhenSent is what the instance runs when its parameters are sent: after a security restart, also the
// values waiting for a restart that are the configured ones (want). Others that wait are withdrawn before any
// restart (withdrawFirst) or replaced, as without the restart.
func runningWhenSent(in PlanInput, want, running, pending map[string]string, t ParameterTemplate) map[string]string {
	if !securityRestartsFirst(in) {
		return running
	}
	out := maps.Clone(running)
	if out == nil {
		out = map[string]string{}
	}
	for name, v := range pending {
		if w, ok := want[name]; ok && SameParameterValue(t.Parameters[name], v, w) {
			out[name] = v
		}
	}
	return out
}
