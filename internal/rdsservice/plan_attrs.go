package rdsservice

// The computed values a plan of an instance sets, by attribute name: ModifyPlan writes them into
// Terraform's plan (one generic conversion back, the provider's attr_codec.go). Each value comes
// from the decision through the Planned* functions; what the plan does not name keeps the value
// Terraform proposed.

// DefaultSecurityIP is the allow-list of a new instance whose security_ips is not configured.
const DefaultSecurityIP = "127.0.0.1"

// PlannedAttrs are the attributes the plan of an instance of resourceType sets: m is the plan's
// request (with the spec the instance runs while a change waits, ModelRequest.Running), out
// PlanInstance's answer when it is no replacement.
func PlannedAttrs(resourceType string, m ModelRequest, out InstancePlan) map[string]AttrValue {
	dec, config := out.Decision, m.Config
	attrs := map[string]AttrValue{
		"atomic_write_16k": knownOrUnknown(dec.AtomicWrite), "atomic_write_16k_supported": knownOrUnknown(dec.AtomicWriteSupported),
		"instruction_set_arch": knownOrUnknown(dec.Architecture), "status": knownOrUnknown(dec.Status),
		"parameters_pending":     PlannedPending(!config.Get(AttrParameters).IsNull(), dec.Parameters).Attr(),
		"parameter_group_values": PlannedGroupValues(dec.Parameters, m.Plan.Get("parameter_group_id").Str()).Attr(),
	}
	e := PlannedEndpointValues(dec.Endpoints, !config.Get(AttrConnectionPrefix).IsNull(), !config.Get(AttrPort).IsNull())
	setPlanned(attrs, AttrConnectionPrefix, e.Prefix)
	setPlanned(attrs, "connection_string", e.ConnectionString)
	setPlanned(attrs, "public_connection_string", e.PublicString)
	setPlanned(attrs, AttrPort, e.Port)
	if resourceType == ResourceReadOnlyInstance {
		readOnlyAttrs(m, out, attrs)
	} else {
		primaryAttrs(m, out, attrs)
	}
	return attrs
}

// primaryAttrs adds an rds_instance's own planned values.
func primaryAttrs(m ModelRequest, out InstancePlan, attrs map[string]AttrValue) {
	dec, v := out.Decision, out.Values
	attrs["buffer_pool_extension"] = knownOrUnknown(dec.BufferPoolExtension)
	attrs["storage_actual"], attrs["lock_mode"] = attrOf(v.StorageActual), attrOf(v.LockMode)
	attrs["expire_time"], attrs[AttrMinorVersion] = attrOf(v.ExpireTime), attrOf(v.MinorVersion)
	p := PlannedPrimaryValues(dec, m, v.SSLReissued)
	attrs["ssl_expire_time"], attrs[AttrZoneID], attrs[AttrVSwitchID] = attrOf(p.SSLExpire), attrOf(p.Zones.Zone), attrOf(p.Zones.VSwitch)
	attrs[AttrZoneIDSlaveA], attrs[AttrZoneIDSlaveB] = attrOf(p.Zones.SlaveA), attrOf(p.Zones.SlaveB)
	if !m.create() {
		attrs[AttrScheduledChange] = v.ScheduledChange.attr(m.State.Get(AttrScheduledChange))
		return
	}
	attrs["purchase_time"] = knownOrUnknown(dec.PurchaseTime)
	attrs["read_only_instance_ids"] = ListAttr()
	if m.Config.Get("security_ips").IsNull() {
		attrs["security_ips"] = ListAttr(StringAttr(DefaultSecurityIP))
	}
}

// readOnlyAttrs adds an rds_readonly_instance's own planned values: lock_mode, the minor version
// that follows its primary, and for a new one what it takes from its primary.
func readOnlyAttrs(m ModelRequest, out InstancePlan, attrs map[string]AttrValue) {
	dec, plan, exists := out.Decision, m.Plan, !m.create()
	attrs["lock_mode"] = attrOf(PlannedLockMode(plan.Get("lock_mode").Str(), exists))
	attrs[AttrMinorVersion] = attrOf(PlannedFollowMinor(dec, plan.Get(AttrMinorVersion).Str(), m.State.Get(AttrMinorVersion).Str(), exists))
	if exists {
		attrs[AttrScheduledChange] = PlannedScheduledChange(dec, m.scheduledInputs(false)).attr(m.State.Get(AttrScheduledChange))
		return
	}
	in := PlannedInherited(dec, out.Primary, Inherited{EngineVersion: plan.Get(AttrEngineVersion).Str(), StorageType: plan.Get("storage_type").Str(),
		Zone: plan.Get(AttrZoneID).Str(), VSwitch: plan.Get(AttrVSwitchID).Str(), Engine: plan.Get("engine").Str(), Category: plan.Get(AttrCategory).Str()})
	attrs[AttrEngineVersion], attrs["storage_type"], attrs[AttrZoneID] = attrOf(in.EngineVersion), attrOf(in.StorageType), attrOf(in.Zone)
	attrs[AttrVSwitchID], attrs["engine"], attrs[AttrCategory] = attrOf(in.VSwitch), attrOf(in.Engine), attrOf(in.Category)
}

// scheduledInputs are what an existing instance's scheduled_change is planned from: the prior
// state's, the spec before its task (m.From) and the spec planned (edition: rds_instance's only).
func (m ModelRequest) scheduledInputs(edition bool) ScheduledInputs {
	return ScheduledInputs{Recorded: m.State.Get(AttrScheduledChange).IsKnown(), From: m.From, Requested: specOfAttrs(m.Plan, edition),
		RequestedKnown: m.Plan.Get(AttrInstanceType).IsKnown()}
}

// RunningSpec is the spec the instance runs (m.State once Running gave it the private state's
// record): what an apply that defers a spec change records for the next plans. edition: the
// resource has an edition of its own (rds_instance).
func (m ModelRequest) RunningSpec(edition bool) SpecValues { return specOfAttrs(m.State, edition) }

// specOfAttrs is the spec attributes of an instance's object v ("", 0 and false where null or
// unknown); the edition only where the resource has its own (edition).
func specOfAttrs(v AttrValue, edition bool) SpecValues {
	s := SpecValues{InstanceType: v.Get(AttrInstanceType).String(), Storage: v.Get("storage").Int().Value(),
		StorageType: v.Get("storage_type").String(), AtomicWrite: v.Get("atomic_write_16k").Bool().Value(),
		AtomicWriteSupport: v.Get("atomic_write_16k_supported").Bool().Value(), BufferPoolExtension: v.Get("buffer_pool_extension").Bool().Value(),
		EngineVersion: v.Get(AttrEngineVersion).String(), Architecture: v.Get("instruction_set_arch").String()}
	if edition {
		s.Category = v.Get(AttrCategory).String()
	}
	return s
}

// attr is the planned scheduled_change: unknown, null, or the prior state's (current).
func (c ScheduledChange) attr(current AttrValue) AttrValue {
	switch c {
	case ScheduledUnknown:
		return UnknownAttr()
	case ScheduledNone:
		return NullAttr()
	}
	return current
}

// Attr is a planned map as an attribute value.
func (v MapValue) Attr() AttrValue {
	switch {
	case v.Null:
		return NullAttr()
	case v.Unknown:
		return UnknownAttr()
	}
	out := make(map[string]AttrValue, len(v.Values))
	for k, s := range v.Values {
		out[k] = StringAttr(s)
	}
	return ObjectAttr(out)
}

// attrOf is a planned value as an attribute value (null and unknown kept).
func attrOf[T string | int64 | bool](v Val[T]) AttrValue {
	switch {
	case v.IsNull():
		return NullAttr()
	case v.IsUnknown():
		return UnknownAttr()
	}
	x := any(v.Value())
	if s, ok := x.(string); ok {
		return StringAttr(s)
	}
	if n, ok := x.(int64); ok {
		return IntAttr(n)
	}
	b, _ := x.(bool) // the only type left
	return BoolAttr(b)
}

// knownOrUnknown is a decided value: unknown until the planner knows it (null too).
func knownOrUnknown[T string | int64 | bool](v Val[T]) AttrValue {
	if !v.IsKnown() {
		return UnknownAttr()
	}
	return attrOf(v)
}

// setPlanned sets attrs[name] to *v; nil keeps what Terraform proposed.
func setPlanned[T string | int64 | bool](attrs map[string]AttrValue, name string, v *Val[T]) {
	if v != nil {
		attrs[name] = attrOf(*v)
	}
}
