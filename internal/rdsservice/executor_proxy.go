package rdsservice

import (
	"context"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// proxy sends one proxy operation; a start or shutdown waits until the proxy reads back so.
func (x *executor) proxy(ctx context.Context, op Operation) error {
	if x.e.Proxy == nil {
		return fmt.Errorf("the program holds %s without its proxy", op.Action)
	}
	req := x.e.Proxy.Request
	d := req.Desired
	persistent := map[bool]string{true: "Enabled", false: "Disabled"}[d.Persistent]
	switch op.Action {
	case OpStartProxy:
		if err := x.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: req.InstanceID, Service: rdsapi.ProxyStartup,
			InstanceType: d.InstanceType, InstanceNum: d.InstanceNum, VSwitchID: d.VSwitchID, PersistentConnections: persistent}); err != nil {
			return err
		}
		return x.waitProxy(ctx, req.InstanceID, true)
	case OpResizeProxy:
		return x.api.ModifyDBProxyInstance(ctx, &rdsapi.ModifyDBProxyInstanceRequest{DBInstanceID: req.InstanceID, InstanceType: d.InstanceType,
			InstanceNum: d.InstanceNum, EffectiveTime: proxyEffectiveTime(op)})
	case OpProxyConnections:
		return x.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: req.InstanceID, Service: rdsapi.ProxyModify, PersistentConnections: persistent})
	case OpProxyEndpoint, OpCreateProxyEndpoint:
		return x.proxyEndpoint(ctx, req, op.Action, proxyEffectiveTime(op))
	case OpDeleteProxyEndpoint:
		return x.deleteProxyEndpoint(ctx, req)
	case OpProxyEndpointAddress:
		return x.proxyEndpointAddress(ctx, req)
	case OpAwaitProxy:
		return x.waitProxy(ctx, req.InstanceID, true)
	case OpProxySSL:
		endpointID, err := x.defaultEndpoint(ctx, req.InstanceID)
		if err != nil {
			return err
		}
		return x.api.ModifyDbProxyInstanceSsl(ctx, req.InstanceID, endpointID, d.SSL)
	}
	if err := x.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: req.InstanceID, Service: rdsapi.ProxyShutdown}); err != nil && !rdsapi.IsNotFound(err) {
		return err
	}
	return x.waitProxy(ctx, req.InstanceID, false)
}

// proxyEffectiveTime is the EffectiveTime op is sent with: MaintainTime when it waits for the
// window, else Immediate.
func proxyEffectiveTime(op Operation) string {
	if op.When == WhenInWindow {
		return rdsapi.EffectiveTimeMaintainTime
	}
	return rdsapi.EffectiveTimeImmediate
}

// proxyEndpoint configures an endpoint (the default one, or an rds_db_proxy_endpoint's, which
// OpCreateProxyEndpoint creates): mode, every feature, the delay threshold and the weights
// ("primary" sent as the instance's id) or Standard.
func (x *executor) proxyEndpoint(ctx context.Context, req ProxyRequest, action, effective string) error {
	d := req.Desired
	bit := func(b bool) int { return map[bool]int{true: 1}[b] }
	send := &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: req.InstanceID, ReadWriteMode: d.ReadWriteMode,
		Features: map[string]int{rdsapi.ProxyFeatureReadWriteSplitting: bit(d.Features.ReadWriteSplitting), rdsapi.ProxyFeatureConnectionPersist: bit(d.Features.ConnectionPersist),
			rdsapi.ProxyFeatureTransactionSplit: bit(d.Features.TransactionSplit), rdsapi.ProxyFeatureCausalConsistRead: bit(d.Features.CausalConsistentRead)},
		MaxDelaySeconds: &d.MaxDelay, EffectiveTime: effective, DistributionType: rdsapi.ProxyDistributionStandard}
	switch {
	case action == OpCreateProxyEndpoint:
		send.Operator, send.Aliases = rdsapi.ProxyEndpointCreate, req.Endpoint.Description
	case req.Endpoint != nil:
		send.EndpointID, send.Aliases = req.Endpoint.ID, req.Endpoint.Description
	default:
		endpointID, err := x.defaultEndpoint(ctx, req.InstanceID)
		if err != nil {
			return err
		}
		send.EndpointID = endpointID
	}
	if !d.Standard {
		send.DistributionType, send.Weights = rdsapi.ProxyDistributionCustom, map[string]int64{}
		for key, w := range d.Weights {
			if key == ProxyPrimaryKey {
				key = req.InstanceID
			}
			send.Weights[key] = w
		}
	}
	return x.api.ModifyDBProxyEndpoint(ctx, send)
}

// deleteProxyEndpoint deletes an rds_db_proxy_endpoint's endpoint; one already gone (or whose
// proxy is shut down, which took its endpoints) is deleted.
func (x *executor) deleteProxyEndpoint(ctx context.Context, req ProxyRequest) error {
	err := x.api.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: req.InstanceID, EndpointID: req.Endpoint.ID,
		Operator: rdsapi.ProxyEndpointDelete, EffectiveTime: rdsapi.EffectiveTimeImmediate})
	if rdsapi.IsProxyEndpointGone(err) {
		return nil
	}
	return err
}

// defaultEndpoint is the id of the proxy's default endpoint (DescribeDBProxyEndpoint without an
// endpoint id answers it).
func (x *executor) defaultEndpoint(ctx context.Context, id string) (string, error) {
	ep, err := x.api.DescribeDBProxyEndpoint(ctx, id, "")
	if err != nil {
		return "", err
	}
	return ep.EndpointID, nil
}

// waitProxy polls DescribeDBProxy until the proxy is Running (on) or off, within the deadline.
func (x *executor) waitProxy(ctx context.Context, id string, on bool) error {
	clock := x.w.clock()
	lo, hi := x.w.intervals()
	start := clock.Now()
	for poll := 0; ; poll++ {
		px, err := x.api.DescribeDBProxy(ctx, id)
		switch {
		case !on && rdsapi.IsNotFound(err):
			return nil // the instance is gone, and its proxy with it
		case err != nil && !retryableRead(err):
			return err
		case err == nil && on && px.Started && px.Status == rdsapi.StatusRunning, err == nil && !on && !px.Started:
			return nil
		}
		if !sleep(ctx, clock, nextPollDelay(clock, start, poll, time.Duration(0), lo, hi)) {
			return &WaitTimeoutError{InstanceID: id, What: "its database proxy " + map[bool]string{true: "Running", false: "shut down"}[on], Cause: context.Cause(ctx)}
		}
	}
}
