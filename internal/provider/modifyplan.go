package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// planKind is one instance resource's part of the ModifyPlan both share (modifyPlan), as
// instanceKind is of the apply.
type planKind[M any] interface {
	// before runs what the resource checks and records before planning (its configuration's own
	// checks, the planned configuration, a release), in its order.
	before(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// ownTags is planTags's count of the resource's own tag attributes.
	ownTags() int
	// resourceType names the resource in rdsservice's replacement table.
	resourceType() string
	// plan calls rdsservice with the request of the model; ok false stops the plan.
	plan(c *planCall[M]) (rdsservice.InstancePlan, bool)
	// write sets the planned values in c.plan; false leaves the plan as Terraform proposed it.
	write(c *planCall[M], out rdsservice.InstancePlan) bool
	// planned points at the computed attributes both resources plan alike (writeShared).
	planned(m *M) plannedParts
}

// modifyPlan is the ModifyPlan of both instance resources: the plan's checks, one call to plan,
// and the decision's values, problems and replacement written back. Every refusal of the plan is
// reported at once: the configuration's own checks, tags and the planner's rules.
func modifyPlan[M any](ctx context.Context, k planKind[M], data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	replace := planReplacement(ctx, k.resourceType(), req, resp) // replacement.go: first, so an unconfigured provider's plan still replaces
	k.before(ctx, req, resp)
	tagsAll := planTags(ctx, data, req, resp, k.ownTags())
	lookupCtx, cancel, proceed := planPreamble(ctx, data, req, resp)
	defer cancel()
	if !proceed {
		return
	}
	var decoded diag.Diagnostics
	plan, config, state := planModels[M](ctx, req, &decoded)
	if resp.Diagnostics.Append(decoded...); decoded.HasError() {
		return
	}
	*k.planned(&plan).tagsAll = tagsAll
	c := &planCall[M]{ctx: ctx, lookupCtx: lookupCtx, req: req, diags: &resp.Diagnostics, from: scheduledFrom(ctx, req.Private, &resp.Diagnostics),
		modelRequest: modelRequest[M]{state: state, config: config, plan: plan, replace: replace}}
	out, ok := k.plan(c)
	if !ok {
		return
	}
	data.decided(out.Decision)
	addProblems(&resp.Diagnostics, out.Problems)
	if out.Action == rdsservice.ActionReplace {
		return // Terraform plans the new instance in a second call, without prior state
	}
	writeShared(k.planned(&c.plan), k.planned(&c.config), out.Decision, c.diags)
	if k.write(c, out) {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &c.plan)...)
	}
}

// modelRequest is what an instance's typed plan request is built from: the models of one plan (or
// apply). config tells "unset" from a value; plan carries defaults; state is nil for a create;
// replace lists what Terraform replaces for.
type modelRequest[M any] struct {
	state        *M
	config, plan M
	replace      []string
}

// planCall is one ModifyPlan of an instance resource, decoded: the kind's plan and write read it.
// lookupCtx bounds the plan's API reads; from is the spec before a task waiting for the window
// (private state), nil when none; request is the models as rdsservice read them (attrRequest).
type planCall[M any] struct {
	modelRequest[M]
	request        rdsservice.ModelRequest
	ctx, lookupCtx context.Context
	req            resource.ModifyPlanRequest
	from           *specValues
	diags          *diag.Diagnostics
}

// attrRequest is the plan's request as rdsservice reads it (attrRequestOf), compared with the spec
// the instance runs while a change waits for the window (from; rdsservice.ModelRequest.Running);
// false when a model cannot be converted (reported).
func (c *planCall[M]) attrRequest(codec *lazyCodec[M]) (rdsservice.ModelRequest, bool) {
	out, diags := attrRequestOf(c.ctx, codec, c.modelRequest)
	c.diags.Append(diags...)
	c.request = out.Running(c.from)
	return c.request, !diags.HasError()
}

// attrRequestOf is an instance's models as rdsservice reads them: the configuration, plan and
// prior state converted by codec (the state null for a create).
func attrRequestOf[M any](ctx context.Context, codec *lazyCodec[M], r modelRequest[M]) (rdsservice.ModelRequest, diag.Diagnostics) {
	out := rdsservice.ModelRequest{Replace: r.replace, State: rdsservice.NullAttr()}
	var diags diag.Diagnostics
	for _, v := range []struct {
		to *rdsservice.AttrValue
		m  *M
	}{{&out.Config, &r.config}, {&out.Plan, &r.plan}, {&out.State, r.state}} {
		if v.m != nil {
			value, d := codec.AttrValue(ctx, *v.m)
			*v.to = value
			diags.Append(d...)
		}
	}
	return out, diags
}
