package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_db_proxy's apply as a program: PlanProxy decides from the proxy as the cloud has it and the
// configuration; the one executor runs it. Every resize and endpoint change carries EffectiveTime:
// Immediate, or MaintainTime with apply_changes = "in_maintenance_window" (the API's default is
// the maintenance window, P3, so it is never left out), and then the state records what waits
// (proxy_window.go) instead of claiming a change the cloud has not made.

// The proxy operations.
const (
	OpStartProxy       = "ModifyDBProxy Startup"
	OpResizeProxy      = "ModifyDBProxyInstance"
	OpProxyConnections = "ModifyDBProxy Modify"
	OpProxyEndpoint    = "ModifyDBProxyEndpoint"
	OpProxySSL         = "ModifyDbProxyInstanceSsl"
	OpShutdownProxy    = "ModifyDBProxy Shutdown"
)

// ProxyPlan is the decision: the problems found (errors and X7's warnings), or the program.
type ProxyPlan struct {
	Request  ProxyRequest
	Problems []Problem
	Program  Program
	// Waiting is the change this apply leaves waiting for the window (nil: none).
	Waiting *ProxyWaiting
}

// PlanProxy decides the apply; current is the proxy as the cloud has it, nil when it is off.
func PlanProxy(req ProxyRequest, current *ProxySpec) ProxyPlan {
	plan := ProxyPlan{Request: req}
	op := func(action string, when ...When) {
		plan.Program.Operations = append(plan.Program.Operations, Operation{Instance: req.InstanceID, Action: action, When: append(when, WhenNow)[0], Effect: EffectNone})
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
	d, deferred := req.Desired, WhenNow
	if plan.Waiting = scheduleProxy(req, current); plan.Waiting != nil {
		deferred = WhenInWindow
		plan.Problems = append(plan.Problems, plan.Waiting.Problem(req.InstanceID))
	}
	if current.InstanceType != d.InstanceType || current.InstanceNum != d.InstanceNum {
		op(OpResizeProxy, deferred)
	}
	if current.Persistent != d.Persistent {
		op(OpProxyConnections, WhenNow)
	}
	if endpointChanged(*current, d) {
		op(OpProxyEndpoint, deferred)
	}
	if current.SSL != d.SSL {
		op(OpProxySSL, WhenNow)
	}
	return plan
}

// ExecuteProxy runs the plan's program with the one executor.
func ExecuteProxy(ctx context.Context, api rdsapi.API, w *Waiter, plan ProxyPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Proxy: &plan})
}
