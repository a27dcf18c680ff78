package rdsservice

import (
	"context"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_db_proxy's apply as a program: PlanProxy decides from the proxy as the cloud has it and the
// configuration; the one executor runs it. Every endpoint change carries EffectiveTime=Immediate
// (the API's default is the maintenance window, P3), so the state never claims a change the cloud
// has not made.

// The proxy operations.
const (
	OpStartProxy       = "ModifyDBProxy Startup"
	OpResizeProxy      = "ModifyDBProxyInstance"
	OpProxyConnections = "ModifyDBProxy Modify"
	OpProxyEndpoint    = "ModifyDBProxyEndpoint"
	OpProxySSL         = "ModifyDbProxyInstanceSsl"
	OpShutdownProxy    = "ModifyDBProxy Shutdown"
)

// proxyEffectiveTime is the EffectiveTime every change is sent with.
const proxyEffectiveTime = "Immediate"

// ProxyPlan is the decision: the problems found (errors and X7's warnings), or the program.
type ProxyPlan struct {
	Request  ProxyRequest
	Problems []Problem
	Program  Program
}

// PlanProxy decides the apply; current is the proxy as the cloud has it, nil when it is off.
func PlanProxy(req ProxyRequest, current *ProxySpec) ProxyPlan {
	plan := ProxyPlan{Request: req}
	op := func(action string) {
		plan.Program.Operations = append(plan.Program.Operations, Operation{Instance: req.InstanceID, Action: action, When: WhenNow, Effect: EffectNone})
	}
	if req.Delete {
		op(OpShutdownProxy)
		return plan
	}
	if plan.Problems = CheckProxy(req); len(refusals(plan.Problems)) > 0 {
		return plan
	}
	if current == nil {
		op(OpStartProxy)
		op(OpProxyEndpoint)
		if req.Desired.SSL {
			op(OpProxySSL)
		}
		return plan
	}
	for _, attr := range ProxyInterruptions(*current, req.Desired) {
		id := RuleProxyInterrupts
		if req.PreventRestart {
			id = RuleProxyInterruptsStop
		}
		plan.Problems = append(plan.Problems, Raise(id, attr, req.InstanceID, attr).At(attr))
	}
	if len(refusals(plan.Problems)) > 0 {
		return plan
	}
	d := req.Desired
	if current.InstanceType != d.InstanceType || current.InstanceNum != d.InstanceNum {
		op(OpResizeProxy)
	}
	if current.Persistent != d.Persistent {
		op(OpProxyConnections)
	}
	if endpointChanged(*current, d) {
		op(OpProxyEndpoint)
	}
	if current.SSL != d.SSL {
		op(OpProxySSL)
	}
	return plan
}

// ExecuteProxy runs the plan's program with the one executor.
func ExecuteProxy(ctx context.Context, api rdsapi.API, w *Waiter, plan ProxyPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Proxy: &plan})
}

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
			InstanceNum: d.InstanceNum, EffectiveTime: proxyEffectiveTime})
	case OpProxyConnections:
		return x.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: req.InstanceID, Service: rdsapi.ProxyModify, PersistentConnections: persistent})
	case OpProxyEndpoint:
		return x.proxyEndpoint(ctx, req)
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

// proxyEndpoint configures the default endpoint: mode, every feature, the delay threshold and
// the weights ("primary" sent as the instance's id) or Standard.
func (x *executor) proxyEndpoint(ctx context.Context, req ProxyRequest) error {
	endpointID, err := x.defaultEndpoint(ctx, req.InstanceID)
	if err != nil {
		return err
	}
	d := req.Desired
	bit := func(b bool) int { return map[bool]int{true: 1}[b] }
	send := &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: req.InstanceID, EndpointID: endpointID, ReadWriteMode: d.ReadWriteMode,
		Features: map[string]int{rdsapi.ProxyFeatureReadWriteSplitting: bit(d.Features.ReadWriteSplitting), rdsapi.ProxyFeatureConnectionPersist: bit(d.Features.ConnectionPersist),
			rdsapi.ProxyFeatureTransactionSplit: bit(d.Features.TransactionSplit), rdsapi.ProxyFeatureCausalConsistRead: bit(d.Features.CausalConsistentRead)},
		MaxDelaySeconds: &d.MaxDelay, EffectiveTime: proxyEffectiveTime, DistributionType: rdsapi.ProxyDistributionStandard}
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

// defaultEndpoint is the id of the proxy's default endpoint.
func (x *executor) defaultEndpoint(ctx context.Context, id string) (string, error) {
	px, err := x.api.DescribeDBProxy(ctx, id)
	if err != nil {
		return "", err
	}
	if len(px.Endpoints) == 0 {
		return "", fmt.Errorf("the proxy of %s has no endpoint", id)
	}
	return px.Endpoints[0].EndpointID, nil
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
