package rdsapi

import (
	"context"
	"fmt"
	"strings"
)

// MigrateToOtherZone moves an instance to other zones of its region in place (Alibaba API
// reference "MigrateToOtherZone"; guide "Migrate an ApsaraDB RDS for MySQL instance across zones").

// TaskTypeMigrateZone is the TaskType the simulator gives a zone move deferred to the maintenance
// window (an assumption: Alibaba does not document TaskType values).
const TaskTypeMigrateZone = "MigrateToOtherZone"

// EffectiveTimeScheduleTime runs a change at SwitchTime.
const EffectiveTimeScheduleTime = "ScheduleTime"

// MigrateToOtherZoneRequest is one zone move.
type MigrateToOtherZoneRequest struct {
	DBInstanceID string
	// ZoneID is the primary node's new zone (required).
	ZoneID string
	// ZoneIDSlave1 is the secondary node's zone: required for editions with one, refused for Basic.
	ZoneIDSlave1 string
	// ZoneIDSlave2 is the third node's zone (three-node editions only).
	ZoneIDSlave2 string
	// VPCID must be the instance's own VPC; VSwitchID a vSwitch of it in ZoneID.
	VPCID, VSwitchID string
	// EffectiveTime is Immediate (the default), MaintainTime or ScheduleTime (with SwitchTime, UTC
	// yyyy-MM-ddTHH:mm:ssZ).
	EffectiveTime, SwitchTime string
}

// MigrateToOtherZoneResponse is the answer to a zone move.
type MigrateToOtherZoneResponse struct {
	RequestID string `json:"RequestId"`
}

// MigrateToOtherZone sends the move. It is not idempotent by token (the API takes none): the
// executor reads the instance before a resend.
func (c *Client) MigrateToOtherZone(ctx context.Context, req *MigrateToOtherZoneRequest) (*MigrateToOtherZoneResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS MigrateToOtherZone: %w", err)
	}
	if strings.TrimSpace(req.ZoneID) == "" {
		return nil, fmt.Errorf("RDS MigrateToOtherZone: ZoneId is required")
	}
	p.set("ZoneId", req.ZoneID)
	for name, v := range map[string]string{"ZoneIdSlave1": req.ZoneIDSlave1, "ZoneIdSlave2": req.ZoneIDSlave2,
		"VPCId": req.VPCID, "VSwitchId": req.VSwitchID, "SwitchTime": req.SwitchTime} {
		if v != "" {
			p.set(name, v)
		}
	}
	p.set("EffectiveTime", firstNonEmpty(req.EffectiveTime, EffectiveTimeImmediate))
	var out MigrateToOtherZoneResponse
	if err := c.call(ctx, "MigrateToOtherZone", p, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SlaveZones is DescribeDBInstanceAttribute's SlaveZones: the zones of the secondary nodes.
type SlaveZones struct {
	SlaveZone []struct {
		ZoneID string `json:"ZoneId"`
	} `json:"SlaveZone"`
}

// Zones lists the secondary zones in order (ZoneIdSlave1 first).
func (z SlaveZones) Zones() []string {
	var out []string
	for _, s := range z.SlaveZone {
		out = append(out, s.ZoneID)
	}
	return out
}
