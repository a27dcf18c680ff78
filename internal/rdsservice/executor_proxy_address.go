package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// proxyEndpointAddress sends an rds_db_proxy_endpoint's configured prefix and port where they differ
// from the endpoint's as it reads back; an endpoint this program created is found by its description.
func (x *executor) proxyEndpointAddress(ctx context.Context, req ProxyRequest) error {
	t := req.Endpoint
	id := t.ID
	if id == "" {
		px, err := x.api.DescribeDBProxy(ctx, req.InstanceID)
		if err != nil {
			return err
		}
		made := ProxyEndpointDescribed(px, t.Description, "")
		if made == nil {
			return fmt.Errorf("after its create, no endpoint of the proxy of %s is described %q", req.InstanceID, t.Description)
		}
		id = made.EndpointID
	}
	ep, err := x.api.DescribeDBProxyEndpoint(ctx, req.InstanceID, id)
	if err != nil {
		return err
	}
	current := ProxyNetEndpoint(ep)
	send := &rdsapi.ModifyDBProxyEndpointAddressRequest{DBInstanceID: req.InstanceID, EndpointID: id, NetType: rdsapi.ProxyNetTypeVPC}
	if changesPrefix(&current, t.Address.Want) {
		send.Prefix = t.Address.Want.Prefix
	}
	if t.Address.Want.Port != current.Port {
		send.Port = t.Address.Want.Port
	}
	if send.Prefix == "" && send.Port == 0 {
		return nil
	}
	return x.api.ModifyDBProxyEndpointAddress(ctx, send)
}
