package rdsapi

import (
	"context"
	"fmt"
)

// HA node roles in DescribeDBInstanceHAConfig (NodeType).
const (
	NodeTypeMaster = "Master"
	NodeTypeSlave  = "Slave"
)

// HAConfig is DescribeDBInstanceHAConfig's answer: the instance's primary and secondary nodes.
type HAConfig struct {
	RequestID         string `json:"RequestId"`
	DBInstanceID      string `json:"DBInstanceId"`
	SyncMode          string `json:"SyncMode"`
	HAMode            string `json:"HAMode"`
	HostInstanceInfos struct {
		NodeInfo []HANode `json:"NodeInfo"`
	} `json:"HostInstanceInfos"`
}

// HANode is one node of an instance: NodeType Master (serving) or Slave (the secondary).
type HANode struct {
	NodeID     FlexString `json:"NodeId"`
	NodeType   string     `json:"NodeType"`
	ZoneID     string     `json:"ZoneId"`
	SyncStatus string     `json:"SyncStatus"`
}

// Node is the first node of the given type, nil when there is none (a Basic-edition instance has
// no secondary).
func (h *HAConfig) Node(nodeType string) *HANode {
	for i, n := range h.HostInstanceInfos.NodeInfo {
		if n.NodeType == nodeType {
			return &h.HostInstanceInfos.NodeInfo[i]
		}
	}
	return nil
}

// DescribeDBInstanceHAConfig reads the instance's nodes.
func (c *Client) DescribeDBInstanceHAConfig(ctx context.Context, dbInstanceID string) (*HAConfig, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceHAConfig: %w", err)
	}
	var out HAConfig
	if err := c.call(ctx, "DescribeDBInstanceHAConfig", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SwitchDBInstanceHA makes the secondary node nodeID the primary, now. It is not resent on a
// lost answer: a second switch would switch back.
func (c *Client) SwitchDBInstanceHA(ctx context.Context, dbInstanceID, nodeID string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS SwitchDBInstanceHA: %w", err)
	}
	if nodeID == "" {
		return fmt.Errorf("RDS SwitchDBInstanceHA: NodeId is empty")
	}
	p.set("NodeId", nodeID)
	p.set("EffectiveTime", "Immediate")
	return c.call(ctx, "SwitchDBInstanceHA", p, false, nil)
}

// Replication modes (SyncMode) and high-availability modes (HAMode) of ModifyDBInstanceHAConfig.
const (
	SyncModeSemiSync = "Semi-sync"
	SyncModeAsync    = "Async"
)

// ModifyDBInstanceHAConfig sets the instance's replication mode and high-availability mode (both
// required; the instance id goes as DbInstanceId, as the API spells it). Sending it again sets the
// same modes, so it is resent on transient errors.
func (c *Client) ModifyDBInstanceHAConfig(ctx context.Context, dbInstanceID, syncMode, haMode string) error {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceHAConfig: %w", err)
	}
	if syncMode == "" || haMode == "" {
		return fmt.Errorf("RDS ModifyDBInstanceHAConfig: SyncMode %q and HAMode %q are both required", syncMode, haMode)
	}
	return c.call(ctx, "ModifyDBInstanceHAConfig", params{"DbInstanceId": dbInstanceID, "SyncMode": syncMode, "HAMode": haMode}, true, nil)
}
