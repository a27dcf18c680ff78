package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewDBProxyResource returns the rds_db_proxy resource.
func NewDBProxyResource() resource.Resource {
	return &dbProxyResource{resourceBase{typeName: proxyKind}}
}

// dbProxyResource is an adapter: the rules, the decision and the program are rdsservice's
// (proxy.go, proxy_program.go).
type dbProxyResource struct {
	resourceBase
}

func (r *dbProxyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = dbProxySchema()
}

// request is the model as rdsservice reads it, with the primary as the cloud has it (Known false
// when its id is not known yet or it cannot be read: the cloud then checks).
func (r *dbProxyResource) request(ctx context.Context, m dbProxyModel, diags *diag.Diagnostics) rdsservice.ProxyRequest {
	req := rdsservice.ProxyRequest{InstanceID: m.InstanceID.ValueString(), Desired: m.spec(ctx, diags),
		UnknownWeightKeys: m.Weights.IsUnknown(), PreventRestart: m.PreventRestart.ValueBool(),
		InWindow: m.ApplyChanges.ValueString() == rdsservice.ApplyRestartsInWindow, Now: r.data.cloudNow()}
	if !isKnown(m.InstanceID) {
		return req
	}
	attr := readProxyPrimary(ctx, r.data, &req)
	if attr == nil {
		return req
	}
	req.Primary.PreparedStmt = r.preparedStmtCounts(ctx, append([]string{attr.DBInstanceID}, attr.ReadOnlyDBInstanceIDs...))
	if req.Desired.VSwitchID == "" {
		req.Desired.VSwitchID = attr.VSwitchID
	}
	return req
}

// readProxyPrimary reads the primary of a proxy plan into rq: its maintenance window, the cloud's
// clock and what the rules check; nil when it cannot be read (the cloud then checks).
func readProxyPrimary(ctx context.Context, data *ProviderData, rq *rdsservice.ProxyRequest) *rdsapi.DBInstanceAttribute {
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, rq.InstanceID)
	rq.Now = data.cloudNow() // after the first answer: a fresh process knows the cloud's clock only then
	if err != nil {
		return nil
	}
	if window, err := rdsservice.ParseMaintenanceWindow(attr.MaintainTime); err == nil {
		rq.Window = &window
	}
	rq.Primary = rdsservice.ProxyPrimary{Known: true, ID: attr.DBInstanceID, Category: attr.Category, EngineVersion: string(attr.EngineVersion),
		MinorVersion: attr.CurrentKernelVersion, Zone: attr.ZoneID, ReadOnlyIDs: attr.ReadOnlyDBInstanceIDs}
	return attr
}

// preparedStmtCounts reads max_prepared_stmt_count of each instance (X8), as this run's plans of
// those instances plan it where they did; one that cannot be read is left out, and the cloud checks it.
func (r *dbProxyResource) preparedStmtCounts(ctx context.Context, ids []string) map[string]string {
	out := map[string]string{}
	for _, id := range ids {
		if params, err := r.data.API.DescribeParameters(ctx, id); err == nil {
			out[id] = params.RunningParameters.Values()[rdsservice.PreparedStmtParameter]
		}
	}
	return rdsservice.PlannedPreparedStmt(&r.data.plans, out)
}

// ModifyPlan checks the proxy, every refusal at once and nothing sent, warns of a change that
// interrupts connections, and plans read_only_distribution and the vSwitch.
func (r *dbProxyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var state dbProxyModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	var m dbProxyModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if weights := m.spec(ctx, &resp.Diagnostics).Weights; isKnown(m.InstanceID) {
		r.data.plans.RecordProxy(m.InstanceID.ValueString())
		addProblems(&resp.Diagnostics, rdsservice.ProxyWeightsReleased(&r.data.plans, m.InstanceID.ValueString(), weights))
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		warnProxyWaiting(ctx, r.data, state.InstanceID.ValueString(), state.proxyEndpointFields, &resp.Diagnostics)
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	rq := r.request(lookupCtx, m, &resp.Diagnostics)
	var current *rdsservice.ProxySpec
	m.setWaiting(nil, &resp.Diagnostics)
	if !req.State.Raw.IsNull() {
		spec := state.spec(ctx, &resp.Diagnostics)
		current = &spec
		if rq.InWindow { // the apply decides again from the cloud, which knows what still waits
			m.Scheduled, m.ScheduledAt = types.ListUnknown(types.StringType), types.StringUnknown()
		}
	} else if isKnown(m.InstanceID) {
		if problems, _, err := r.startedVerdict(lookupCtx, rq.InstanceID, req.Config); err == nil {
			addProblems(&resp.Diagnostics, problems)
		}
	}
	decided := rdsservice.PlanProxy(rq, current)
	decided.Problems = append(decided.Problems, rdsservice.ProxyStartSpecChanges(&r.data.plans, rq, current)...) // proxy_spec_change.go
	if addProblems(&resp.Diagnostics, decided.Problems); resp.Diagnostics.HasError() {
		return
	}
	if decided.Waiting == nil {
		warnProxyWaiting(ctx, r.data, state.InstanceID.ValueString(), state.proxyEndpointFields, &resp.Diagnostics)
	}
	m.planDistribution(rq.Desired.Standard)
	if m.VSwitchID.IsUnknown() && rq.Desired.VSwitchID != "" {
		m.VSwitchID = types.StringValue(rq.Desired.VSwitchID)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, m)...)
}

// Create records the create in the journal (X12: adopting the proxy a killed apply started) and
// applies as an update does.
func (r *dbProxyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var instance types.String
	if resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("instance_id"), &instance)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	claim := r.claimProxyCreate(ctx, instance.ValueString(), req.Config, &resp.Diagnostics)
	if claim == nil {
		return
	}
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
	claim.done(!resp.Diagnostics.HasError())
}

func (r *dbProxyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan.Get, &resp.State, &resp.Diagnostics)
}

// apply decides again from the proxy as the cloud has it, runs the program with the one executor
// and stores the proxy as read back.
func (r *dbProxyResource) apply(ctx context.Context, getPlan func(context.Context, any) diag.Diagnostics, out stateSetter, diags *diag.Diagnostics) {
	var plan dbProxyModel
	if diags.Append(getPlan(ctx, &plan)...); diags.HasError() || !requireConfigured(r.data, diags) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	id := plan.InstanceID.ValueString()
	current, _, _, err := r.readCloud(ctx, id)
	if err != nil {
		diags.AddError("Error reading the RDS database proxy", err.Error())
		return
	}
	decided := rdsservice.PlanProxy(r.request(ctx, plan, diags), current)
	if addProblems(diags, decided.Problems); diags.HasError() {
		return
	}
	if result := rdsservice.ExecuteProxy(ctx, r.data.API, r.data.Waiter, decided); result.Err != nil {
		diags.AddError("Error applying the RDS database proxy", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
		return
	}
	spec, px, ep, err := r.readCloud(ctx, id)
	if err != nil || spec == nil {
		diags.AddError("Error reading the RDS database proxy", fmt.Sprintf("after the apply, the proxy of %s reads back off or fails: %v", id, err))
		return
	}
	plan.setWaiting(nil, diags)
	if w := decided.Waiting; w != nil && rdsservice.ProxyStillWaits(w.At, r.data.cloudNow()) {
		*spec = rdsservice.ProxyAsWaiting(*spec, decided.Request.Desired)
		plan.setWaiting(w, diags)
	}
	plan.fill(*spec, px, ep, diags)
	diags.Append(out.Set(ctx, plan)...)
}

// readCloud reads the proxy and its default endpoint; nil when the proxy is off.
func (r *dbProxyResource) readCloud(ctx context.Context, id string) (*rdsservice.ProxySpec, *rdsapi.DBProxy, *rdsapi.DBProxyEndpoint, error) {
	px, err := r.data.API.DescribeDBProxy(ctx, id)
	if err != nil || !px.Started {
		return nil, px, nil, err
	}
	ep, err := r.data.API.DescribeDBProxyEndpoint(ctx, id, "")
	if err != nil {
		return nil, px, nil, err
	}
	ssl, err := r.data.API.GetDbProxyInstanceSsl(ctx, id)
	if err != nil {
		return nil, px, nil, err
	}
	spec := rdsservice.ProxyFromAPI(id, px, ep, ssl)
	return &spec, px, ep, nil
}

func (r *dbProxyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m dbProxyModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	if m.InstanceID.IsNull() {
		m.InstanceID = m.ID // an import sets only the id
	}
	spec, px, ep, err := r.readCloud(ctx, m.InstanceID.ValueString())
	switch {
	case rdsapi.IsNotFound(err) || (err == nil && spec == nil):
		resp.Diagnostics.AddWarning("RDS database proxy no longer exists", fmt.Sprintf("The database proxy of %s is off or its instance is gone; it is removed from state.", m.InstanceID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Error reading the RDS database proxy", err.Error())
		return
	}
	r.data.Journal.Recorded(rdsservice.ProxyJournalID(m.InstanceID.ValueString())) // in a state: no longer an interrupted create's
	if w := m.waiting(ctx, &resp.Diagnostics); w != nil && rdsservice.ProxyStillWaits(w.At, r.data.cloudNow()) {
		*spec = rdsservice.ProxyAsWaiting(*spec, m.spec(ctx, &resp.Diagnostics))
	} else {
		m.setWaiting(nil, &resp.Diagnostics)
	}
	m.fill(*spec, px, ep, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Delete shuts the proxy down and waits until it reads back off.
func (r *dbProxyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m dbProxyModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	decided := rdsservice.PlanProxy(rdsservice.ProxyRequest{InstanceID: m.InstanceID.ValueString(), Delete: true}, nil)
	if result := rdsservice.ExecuteProxy(ctx, r.data.API, r.data.Waiter, decided); result.Err != nil {
		resp.Diagnostics.AddError("Error shutting down the RDS database proxy", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
	}
}

// ImportState imports by the primary instance's id; the read fills the rest.
func (r *dbProxyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), req.ID)...)
}
