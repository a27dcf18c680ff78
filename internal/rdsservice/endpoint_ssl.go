package rdsservice

// SSL meets endpoints (issue 42 §1): with SSL on, the endpoint its certificate is made for cannot change until SSL
// is off (internal/simulator/README.md, "Endpoints", EP3), and turning SSL off and on each restart the instance.
// When the internal endpoint changes while SSL stays on, the program turns SSL off, changes the endpoint and turns
// SSL on again for the new string, and the plan names both restarts. (This provider turns SSL on for the internal
// endpoint; SSL set outside Terraform on the public one is refused by the cloud at apply.)

// sslAroundEndpoint reports whether the internal endpoint changes while SSL is on and stays on.
func sslAroundEndpoint(in PlanInput) bool {
	e := in.Desired.Endpoints
	if in.Prior == nil || !in.Facts.Security.SSL || in.Desired.Security.SSL.Is(false) || e.Current == nil || e.Current.Internal == nil {
		return false
	}
	for _, lost := range LostEndpoints(in.Label, e, false) {
		if lost.Old == e.Current.Internal.Address() {
			return true
		}
	}
	return false
}

// planSSLAroundEndpoint names the two restarts of turning SSL off and on again around the endpoint change.
func planSSLAroundEndpoint(in PlanInput, d *Decision) {
	if d.Action == ActionReplace || !sslAroundEndpoint(in) {
		return
	}
	old := in.Desired.Endpoints.Current.Internal
	addSecurityRestart(in, d, OpModifySSL, AttrConnectionPrefix, "ssl_enabled is turned off to change the endpoint "+old.Address()+
		" (SSL must be off while the endpoint it protects changes)")
	addSecurityRestart(in, d, OpModifySSL, AttrConnectionPrefix, "ssl_enabled is turned on again for "+old.With(in.Desired.Endpoints.Internal).Address())
}

// sslTurnsOn reports whether this apply turns SSL on: the endpoints change first, so that the certificate is made
// for the new string.
func sslTurnsOn(d Decision) bool { return d.Security.SSL != nil && *d.Security.SSL }
