package rdsapi

import (
	"context"
	"fmt"
)

// Automatic switchover (ModifyHASwitchConfig, DescribeHASwitchConfig; sources in
// internal/simulator/README.md, "Automatic switchover"): HAConfig Auto or Manual, and with Manual
// ManualHATime, the UTC time (yyyy-MM-ddTHH:mm:ssZ) the cloud switches back to Auto.

// HA switchover modes (HAConfig).
const (
	HASwitchAuto   = "Auto"
	HASwitchManual = "Manual"
)

// HASwitch is an instance's switchover configuration; ManualHATime is empty with Auto.
type HASwitch struct {
	HAConfig     string `json:"HAConfig"`
	ManualHATime string `json:"ManualHATime"`
}

// ModifyHASwitchConfig sets the switchover configuration. Sending it again sets the same
// configuration, so it is resent on transient errors.
func (c *Client) ModifyHASwitchConfig(ctx context.Context, dbInstanceID string, cfg HASwitch) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyHASwitchConfig: %w", err)
	}
	p.set("HAConfig", cfg.HAConfig)
	if cfg.HAConfig == HASwitchManual {
		p.set("ManualHATime", cfg.ManualHATime)
	}
	return c.call(ctx, "ModifyHASwitchConfig", p, true, nil)
}

// DescribeHASwitchConfig reads the switchover configuration.
func (c *Client) DescribeHASwitchConfig(ctx context.Context, dbInstanceID string) (*HASwitch, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeHASwitchConfig: %w", err)
	}
	var out HASwitch
	if err := c.call(ctx, "DescribeHASwitchConfig", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
