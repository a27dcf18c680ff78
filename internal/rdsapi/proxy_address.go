package rdsapi

import (
	"context"
	"errors"
	"fmt"
)

// ProxyNetTypeVPC is DBProxyConnectStringNetType of a proxy endpoint's VPC address, the one every
// endpoint has (internal/simulator/README.md, "Database proxy" [P7]).
const ProxyNetTypeVPC = "VPC"

// ModifyDBProxyEndpointAddressRequest changes the prefix and/or port of a proxy endpoint's
// address ("" and 0 keep them; at least one is required).
type ModifyDBProxyEndpointAddressRequest struct {
	DBInstanceID string
	EndpointID   string
	// NetType is DBProxyConnectStringNetType: VPC, Public or Classic (the API's default for MySQL).
	NetType string
	Prefix  string
	Port    int64
}

// ModifyDBProxyEndpointAddress sends the request; repeated, it asks for the same address.
func (c *Client) ModifyDBProxyEndpointAddress(ctx context.Context, req *ModifyDBProxyEndpointAddressRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBProxyEndpointAddress: %w", err)
	}
	if req.EndpointID == "" || (req.Prefix == "" && req.Port == 0) {
		return errors.New("RDS ModifyDBProxyEndpointAddress: DBProxyEndpointId, and DBProxyNewConnectString or DBProxyNewConnectStringPort, are required")
	}
	p.set("DBProxyEndpointId", req.EndpointID)
	p.set("DBProxyConnectStringNetType", req.NetType)
	p.set("DBProxyNewConnectString", req.Prefix)
	p.setInt("DBProxyNewConnectStringPort", req.Port)
	return c.call(ctx, "ModifyDBProxyEndpointAddress", p, true, nil)
}
