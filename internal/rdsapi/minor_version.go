package rdsapi

import (
	"context"
	"fmt"
	"strings"
)

// Minor engine versions of MySQL (issue 25 §2): UpgradeDBInstanceKernelVersion and
// ModifyDBInstanceAutoUpgradeMinorVersion (Alibaba API references of both); the running version
// is DescribeDBInstanceAttribute's CurrentKernelVersion.

// UpgradeTime values of UpgradeDBInstanceKernelVersion.
const (
	UpgradeTimeImmediate    = "Immediate"
	UpgradeTimeMaintainTime = "MaintainTime"
	UpgradeTimeSpecifyTime  = "SpecifyTime"
)

// AutoUpgradeMinorVersion values.
const (
	AutoUpgradeMinorAuto   = "Auto"
	AutoUpgradeMinorManual = "Manual"
)

// TaskTypeUpgradeKernelVersion is the TaskType the simulator gives a minor version upgrade waiting
// for its time (an assumption: Alibaba does not document TaskType values).
const TaskTypeUpgradeKernelVersion = "UpgradeDBInstanceKernelVersion"

// UpgradeDBInstanceKernelVersionRequest is one minor version upgrade.
type UpgradeDBInstanceKernelVersionRequest struct {
	DBInstanceID string
	// TargetMinorVersion is e.g. rds_20200229; empty: the latest the cloud offers.
	TargetMinorVersion string
	// UpgradeTime is Immediate (the default), MaintainTime or SpecifyTime (with SwitchTime,
	// yyyy-MM-ddTHH:mm:ssZ in UTC).
	UpgradeTime, SwitchTime string
}

// UpgradeDBInstanceKernelVersionResponse carries the upgrade's task and target.
type UpgradeDBInstanceKernelVersionResponse struct {
	RequestID          string     `json:"RequestId"`
	TaskID             FlexString `json:"TaskId"`
	TargetMinorVersion string     `json:"TargetMinorVersion"`
}

// UpgradeDBInstanceKernelVersion sends the upgrade. The action takes no ClientToken and a second
// upgrade to the same version is refused, so it is not resent after a lost answer.
func (c *Client) UpgradeDBInstanceKernelVersion(ctx context.Context, req *UpgradeDBInstanceKernelVersionRequest) (*UpgradeDBInstanceKernelVersionResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil && req.UpgradeTime == UpgradeTimeSpecifyTime && strings.TrimSpace(req.SwitchTime) == "" {
		err = fmt.Errorf("SwitchTime is required with UpgradeTime=SpecifyTime")
	}
	if err != nil {
		return nil, fmt.Errorf("RDS UpgradeDBInstanceKernelVersion: %w", err)
	}
	p.set("TargetMinorVersion", req.TargetMinorVersion)
	p.set("UpgradeTime", firstNonEmpty(req.UpgradeTime, UpgradeTimeImmediate))
	p.set("SwitchTime", req.SwitchTime)
	var out UpgradeDBInstanceKernelVersionResponse
	if err := c.call(ctx, "UpgradeDBInstanceKernelVersion", p, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBInstanceAutoUpgradeMinorVersion sets how the minor version is upgraded: Auto (the cloud
// upgrades it in the maintenance window) or Manual. Resending the same value is harmless.
func (c *Client) ModifyDBInstanceAutoUpgradeMinorVersion(ctx context.Context, dbInstanceID, value string) error {
	p, err := instanceParams(dbInstanceID)
	if err == nil && value != AutoUpgradeMinorAuto && value != AutoUpgradeMinorManual {
		err = fmt.Errorf("AutoUpgradeMinorVersion must be Auto or Manual, not %q", value)
	}
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceAutoUpgradeMinorVersion: %w", err)
	}
	p.set("AutoUpgradeMinorVersion", value)
	return c.call(ctx, "ModifyDBInstanceAutoUpgradeMinorVersion", p, true, nil)
}

// MinorVersionItem is one minor version DescribeDBMiniEngineVersions lists.
type MinorVersionItem struct {
	Engine        string `json:"Engine"`
	EngineVersion string `json:"EngineVersion"`
	MinorVersion  string `json:"MinorVersion"`
	// StatusDesc is Online (offered) or Offline.
	StatusDesc  string `json:"StatusDesc"`
	ReleaseType string `json:"ReleaseType"`
}

// DescribeDBMiniEngineVersions lists the minor versions released for an engine's major version
// (the API reference "DescribeDBMiniEngineVersions"; first page only, the list is short).
func (c *Client) DescribeDBMiniEngineVersions(ctx context.Context, engine, engineVersion string) ([]MinorVersionItem, error) {
	if strings.TrimSpace(engine) == "" || strings.TrimSpace(engineVersion) == "" {
		return nil, fmt.Errorf("RDS DescribeDBMiniEngineVersions: Engine and EngineVersion are required")
	}
	p := params{}
	p.set("Engine", engine)
	p.set("EngineVersion", engineVersion)
	var out struct {
		MinorVersionItems []MinorVersionItem `json:"MinorVersionItems"`
	}
	if err := c.call(ctx, "DescribeDBMiniEngineVersions", p, true, &out); err != nil {
		return nil, err
	}
	return out.MinorVersionItems, nil
}
