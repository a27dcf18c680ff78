package rdsservice

// The computed values a plan writes beside PlannedValues: ssl_expire_time, the zones after a
// move or an edition upgrade, parameters_pending and a read-only instance's minor_version. The
// provider only converts them.

// MapValue is a planned map attribute: null, unknown, or Values.
type MapValue struct {
	Null, Unknown bool
	Values        map[string]string
}

// PlannedPending is parameters_pending: null when parameters are not managed, unknown until the
// planner knows what waits after the apply.
func PlannedPending(managed bool, d ParameterDecision) MapValue {
	switch {
	case !managed:
		return MapValue{Null: true}
	case !d.PendingKnown:
		return MapValue{Unknown: true}
	}
	return MapValue{Values: d.Pending}
}

// PlannedSSLExpire is ssl_expire_time: unknown when SSL turns on, null when it is off or not
// managed (on: ssl_enabled as configured), else the prior one (priorOn: SSL on in the prior state).
func PlannedSSLExpire(on, priorOn bool, prior Val[string]) Val[string] {
	switch {
	case !on:
		return Null[string]()
	case priorOn && prior.IsKnown():
		return prior
	}
	return Unknown[string]()
}

// Zones are the planned zone_id, vswitch_id, zone_id_slave_a and zone_id_slave_b.
type Zones struct {
	Zone, VSwitch, SlaveA, SlaveB Val[string]
}

// PlannedZones are the zones after the plan: a zone move's target (the secondary zones follow a
// moved zone when unset; no vSwitch is null), else proposed. After an edition upgrade in this apply
// the instance has a standby, which the cloud reports in the primary's zone (simulator README,
// Editions) unless zone_id_slave_a is configured (slaveAConfigured).
func PlannedZones(dec Decision, proposed Zones, slaveAConfigured bool) Zones {
	z := proposed
	if m := dec.ZoneMove; m != nil {
		z = Zones{Zone: Known(m.To.Zone), VSwitch: Known(m.To.VSwitch), SlaveA: Known(m.To.SlaveA), SlaveB: Known(m.To.SlaveB)}
		if m.To.VSwitch == "" {
			z.VSwitch = Null[string]()
		}
	}
	if dec.Order.Category != nil && !dec.Deferred && !slaveAConfigured {
		z.SlaveA = z.Zone
	}
	return z
}

// PlannedFollowMinor is a read-only instance's minor_version: one upgraded with its primary during
// this apply reads its new version back; an existing one otherwise keeps the version it runs (only
// its primary's upgrade changes it; prior), a new one what Terraform proposed.
func PlannedFollowMinor(dec Decision, proposed, prior Val[string], exists bool) Val[string] {
	switch f := dec.Minor.Follows; {
	case f != nil && f.When == "":
		return Unknown[string]()
	case exists:
		return prior
	}
	return proposed
}

// PlannedGroupValues is parameter_group_values: null without a group (group null or ""), unknown
// while the group or its values are known only at apply, else the decision's.
func PlannedGroupValues(d ParameterDecision, group Val[string]) MapValue {
	switch {
	case group.IsNull() || (group.IsKnown() && group.Value() == ""):
		return MapValue{Null: true}
	case !group.IsKnown() || !d.GroupValuesKnown || d.GroupValues == nil:
		return MapValue{Unknown: true}
	}
	return MapValue{Values: d.GroupValues}
}

// EndpointValues are connection_string_prefix, port, connection_string and
// public_connection_string after the plan; a nil field keeps what Terraform proposed.
type EndpointValues struct {
	Prefix, ConnectionString, PublicString *Val[string]
	Port                                   *Val[int64]
}

// PlannedEndpointValues are the endpoint values of the plan (prefixConfigured, portConfigured: the
// attribute is set in the configuration): null prefix while no endpoint is managed, unknown where
// the endpoints are known only after the apply (what is configured stays), else the planned internal
// endpoint.
func PlannedEndpointValues(e EndpointsPlanned, prefixConfigured, portConfigured bool) EndpointValues {
	out := EndpointValues{PublicString: &e.PublicString}
	switch {
	case !e.Managed:
		out.Prefix = plannedVal(Null[string]())
	case !e.Known:
		out.ConnectionString = plannedVal(Unknown[string]())
		if !prefixConfigured {
			out.Prefix = plannedVal(Unknown[string]())
		}
		if !portConfigured {
			out.Port = plannedVal(Unknown[int64]())
		}
	case e.Internal != nil:
		out.Prefix, out.Port = plannedVal(Known(e.Internal.Prefix())), plannedVal(Known(e.Internal.Port))
		out.ConnectionString = plannedVal(Known(e.Internal.ConnectionString))
	}
	return out
}

// plannedVal is v as a planned value to write.
func plannedVal[T comparable](v Val[T]) *Val[T] { return &v }
