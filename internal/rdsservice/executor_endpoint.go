package rdsservice

import (
	"context"
	"fmt"
	"strconv"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// endpoint runs an endpoint operation against the endpoints as they are now: an allocate the cloud already made
// (a resent apply) becomes a change, and a change already made is not sent again.
func (x *executor) endpoint(ctx context.Context, op Operation) error {
	c := op.Endpoint
	if c == nil || (c.Want == nil && op.Action != OpReleasePublic) {
		return fmt.Errorf("the endpoint configuration of %s is not known at apply", x.out.ID)
	}
	if _, err := x.w.WaitRunning(ctx, x.out.ID); err != nil {
		return err
	}
	info, err := x.api.DescribeDBInstanceNetInfo(ctx, x.out.ID)
	if err != nil {
		return err
	}
	facts := EndpointFactsOf(info)
	current := facts.Internal
	if c.Public {
		current = facts.Public
	}
	return x.w.RetryBusy(ctx, func() error { return x.sendEndpoint(ctx, op.Action, current, c) })
}

// sendEndpoint sends the one call that brings the endpoint from current to the wanted one.
func (x *executor) sendEndpoint(ctx context.Context, action string, current *NetEndpoint, c *EndpointChange) error {
	id := x.out.ID
	switch {
	case action == OpReleasePublic && current == nil:
		return nil
	case action == OpReleasePublic:
		return x.api.ReleaseInstancePublicConnection(ctx, id, current.ConnectionString)
	case current == nil && c.Public:
		_, err := x.api.AllocateInstancePublicConnection(ctx, &rdsapi.AllocateInstancePublicConnectionRequest{DBInstanceID: id,
			ConnectionStringPrefix: c.Want.Prefix, Port: strconv.FormatInt(c.Want.Port, 10)})
		return err
	case current == nil:
		return fmt.Errorf("%s has no internal endpoint to change", id)
	}
	target := current.With(*c.Want)
	if target == *current {
		return nil
	}
	return x.api.ModifyDBInstanceConnectionString(ctx, &rdsapi.ModifyDBInstanceConnectionStringRequest{DBInstanceID: id,
		CurrentConnectionString: current.ConnectionString, ConnectionStringPrefix: target.Prefix(), Port: strconv.FormatInt(target.Port, 10)})
}
