package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// SSL and TDE (ModifyDBInstanceSSL, DescribeDBInstanceSSL, ModifyDBInstanceTDE,
// DescribeDBInstanceTDE). For MySQL the API takes the endpoint to protect and the switch; CAType
// and custom certificates are PostgreSQL-only (ModifyDBInstanceSSL reference), so they are not
// offered here.

// ModifyDBInstanceSSLRequest turns SSL on or off for one endpoint of the instance.
type ModifyDBInstanceSSLRequest struct {
	DBInstanceID string
	// ConnectionString is the endpoint the server certificate is made for (required).
	ConnectionString string
	Enabled          bool
}

// DBInstanceSSL is DescribeDBInstanceSSL's answer. SSLEnabled is "Yes"/"No" for MySQL ("on"/"off"
// for other engines); Enabled reads either.
type DBInstanceSSL struct {
	ConnectionString string `json:"ConnectionString"`
	SSLEnabled       string `json:"SSLEnabled"`
	SSLExpireTime    string `json:"SSLExpireTime"`
	RequireUpdate    string `json:"RequireUpdate"`
}

// Enabled reports whether SSL is on.
func (s DBInstanceSSL) Enabled() bool {
	switch strings.ToLower(strings.TrimSpace(s.SSLEnabled)) {
	case "yes", "on", "1", "true", "enabled":
		return true
	}
	return false
}

// TDE statuses of ModifyDBInstanceTDE and DescribeDBInstanceTDE.
const (
	TDEEnabled  = "Enabled"
	TDEDisabled = "Disabled"
)

// ModifyDBInstanceTDERequest turns TDE on. EncryptionKey (a KMS key id) and RoleARN (the role RDS
// assumes to use it) are optional: without them the cloud uses a key it manages.
type ModifyDBInstanceTDERequest struct {
	DBInstanceID  string
	EncryptionKey string
	RoleARN       string
}

// DBInstanceTDE is DescribeDBInstanceTDE's answer.
type DBInstanceTDE struct {
	TDEStatus string `json:"TDEStatus"`
}

// Enabled reports whether TDE is on.
func (t DBInstanceTDE) Enabled() bool {
	return strings.EqualFold(strings.TrimSpace(t.TDEStatus), TDEEnabled)
}

// ModifyDBInstanceSSL sends the switch. Resending the same value is harmless, so the call is
// resent on transient errors.
func (c *Client) ModifyDBInstanceSSL(ctx context.Context, req *ModifyDBInstanceSSLRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil && strings.TrimSpace(req.ConnectionString) == "" {
		err = errors.New("ConnectionString is required")
	}
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceSSL: %w", err)
	}
	p.set("ConnectionString", req.ConnectionString)
	p.set("SSLEnabled", map[bool]string{true: "1", false: "0"}[req.Enabled])
	return c.call(ctx, "ModifyDBInstanceSSL", p, true, nil)
}

// DescribeDBInstanceSSL reads the instance's SSL settings.
func (c *Client) DescribeDBInstanceSSL(ctx context.Context, dbInstanceID string) (*DBInstanceSSL, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceSSL: %w", err)
	}
	var out DBInstanceSSL
	if err := c.call(ctx, "DescribeDBInstanceSSL", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBInstanceTDE turns TDE on (it cannot be turned off for MySQL). A resent request meets TDE
// already on, which the cloud accepts.
func (c *Client) ModifyDBInstanceTDE(ctx context.Context, req *ModifyDBInstanceTDERequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceTDE: %w", err)
	}
	p.set("TDEStatus", TDEEnabled)
	p.set("EncryptionKey", req.EncryptionKey)
	p.set("RoleArn", req.RoleARN)
	return c.call(ctx, "ModifyDBInstanceTDE", p, true, nil)
}

// DescribeDBInstanceTDE reads the instance's TDE status.
func (c *Client) DescribeDBInstanceTDE(ctx context.Context, dbInstanceID string) (*DBInstanceTDE, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceTDE: %w", err)
	}
	var out DBInstanceTDE
	if err := c.call(ctx, "DescribeDBInstanceTDE", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
