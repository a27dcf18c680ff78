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
	if req.Delete {
		plan.add(OpShutdownProxy, WhenNow)
		return plan
	}
	if plan.Problems = CheckProxy(req); len(refusals(plan.Problems)) > 0 {
		return plan
	}
	if current == nil {
		plan.add(OpStartProxy, WhenNow)
		plan.add(OpProxyEndpoint, WhenNow)
		if req.Desired.SSL {
			plan.add(OpProxySSL, WhenNow)
		}
		return plan
	}
	if current.Starting {
		plan.add(OpAwaitProxy, WhenNow)
	}
	d := req.Desired
	deferred, ok := plan.changeProblems(*current)
	if !ok {
		return plan
	}
	if current.InstanceType != d.InstanceType || current.InstanceNum != d.InstanceNum {
		plan.add(OpResizeProxy, deferred)
	}
	if current.Persistent != d.Persistent {
		plan.add(OpProxyConnections, WhenNow)
	}
	if endpointChanged(*current, d) {
		plan.add(OpProxyEndpoint, deferred)
	}
	if current.SSL != d.SSL {
		plan.add(OpProxySSL, WhenNow)
	}
	return plan
}

// add appends the operation action, run when.
func (plan *ProxyPlan) add(action string, when When) {
	plan.Program.Operations = append(plan.Program.Operations, Operation{Instance: plan.Request.InstanceID, Action: action, When: when, Effect: EffectNone})
}

// changeProblems adds X7's and X9's problems of a change from current to the desired settings,
// and says when the deferrable operations run; false when a refusal stops the plan.
func (plan *ProxyPlan) changeProblems(current ProxySpec) (When, bool) {
	req := plan.Request
	for _, attr := range ProxyInterruptions(current, req.Desired) {
		id := RuleProxyInterrupts
		if req.PreventRestart {
			id = RuleProxyInterruptsStop
		}
		plan.Problems = append(plan.Problems, Raise(id, attr, req.InstanceID, attr).At(attr))
	}
	if len(refusals(plan.Problems)) > 0 {
		return WhenNow, false
	}
	if plan.Waiting = scheduleProxy(req, &current); plan.Waiting != nil {
		plan.Problems = append(plan.Problems, plan.Waiting.Problem(req.InstanceID))
		return WhenInWindow, true
	}
	return WhenNow, true
}

// ExecuteProxy runs the plan's program with the one executor.
func ExecuteProxy(ctx context.Context, api rdsapi.API, w *Waiter, plan ProxyPlan) Outcome {
	return Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Proxy: &plan})
}
