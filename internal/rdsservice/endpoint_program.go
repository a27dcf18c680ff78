package rdsservice

// endpointOperations adds the endpoint changes the configuration asks for. After a create they always run (the
// cloud chose the endpoints); in place, only where the endpoints differ from the ones read at plan.
func (b *programBuilder) endpointOperations(label string, when When) {
	e := b.in.Desired.Endpoints
	if !e.Managed() {
		return
	}
	internal, public, known := PlannedEndpoints(e)
	fresh := when == WhenAfterCreate || !known
	if e.InternalUnknown || (e.Internal != (Endpoint{}) && (fresh || internal == nil || *internal != *e.Current.Internal)) {
		b.sslOffOn(label, when, Operation{Instance: label, Action: OpModifyConnectionString, When: when, Endpoint: endpointChange(false, e.Internal, e.InternalUnknown)})
	}
	switch {
	case e.PublicUnknown || (e.Public != nil && (fresh || e.Current.Public == nil)):
		b.add(Operation{Instance: label, Action: OpAllocatePublic, When: when, Endpoint: endpointChange(true, endpointOr(e.Public), e.PublicUnknown)})
	case e.Public != nil && *public != *e.Current.Public:
		b.add(Operation{Instance: label, Action: OpModifyConnectionString, When: when, Endpoint: endpointChange(true, *e.Public, false)})
	case e.releases():
		b.add(Operation{Instance: label, Action: OpReleasePublic, When: when, Endpoint: &EndpointChange{Public: true}})
	}
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

// endpointsBeforeSecurity adds an update's endpoint changes ahead of the security operations when SSL turns on,
// and ahead of everything the update sends when SSL is turned off and on around them: parameters deferred to the
// window are sent after those restarts, which would otherwise apply them now.
func (b *programBuilder) endpointsBeforeSecurity(label string) {
	if sslTurnsOn(b.d) || sslAroundEndpoint(b.in) {
		b.endpointOperations(label, WhenNow)
	}
}

// endpointsAfterSecurity adds them after the security operations otherwise (SSL turned off first needs no dance).
func (b *programBuilder) endpointsAfterSecurity(label string) {
	if !sslTurnsOn(b.d) && !sslAroundEndpoint(b.in) {
		b.endpointOperations(label, WhenNow)
	}
}
