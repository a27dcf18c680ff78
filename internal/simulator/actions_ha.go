package simulator

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// haNodes are an instance's nodes as DescribeDBInstanceHAConfig shows them: High-availability and
// cluster instances have a primary (Master) and a secondary (Slave) node; Basic-edition and
// read-only instances one node. SwitchDBInstanceHA swaps the roles.
type haNodes struct {
	Master string `json:"master"`
	Slave  string `json:"slave,omitempty"`
	// SyncMode and HAMode are set by ModifyDBInstanceHAConfig (actions_ha_sync.go); empty: the defaults.
	SyncMode string `json:"sync_mode,omitempty"`
	HAMode   string `json:"ha_mode,omitempty"`
}

// nodesOf returns the instance's nodes, naming them on first use (numeric ids, as the cloud's).
func nodesOf(in *instance) *haNodes {
	if in.HA != nil {
		return in.HA
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(in.ID))
	base := 100000 + h.Sum32()%800000
	in.HA = &haNodes{Master: fmt.Sprint(base)}
	if in.MasterID == "" && !strings.EqualFold(in.Category, "Basic") {
		in.HA.Slave = fmt.Sprint(base + 1)
	}
	return in.HA
}

// describeDBInstanceHAConfig lists the nodes with their roles.
func (s *Simulator) describeDBInstanceHAConfig(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	nodes := nodesOf(in)
	c.dirty = true // the node ids are kept once named
	info := []map[string]any{{"NodeId": nodes.Master, "NodeType": "Master", "ZoneId": in.ZoneID, "RegionId": in.RegionID, "SyncStatus": "Sync"}}
	if nodes.Slave != "" {
		info = append(info, map[string]any{"NodeId": nodes.Slave, "NodeType": "Slave", "ZoneId": in.ZoneID, "RegionId": in.RegionID, "SyncStatus": "Sync"})
	}
	return map[string]any{"DBInstanceId": in.ID, "SyncMode": orDefault(nodes.SyncMode, defaultSyncMode), "HAMode": orDefault(nodes.HAMode, "RPO"),
		"HostInstanceInfos": map[string]any{"NodeInfo": info}}, nil
}

// switchDBInstanceHA makes the named secondary node the primary. The instance stays Running: the
// switch is modelled as instantaneous (an assumption; the cloud drops connections briefly).
func (s *Simulator) switchDBInstanceHA(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	nodeID, e := c.p.required("NodeId")
	if e != nil {
		return nil, e
	}
	if _, e := c.p.oneOf("EffectiveTime", "Immediate", "Immediate"); e != nil {
		return nil, e
	}
	if e := in.writable("SwitchDBInstanceHA"); e != nil {
		return nil, e
	}
	nodes := nodesOf(in)
	if nodes.Slave == "" {
		return nil, newErr(403, "IncorrectDBInstanceType", "Current DB instance type does not support this operation: %s has no secondary node (%s).", in.ID, describeRole(in))
	}
	if nodeID != nodes.Slave {
		return nil, newErr(400, "InvalidParameter", "The specified parameter NodeId %q is not the secondary node of %s (its secondary is %s).", nodeID, in.ID, nodes.Slave)
	}
	nodes.Master, nodes.Slave = nodes.Slave, nodes.Master
	c.dirty = true
	return map[string]any{}, nil
}

func describeRole(in *instance) string {
	if in.MasterID != "" {
		return "a read-only instance"
	}
	return in.Category + " edition"
}
