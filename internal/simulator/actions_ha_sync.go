package simulator

// The replication mode (README "Replication mode"): ModifyDBInstanceHAConfig sets SyncMode and
// HAMode of an instance with a secondary node, DescribeDBInstanceHAConfig reads them. The
// High-availability and cluster editions replicate Semi-sync (the default here, an assumption) or
// Async; Sync is the three-node Enterprise edition's, whose mode cannot be changed.

const defaultSyncMode = "Semi-sync"

func (s *Simulator) modifyDBInstanceHAConfig(c *call) (map[string]any, *apiError) {
	id, e := c.p.required("DbInstanceId")
	if e != nil {
		return nil, e
	}
	in, e := s.lookup(params{"DBInstanceId": id})
	if e != nil {
		return nil, e
	}
	sync, e := c.p.oneOf("SyncMode", "", "Sync", "Semi-sync", "Async")
	if e != nil {
		return nil, e
	}
	ha, e := c.p.oneOf("HAMode", "", "RPO", "RTO")
	if e != nil {
		return nil, e
	}
	if sync == "" || ha == "" {
		return nil, errMissing(map[bool]string{true: "SyncMode", false: "HAMode"}[sync == ""])
	}
	nodes := nodesOf(in)
	if nodes.Slave == "" {
		return nil, newErr(403, "IncorrectDBInstanceType", "Current DB instance type does not support this operation: %s has no secondary node (%s).", in.ID, describeRole(in))
	}
	if sync == "Sync" {
		return nil, errInvalid("SyncMode", "Sync is the Enterprise edition's replication; %s (%s) replicates Semi-sync or Async", in.ID, describeRole(in))
	}
	if e := in.writable("ModifyDBInstanceHAConfig"); e != nil {
		return nil, e
	}
	nodes.SyncMode, nodes.HAMode, c.dirty = sync, ha, true
	return map[string]any{}, nil
}

// orDefault is v, or def when v is empty.
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
