package rdsservice

import "github.com/openrds/terraform-provider-rds/internal/rdsapi"

// Inherited are the attributes a new read-only instance takes from the planner and its primary
// when they are not configured.
type Inherited struct {
	EngineVersion, StorageType, Zone, VSwitch, Engine, Category Val[string]
}

// PlannedInherited is what a new read-only instance's plan shows for them: the engine version and
// storage type the planner decided, and the primary's zone, vSwitch, engine and edition where the
// plan has none yet (proposed unknown). primary is nil when it is not read (created in this run).
func PlannedInherited(dec Decision, primary *rdsapi.DBInstanceAttribute, proposed Inherited) Inherited {
	out := proposed
	if dec.EngineVersion.IsKnown() {
		out.EngineVersion = dec.EngineVersion
	}
	if dec.StorageType.IsKnown() {
		out.StorageType = dec.StorageType
	}
	if primary == nil {
		return out
	}
	inherit := func(v *Val[string], from string) {
		if v.IsUnknown() && from != "" {
			*v = Known(from)
		}
	}
	inherit(&out.Zone, primary.ZoneID)
	inherit(&out.VSwitch, primary.VSwitchID)
	inherit(&out.Engine, primary.Engine)
	inherit(&out.Category, primary.Category)
	return out
}
