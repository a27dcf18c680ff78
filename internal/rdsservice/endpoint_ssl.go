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

// sslOffOn wraps the internal endpoint's change in turning SSL off and on again, with the restarts the plan named.
func (b *programBuilder) sslOffOn(label string, when When, change Operation) {
	if !sslAroundEndpoint(b.in) {
		b.add(change)
		return
	}
	off, on := false, true
	b.add(Operation{Instance: label, Action: OpModifySSL, When: when, Flag: &off, Restart: b.takeFor(label, OpModifySSL)})
	b.add(change)
	b.add(Operation{Instance: label, Action: OpModifySSL, When: when, Flag: &on, Restart: b.takeFor(label, OpModifySSL)})
}

// sslTurnsOn reports whether this apply turns SSL on: the endpoints change first, so that the certificate is made
// for the new string.
func sslTurnsOn(d Decision) bool { return d.Security.SSL != nil && *d.Security.SSL }

// endpointsBeforeSecurity adds an update's endpoint changes ahead of the security operations when SSL turns on.
func (b *programBuilder) endpointsBeforeSecurity(label string) {
	if sslTurnsOn(b.d) {
		b.endpointOperations(label, WhenNow)
	}
}

// endpointsAfterSecurity adds them after the security operations otherwise (SSL turned off first needs no dance).
func (b *programBuilder) endpointsAfterSecurity(label string) {
	if !sslTurnsOn(b.d) {
		b.endpointOperations(label, WhenNow)
	}
}
