package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_account, rds_database and rds_account_privilege share one skeleton, accessResource, as
// rds_accounts and rds_databases share accessListDataSource: the checks at plan and again before
// the first write, the create journal, one rdsservice access program per write, the second plan
// of a replacement. Each resource adds what is its own (accessKind) and its Schema, Read and
// ImportState.

// accessAbout names an access resource.
type accessAbout struct {
	kind rdsservice.AccessKind
	// createCall is the create's API action when the create journal tracks it ("" for a grant,
	// which is stored only once it succeeded).
	createCall string
	// summaries of the create's, the update's and the delete's errors.
	create, update, remove string
}

// accessKind is what one access resource adds to the skeleton; M is its model.
type accessKind[M any] interface {
	about() accessAbout
	// withPassword is plan with the configuration's password_wo (withWriteOnlyPassword), what an
	// apply checks and writes.
	withPassword(plan M, passwordWO types.String) M
	// facts are the rules' facts of plan (config holds what a plan does not, the password), the
	// attributes not known yet, and the instance.
	facts(config, plan M) (f rdsservice.AccessFacts, unknown map[string]bool, instanceID types.String)
	// readFacts fills the facts the instance's objects and this run's plans decide, for an
	// instance that exists; prior is the state at plan (nil when new). False, with the error,
	// when a read failed.
	readFacts(ctx context.Context, plan M, prior *M, stage checkStage, f *rdsservice.AccessFacts, diags *diag.Diagnostics) bool
	// planned completes a plan: the id, what a replacement changes (replacing), the values kept.
	planned(ctx context.Context, config M, plan *M, state *M, replacing bool, diags *diag.Diagnostics)
	// destroyPlanned names what a destroy of state loses.
	destroyPlanned(ctx context.Context, state M, diags *diag.Diagnostics)
	// request is the write a create (state nil) or an update asks for; target names the object.
	request(ctx context.Context, plan M, state *M, diags *diag.Diagnostics) rdsservice.AccessRequest
	target(ctx context.Context, state M, diags *diag.Diagnostics) rdsservice.AccessRequest
	password(config M) string
	// journal is the create journal's key and object id of plan.
	journal(plan M) (key, object string)
	// stored is the state after a write.
	stored(plan M, out rdsservice.AccessOutcome) M
	// validation is the configuration's facts (with the defaults) and its unknown attributes.
	validation(config M) (rdsservice.AccessFacts, map[string]bool)
	priorOf(ctx context.Context, state M) accessPrior
	fromPrior(prior accessPrior, diags *diag.Diagnostics) M
}

// withWriteOnlyPassword is password_wo from the configuration (null where the resource has none):
// Terraform never plans a write-only value, the one value an apply takes from the configuration
// (issue 39 §1).
func withWriteOnlyPassword(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) types.String {
	password := types.StringNull()
	if _, ok := config.Schema.GetAttributes()[rdsservice.AttrPassword]; ok {
		diags.Append(config.GetAttribute(ctx, path.Root(rdsservice.AttrPassword), &password)...)
	}
	return password
}

// accessResource is the skeleton; kind is the resource that embeds it.
type accessResource[M any] struct {
	resourceBase
	kind accessKind[M]
}

// accessWriteDeadline bounds one write by the timeouts block of from (accessTimeout when unset),
// the block's budget for the write being which; false, with the diagnostics, when it is invalid.
func accessWriteDeadline(ctx context.Context, from interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, which func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	var budgets timeouts.Value
	diags.Append(from.GetAttribute(ctx, path.Root("timeouts"), &budgets)...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	d, problems := which(budgets, ctx, accessTimeout)
	if diags.Append(problems...); diags.HasError() {
		return ctx, func() {}, false
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, true
}

// Create checks every rule again (the plan may not have known the instance), then creates.
func (r *accessResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	diags, a := &resp.Diagnostics, r.kind.about()
	var plan M
	diags.Append(req.Plan.Get(ctx, &plan)...)
	config := r.kind.withPassword(plan, withWriteOnlyPassword(ctx, req.Config, diags))
	if diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel, ok := accessWriteDeadline(ctx, req.Plan, timeouts.Value.Create, diags)
	if !ok {
		return
	}
	defer cancel()
	r.kind.planned(ctx, config, &plan, nil, true, diags)
	r.check(ctx, config, plan, nil, atCreate, diags)
	if diags.HasError() {
		return
	}
	access := r.kind.request(ctx, plan, nil, diags)
	access.Create = true
	if a.createCall != "" {
		key, object := r.kind.journal(plan)
		access.Adopt = adoptingAccess(r.data, r.typeName, key, object, atCreate, diags)
		claim := claimAccessCreate(r.data, r.typeName, key, object, a.createCall, diags)
		if claim == nil {
			return
		}
		defer func() { claim.done(!resp.State.Raw.IsNull()) }()
	}
	out := applyAccess(ctx, r.data, access, r.kind.password(config), a.create, diags)
	if a.createCall != "" && out.Exists || a.createCall == "" && !diags.HasError() { // a journalled object is tracked even if the wait failed
		diags.Append(resp.State.Set(ctx, r.kind.stored(plan, out))...)
	}
}

// Update sends what differs from the state.
func (r *accessResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	diags := &resp.Diagnostics
	var plan, state M
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.State.Get(ctx, &state)...)
	config := r.kind.withPassword(plan, withWriteOnlyPassword(ctx, req.Config, diags))
	if diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel, ok := accessWriteDeadline(ctx, req.Plan, timeouts.Value.Update, diags)
	if !ok {
		return
	}
	defer cancel()
	if r.check(ctx, config, plan, &state, atUpdate, diags); diags.HasError() {
		return
	}
	out := applyAccess(ctx, r.data, r.kind.request(ctx, plan, &state, diags), r.kind.password(config), r.kind.about().update, diags)
	if !diags.HasError() {
		diags.Append(resp.State.Set(ctx, r.kind.stored(plan, out))...)
	}
}

func (r *accessResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	diags := &resp.Diagnostics
	var state M
	diags.Append(req.State.Get(ctx, &state)...)
	if diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel, ok := accessWriteDeadline(ctx, req.State, timeouts.Value.Delete, diags)
	if !ok {
		return
	}
	defer cancel()
	access := r.kind.target(ctx, state, diags)
	access.Delete = true
	applyAccess(ctx, r.data, access, "", r.kind.about().remove, diags)
}

// ValidateConfig checks every rule the configuration alone decides (no API call).
func (r *accessResource[M]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config M
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}
	facts, unknown := r.kind.validation(config)
	addProblems(&resp.Diagnostics, withoutUnknown(rdsservice.CheckAccess(r.kind.about().kind, facts), unknown))
}

// ModifyPlan checks the rules that need the instance (and, for a grant, the account), shows the
// id, and remembers the object a replacement replaces for the second plan of it.
func (r *accessResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	diags := &resp.Diagnostics
	if req.Plan.Raw.IsNull() {
		planAccessDestroy(ctx, r.data, req, diags)
		var state M
		if diags.Append(req.State.Get(ctx, &state)...); !diags.HasError() {
			r.kind.destroyPlanned(ctx, state, diags)
		}
		return
	}
	if r.data == nil || req.Plan.Raw.Equal(req.State.Raw) {
		return // an unconfigured provider (apply checks again), or nothing changes
	}
	var plan, config M
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.Config.Get(ctx, &config)...)
	if diags.HasError() {
		return
	}
	var prior, state *M
	replacing, stage := true, atPlan
	if !req.State.Raw.IsNull() {
		state = new(M)
		diags.Append(req.State.Get(ctx, state)...)
		replacing, prior = len(planReplacement(ctx, r.typeName, req, resp)) > 0, state
		rememberPrior(ctx, resp, r.kind.priorOf(ctx, *state))
	}
	if replaced := replacedPrior(ctx, req); replaced != nil {
		old := r.kind.fromPrior(*replaced, diags)
		prior, stage = &old, atReplan
	}
	r.kind.planned(ctx, config, &plan, state, replacing, diags)
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	r.check(lookupCtx, config, plan, prior, stage, diags)
	diags.Append(resp.Plan.Set(ctx, plan)...)
}

// check evaluates the rules with the instance's facts when the instance is known, and with its
// objects and this run's plans (readFacts) when it exists and passes the rules so far.
func (r *accessResource[M]) check(ctx context.Context, config, plan M, prior *M, stage checkStage, diags *diag.Diagnostics) {
	f, unknown, instanceID := r.kind.facts(config, plan)
	kind := r.kind.about().kind
	if isKnown(instanceID) {
		id := instanceID.ValueString()
		known, err := instanceFacts(ctx, r.data, id, &f)
		if err != nil {
			diags.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err))
			return
		}
		if known && !refused(rdsservice.CheckAccess(kind, f)) && !r.kind.readFacts(ctx, plan, prior, stage, &f, diags) {
			return
		}
	}
	addProblems(diags, withoutUnknown(rdsservice.CheckAccess(kind, f), unknown))
}
