package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Endpoints (connection strings and ports): DescribeDBInstanceNetInfo, ModifyDBInstanceConnectionString,
// AllocateInstancePublicConnection and ReleaseInstancePublicConnection (sources in internal/simulator/README.md,
// "Endpoints"). None of the three writes is sent twice on a transport failure: a second Modify or Release names a
// string the first one removed, and a second Allocate meets the endpoint the first one made.

// Values of a DBInstanceNetInfo's IPType and ConnectionStringType.
const (
	IPTypePublic = "Public"
	// IPTypePrivate is a VPC instance's internal endpoint; IPTypeInner a classic-network one's.
	IPTypePrivate = "Private"
	IPTypeInner   = "Inner"
	// ConnectionStringNormal is an instance's own endpoint; ConnectionStringReadWriteSplitting the
	// read/write-splitting one, which ModifyDBInstanceConnectionString cannot change.
	ConnectionStringNormal             = "Normal"
	ConnectionStringReadWriteSplitting = "ReadWriteSplitting"
)

// Error codes of the endpoint actions.
const (
	// CodeConnectionStringNotFound: the CurrentConnectionString is no endpoint of the instance.
	CodeConnectionStringNotFound = "InvalidCurrentConnectionString.NotFound"
	// CodeAtLeastOneNetType: releasing the instance's last endpoint.
	CodeAtLeastOneNetType = "AtLeastOneNetTypeExists"
	// CodeNetTypeExists: allocating a second public endpoint.
	CodeNetTypeExists = "NetTypeExists"
)

// DBInstanceNetInfo is one endpoint of an instance.
type DBInstanceNetInfo struct {
	ConnectionString     string     `json:"ConnectionString"`
	IPAddress            string     `json:"IPAddress"`
	IPType               string     `json:"IPType"`
	Port                 FlexString `json:"Port"`
	VPCID                string     `json:"VPCId"`
	VSwitchID            string     `json:"VSwitchId"`
	ConnectionStringType string     `json:"ConnectionStringType"`
}

// Public reports whether the endpoint is reachable from the internet.
func (n DBInstanceNetInfo) Public() bool { return strings.EqualFold(n.IPType, IPTypePublic) }

// DescribeDBInstanceNetInfoResponse lists an instance's endpoints.
type DescribeDBInstanceNetInfoResponse struct {
	RequestID           string `json:"RequestId"`
	InstanceNetworkType string `json:"InstanceNetworkType"`
	DBInstanceNetInfos  struct {
		DBInstanceNetInfo []DBInstanceNetInfo `json:"DBInstanceNetInfo"`
	} `json:"DBInstanceNetInfos"`
}

// Endpoint returns the instance's own (not read/write-splitting) endpoint of the kind, public or internal.
func (r *DescribeDBInstanceNetInfoResponse) Endpoint(public bool) (DBInstanceNetInfo, bool) {
	for _, n := range r.DBInstanceNetInfos.DBInstanceNetInfo {
		if n.Public() == public && !strings.EqualFold(n.ConnectionStringType, ConnectionStringReadWriteSplitting) {
			return n, true
		}
	}
	return DBInstanceNetInfo{}, false
}

// ReadWriteSplitting returns the read/write-splitting endpoints (ConnectionStringType ReadWriteSplitting).
func (r *DescribeDBInstanceNetInfoResponse) ReadWriteSplitting() []DBInstanceNetInfo {
	var out []DBInstanceNetInfo
	for _, n := range r.DBInstanceNetInfos.DBInstanceNetInfo {
		if strings.EqualFold(n.ConnectionStringType, ConnectionStringReadWriteSplitting) {
			out = append(out, n)
		}
	}
	return out
}

// ModifyDBInstanceConnectionStringRequest changes one endpoint's prefix and port.
type ModifyDBInstanceConnectionStringRequest struct {
	DBInstanceID            string
	CurrentConnectionString string
	ConnectionStringPrefix  string
	Port                    string
}

// AllocateInstancePublicConnectionRequest gives an instance a public endpoint.
type AllocateInstancePublicConnectionRequest struct {
	DBInstanceID           string
	ConnectionStringPrefix string
	Port                   string
}

// DescribeDBInstanceNetInfo lists the instance's endpoints.
func (c *Client) DescribeDBInstanceNetInfo(ctx context.Context, dbInstanceID string) (*DescribeDBInstanceNetInfoResponse, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceNetInfo: %w", err)
	}
	var out DescribeDBInstanceNetInfoResponse
	if err := c.call(ctx, "DescribeDBInstanceNetInfo", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBInstanceConnectionString changes an endpoint's prefix and port (every field is required).
func (c *Client) ModifyDBInstanceConnectionString(ctx context.Context, req *ModifyDBInstanceConnectionStringRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil {
		err = requireAll(map[string]string{"CurrentConnectionString": req.CurrentConnectionString,
			"ConnectionStringPrefix": req.ConnectionStringPrefix, "Port": req.Port})
	}
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceConnectionString: %w", err)
	}
	p.set("CurrentConnectionString", req.CurrentConnectionString)
	p.set("ConnectionStringPrefix", req.ConnectionStringPrefix)
	p.set("Port", req.Port)
	return c.call(ctx, "ModifyDBInstanceConnectionString", p, false, nil)
}

// AllocateInstancePublicConnection gives the instance a public endpoint and returns its connection string.
func (c *Client) AllocateInstancePublicConnection(ctx context.Context, req *AllocateInstancePublicConnectionRequest) (string, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil {
		err = requireAll(map[string]string{"ConnectionStringPrefix": req.ConnectionStringPrefix, "Port": req.Port})
	}
	if err != nil {
		return "", fmt.Errorf("RDS AllocateInstancePublicConnection: %w", err)
	}
	p.set("ConnectionStringPrefix", req.ConnectionStringPrefix)
	p.set("Port", req.Port)
	var out struct {
		ConnectionString string `json:"ConnectionString"`
	}
	if err := c.call(ctx, "AllocateInstancePublicConnection", p, false, &out); err != nil {
		return "", err
	}
	return out.ConnectionString, nil
}

// ReleaseInstancePublicConnection removes the public endpoint whose connection string is given.
func (c *Client) ReleaseInstancePublicConnection(ctx context.Context, dbInstanceID, connectionString string) error {
	p, err := instanceParams(dbInstanceID)
	if err == nil {
		err = requireAll(map[string]string{"CurrentConnectionString": connectionString})
	}
	if err != nil {
		return fmt.Errorf("RDS ReleaseInstancePublicConnection: %w", err)
	}
	p.set("CurrentConnectionString", connectionString)
	return c.call(ctx, "ReleaseInstancePublicConnection", p, false, nil)
}

// requireAll fails naming the first (in name order) of the fields that is blank.
func requireAll(fields map[string]string) error {
	var missing []string
	for name, v := range fields {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return errors.New(strings.Join(missing, ", ") + " required")
}
