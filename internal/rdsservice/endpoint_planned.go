package rdsservice

// PlannedPublicString is public_connection_string after the apply. The read-back reports the public endpoint the
// cloud lists for an instance whose endpoints Terraform manages, whoever allocated it: one that public_endpoint
// never set (allocated outside Terraform, or before an import) stays, since leaving public_endpoint out releases
// only an endpoint Terraform set. Null where the endpoints are not managed, where no public endpoint remains and
// for a new instance without public_endpoint; unknown where the string is known only after the apply.
func PlannedPublicString(e EndpointPlan) Val[string] {
	switch {
	case !e.Managed():
		return Null[string]()
	case e.PublicUnknown:
		return Unknown[string]()
	case e.Public == nil && (e.Current == nil || e.Current.Public == nil || e.releases()):
		return Null[string]()
	case e.Public == nil:
		return Known(e.Current.Public.ConnectionString)
	case e.Current != nil && e.Current.Public != nil:
		return Known(e.Current.Public.With(*e.Public).ConnectionString)
	}
	if _, public, ok := PlannedEndpoints(e); ok && public != nil {
		return Known(public.ConnectionString)
	}
	return Unknown[string]()
}
