package rdsapi

import (
	"context"
	"fmt"
)

// UpgradeDBInstanceEngineVersion upgrades the major version of a MySQL instance in place
// (Alibaba API reference "UpgradeDBInstanceEngineVersion"; PostgreSQL has its own action).

// TaskTypeUpgradeEngineVersion is the TaskType the simulator gives a major version upgrade
// deferred to the maintenance window (an assumption: Alibaba does not document TaskType values).
const TaskTypeUpgradeEngineVersion = "UpgradeDBInstanceEngineVersion"

// UpgradeDBInstanceEngineVersionRequest is one major version upgrade.
type UpgradeDBInstanceEngineVersionRequest struct {
	DBInstanceID string
	// EngineVersion is the target major version: 5.6, 5.7 or 8.0.
	EngineVersion string
	// EffectiveTime is EffectiveTimeImmediate (the default) or EffectiveTimeMaintainTime.
	EffectiveTime string
	// ClientToken makes a resend harmless; empty: a new token.
	ClientToken string
}

// UpgradeDBInstanceEngineVersionResponse carries the upgrade's task.
type UpgradeDBInstanceEngineVersionResponse struct {
	RequestID string     `json:"RequestId"`
	TaskID    FlexString `json:"TaskId"`
}

// UpgradeDBInstanceEngineVersion sends the upgrade. It carries a ClientToken, so a resend after
// a lost answer is the same upgrade, not a second one.
func (c *Client) UpgradeDBInstanceEngineVersion(ctx context.Context, req *UpgradeDBInstanceEngineVersionRequest) (*UpgradeDBInstanceEngineVersionResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS UpgradeDBInstanceEngineVersion: %w", err)
	}
	if req.EngineVersion == "" {
		return nil, fmt.Errorf("RDS UpgradeDBInstanceEngineVersion: EngineVersion is required")
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, fmt.Errorf("RDS UpgradeDBInstanceEngineVersion: %w", err)
	}
	p.set("EngineVersion", req.EngineVersion)
	p.set("EffectiveTime", firstNonEmpty(req.EffectiveTime, EffectiveTimeImmediate))
	p.set("ClientToken", token)
	var out UpgradeDBInstanceEngineVersionResponse
	if err := c.call(ctx, "UpgradeDBInstanceEngineVersion", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
