package rdsservice

import (
	"context"

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
