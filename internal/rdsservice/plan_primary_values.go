package rdsservice

// PrimaryValues are the computed values of an rds_instance plan read from its request beside
// [PlannedValues]: ssl_expire_time and the zones.
type PrimaryValues struct {
	SSLExpire Val[string]
	Zones     Zones
}

// PlannedPrimaryValues are m's planned ssl_expire_time ([PlannedSSLExpire]; a reissued certificate
// has no prior expiry) and zones ([PlannedZones]) after the decision dec.
func PlannedPrimaryValues(dec Decision, m ModelRequest, reissued bool) PrimaryValues {
	// A create's state is null: no prior expiry, SSL not on before.
	prior, priorOn := m.State.Get("ssl_expire_time").Str(), m.State.Get("ssl_enabled").Bool().Value() && !reissued
	plan := m.Plan
	proposed := Zones{Zone: plan.Get(AttrZoneID).Str(), VSwitch: plan.Get(AttrVSwitchID).Str(),
		SlaveA: plan.Get(AttrZoneIDSlaveA).Str(), SlaveB: plan.Get(AttrZoneIDSlaveB).Str()}
	return PrimaryValues{SSLExpire: PlannedSSLExpire(m.Config.Get("ssl_enabled").Bool().Value(), priorOn, prior),
		Zones: PlannedZones(dec, proposed, m.Config.Get(AttrZoneIDSlaveA).IsKnown())}
}
