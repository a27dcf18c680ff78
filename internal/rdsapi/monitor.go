package rdsapi

import (
	"context"
	"fmt"
	"strconv"
)

// The monitoring period (ModifyDBInstanceMonitor, DescribeDBInstanceMonitor; sources in
// internal/simulator/README.md, "Monitoring period"): seconds between two samples of the
// instance's metrics, sent and answered as a string.

// ModifyDBInstanceMonitor sets the instance's monitoring period in seconds. Sending it again sets
// the same period, so it is resent on transient errors.
func (c *Client) ModifyDBInstanceMonitor(ctx context.Context, dbInstanceID string, period int64) error {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceMonitor: %w", err)
	}
	return c.call(ctx, "ModifyDBInstanceMonitor", params{"DBInstanceId": dbInstanceID, "Period": strconv.FormatInt(period, 10)}, true, nil)
}

// DescribeDBInstanceMonitor reads the instance's monitoring period in seconds.
func (c *Client) DescribeDBInstanceMonitor(ctx context.Context, dbInstanceID string) (int64, error) {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return 0, fmt.Errorf("RDS DescribeDBInstanceMonitor: %w", err)
	}
	var out struct {
		Period FlexString `json:"Period"`
	}
	if err := c.call(ctx, "DescribeDBInstanceMonitor", params{"DBInstanceId": dbInstanceID}, true, &out); err != nil {
		return 0, err
	}
	period, err := strconv.ParseInt(string(out.Period), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("RDS DescribeDBInstanceMonitor %s: Period %q is not a number of seconds", dbInstanceID, out.Period)
	}
	return period, nil
}
