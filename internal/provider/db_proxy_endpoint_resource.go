package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_db_proxy_endpoint: a further endpoint of a primary's proxy, with the default endpoint's
// settings (proxyEndpointFields, the same schema and conversions as rds_db_proxy) and the same
// rules and executor (rdsservice/proxy_endpoint.go). Its description finds the endpoint a create
// made (X11), and the create journal adopts one a killed apply left.

const proxyEndpointKind = "rds_db_proxy_endpoint"

// NewDBProxyEndpointResource returns the rds_db_proxy_endpoint resource.
func NewDBProxyEndpointResource() resource.Resource {
	return &dbProxyEndpointResource{resourceBase{typeName: proxyEndpointKind}}
}

type dbProxyEndpointResource struct {
	resourceBase
}

// dbProxyEndpointModel is rds_db_proxy_endpoint's state; id is "<instance id>:<endpoint id>".
type dbProxyEndpointModel struct {
	ID          types.String `tfsdk:"id"`
	InstanceID  types.String `tfsdk:"instance_id"`
	EndpointID  types.String `tfsdk:"endpoint_id"`
	Description types.String `tfsdk:"description"`
	proxyEndpointFields
	// The endpoint's own address (db_proxy_endpoint_address.go).
	Prefix                types.String `tfsdk:"connection_string_prefix"`
	PreventEndpointChange types.Bool   `tfsdk:"prevent_endpoint_change"`
}

func (r *dbProxyEndpointResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	attrs := proxyEndpointAttributes("this endpoint")
	attrs["id"] = schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "`<instance_id>:<endpoint_id>`."}
	attrs["instance_id"] = schema.StringAttribute{Required: true, PlanModifiers: requiresReplace(proxyEndpointKind, rdsservice.AttrInstanceID),
		MarkdownDescription: "The primary instance whose database proxy (`rds_db_proxy`) gets the endpoint. Changing it replaces the endpoint."}
	attrs["endpoint_id"] = schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "The endpoint's id (`DBProxyEndpointId`)."}
	attrs["description"] = schema.StringAttribute{Required: true, Validators: []validator.String{stringvalidator.LengthBetween(1, 64)},
		MarkdownDescription: "The endpoint's description (`DbEndpointAliases`), unique among the proxy's endpoints: it finds the endpoint a create made."}
	addProxyAddressAttributes(attrs)
	resp.Schema = schema.Schema{Attributes: attrs,
		MarkdownDescription: "A further endpoint of a primary's database proxy, for example a read-only endpoint for analytics, with the " +
			"settings of `rds_db_proxy`'s default endpoint. Every attribute is read back (`DescribeDBProxyEndpoint`); every change is sent " +
			"with `EffectiveTime`. Destroying it deletes the endpoint."}
}

// request is the model as rdsservice reads it, with the primary as the cloud has it and the
// endpoint's address now (nil for a new endpoint).
func (r *dbProxyEndpointResource) request(ctx context.Context, m dbProxyEndpointModel, address *rdsservice.NetEndpoint, diags *diag.Diagnostics) rdsservice.ProxyRequest {
	rq := rdsservice.ProxyRequest{InstanceID: m.InstanceID.ValueString(), Desired: m.spec(ctx, diags), UnknownWeightKeys: m.Weights.IsUnknown(),
		PreventRestart: m.PreventRestart.ValueBool(), InWindow: m.ApplyChanges.ValueString() == rdsservice.ApplyRestartsInWindow, Now: r.data.cloudNow(),
		Endpoint: &rdsservice.ProxyEndpointTarget{ID: m.EndpointID.ValueString(), Description: m.Description.ValueString(), Address: m.address(address)}}
	rq.Desired.Description = rq.Endpoint.Description
	if isKnown(m.InstanceID) {
		readProxyPrimary(ctx, r.data, &rq)
		r.readPrefixHolders(ctx, &rq) // db_proxy_endpoint_address.go
	}
	return rq
}

// ModifyPlan checks the endpoint (every refusal at once, nothing sent), names the endpoint of its
// description a new one would meet (X11), and plans read_only_distribution.
func (r *dbProxyEndpointResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var state, m dbProxyEndpointModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		warnProxyWaiting(ctx, r.data, state.InstanceID.ValueString(), state.proxyEndpointFields, &resp.Diagnostics)
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	rq := r.request(lookupCtx, m, state.netEndpoint(), &resp.Diagnostics)
	var current *rdsservice.ProxySpec
	m.setWaiting(nil, &resp.Diagnostics)
	if !req.State.Raw.IsNull() {
		spec := state.spec(ctx, &resp.Diagnostics)
		spec.Description, current = state.Description.ValueString(), &spec
		if rq.InWindow {
			m.Scheduled, m.ScheduledAt = types.ListUnknown(types.StringType), types.StringUnknown()
		}
	} else if isKnown(m.InstanceID) && isKnown(m.Description) {
		if _, problems, err := r.descriptionVerdict(lookupCtx, rq, req.Config); err == nil {
			addProblems(&resp.Diagnostics, problems)
		}
	}
	decided := rdsservice.PlanProxyEndpoint(rq, current)
	if addProblems(&resp.Diagnostics, decided.Problems); resp.Diagnostics.HasError() {
		return
	}
	if decided.Waiting == nil {
		warnProxyWaiting(ctx, r.data, state.InstanceID.ValueString(), state.proxyEndpointFields, &resp.Diagnostics)
	}
	m.planDistribution(rq.Desired.Standard)
	if current != nil {
		m.planAddress(rq.Endpoint.Address)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, m)...)
}

// descriptionVerdict is X11 for a new endpoint: the endpoint of its description that an
// interrupted create of this configuration made (adopt), with the journal's entries, and the
// problems (the adoption, or the refusal).
func (r *dbProxyEndpointResource) descriptionVerdict(ctx context.Context, rq rdsservice.ProxyRequest, config tfsdk.Config) (*endpointAdoption, []rdsservice.Problem, error) {
	px, err := r.data.API.DescribeDBProxy(ctx, rq.InstanceID)
	if err != nil || !px.Started {
		return &endpointAdoption{}, nil, err
	}
	v := &endpointAdoption{key: configKey(proxyEndpointKind, config)}
	taken := rdsservice.ProxyEndpointDescribed(px, rq.Endpoint.Description, "")
	if r.data.Journal != nil && v.key != "" {
		v.resolved = r.data.Journal.Interrupted(proxyEndpointKind, v.key)
	}
	adopt := rdsservice.AdoptableProxyEndpoint(taken, v.resolved, time.Now())
	if adopt != nil {
		v.id = taken.EndpointID
	}
	return v, rdsservice.CheckProxyEndpointDescription(rq.InstanceID, rq.Endpoint.Description, taken, adopt, proxyEndpointKind, r.data.Journal.Dir()), nil
}

// endpointAdoption is what the journal says of a new endpoint: the one to adopt (id, "" for
// none), the configuration's key and the interrupted entries a create resolves.
type endpointAdoption struct {
	id, key  string
	resolved []rdsservice.JournalEntry
}

// Create records the create in the journal, adopts the endpoint a killed create of this
// configuration made or creates one, and stores it as read back.
func (r *dbProxyEndpointResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan dbProxyEndpointModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	rq := r.request(ctx, plan, nil, &resp.Diagnostics)
	v, problems, err := r.descriptionVerdict(ctx, rq, req.Config)
	if err != nil {
		resp.Diagnostics.AddError("Error reading the RDS database proxy", fmt.Sprintf("DescribeDBProxy %s: %v; nothing was created. Apply again.", rq.InstanceID, err))
		return
	}
	if addProblems(&resp.Diagnostics, problems); resp.Diagnostics.HasError() {
		return
	}
	claim := beginClaim(r.data, proxyEndpointKind, v.key, rdsservice.OpCreateProxyEndpoint, v.resolved, &resp.Diagnostics)
	if claim == nil {
		return
	}
	plan.EndpointID = types.StringValue(v.id)
	if v.id != "" {
		claim.accepted(v.id)
	}
	recorded := r.apply(ctx, &plan, func(id string) { claim.accepted(id) }, &resp.Diagnostics)
	if recorded {
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	}
	claim.done(recorded && !resp.Diagnostics.HasError())
}

func (r *dbProxyEndpointResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan dbProxyEndpointModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	if r.apply(ctx, &plan, func(string) {}, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	}
}

// apply decides again from the endpoint as the cloud has it (none while plan's endpoint_id is
// ""), runs the program, finds a created endpoint by its description (found is told its id) and
// fills plan as read back; false when there is nothing to store.
func (r *dbProxyEndpointResource) apply(ctx context.Context, plan *dbProxyEndpointModel, found func(string), diags *diag.Diagnostics) bool {
	id := plan.InstanceID.ValueString()
	current, ep, err := r.readCloud(ctx, id, plan.EndpointID.ValueString())
	if err != nil {
		diags.AddError("Error reading the RDS database proxy endpoint", err.Error())
		return false
	}
	var address *rdsservice.NetEndpoint
	if ep != nil {
		now := rdsservice.ProxyNetEndpoint(ep)
		address = &now
	}
	decided := rdsservice.PlanProxyEndpoint(r.request(ctx, *plan, address, diags), current)
	if addProblems(diags, decided.Problems); diags.HasError() {
		return false
	}
	if result := rdsservice.ExecuteProxy(ctx, r.data.API, r.data.Waiter, decided); result.Err != nil {
		diags.AddError("Error applying the RDS database proxy endpoint", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
		return false
	}
	if current == nil {
		px, err := r.data.API.DescribeDBProxy(ctx, id)
		taken := (*rdsapi.DBProxyAddress)(nil)
		if err == nil {
			taken = rdsservice.ProxyEndpointDescribed(px, plan.Description.ValueString(), "")
		}
		if taken == nil {
			diags.AddError("Error reading the RDS database proxy endpoint", fmt.Sprintf("after its create, no endpoint of the proxy of %s is described %q: %v", id, plan.Description.ValueString(), err))
			return false
		}
		plan.EndpointID = types.StringValue(taken.EndpointID)
		found(taken.EndpointID)
	}
	return r.readInto(ctx, plan, decided.Waiting, diags)
}

// readInto fills m from the endpoint as read back, keeping the target of a change that waits.
func (r *dbProxyEndpointResource) readInto(ctx context.Context, m *dbProxyEndpointModel, w *rdsservice.ProxyWaiting, diags *diag.Diagnostics) bool {
	spec, ep, err := r.readCloud(ctx, m.InstanceID.ValueString(), m.EndpointID.ValueString())
	if err != nil || spec == nil {
		diags.AddError("Error reading the RDS database proxy endpoint", fmt.Sprintf("the endpoint %s of the proxy of %s reads back gone or fails: %v", m.EndpointID.ValueString(), m.InstanceID.ValueString(), err))
		return false
	}
	m.setWaiting(nil, diags)
	if w != nil && rdsservice.ProxyStillWaits(w.At, r.data.cloudNow()) {
		*spec = rdsservice.ProxyAsWaiting(*spec, m.spec(ctx, diags))
		m.setWaiting(w, diags)
	}
	m.ID = types.StringValue(m.InstanceID.ValueString() + ":" + m.EndpointID.ValueString())
	m.Description = types.StringValue(spec.Description)
	m.fill(*spec, ep, diags)
	m.fillAddress(ep)
	return true
}

// readCloud reads the endpoint; nil when endpointID is "", the proxy is off or has no such endpoint.
func (r *dbProxyEndpointResource) readCloud(ctx context.Context, instanceID, endpointID string) (*rdsservice.ProxySpec, *rdsapi.DBProxyEndpoint, error) {
	if endpointID == "" {
		return nil, nil, nil
	}
	px, err := r.data.API.DescribeDBProxy(ctx, instanceID)
	if err != nil || !px.Started {
		return nil, nil, err
	}
	listed := false
	for _, a := range px.Endpoints {
		listed = listed || a.EndpointID == endpointID
	}
	if !listed {
		return nil, nil, nil
	}
	ep, err := r.data.API.DescribeDBProxyEndpoint(ctx, instanceID, endpointID)
	if err != nil {
		return nil, nil, err
	}
	spec := rdsservice.ProxyEndpointFromAPI(instanceID, ep)
	return &spec, ep, nil
}

func (r *dbProxyEndpointResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m dbProxyEndpointModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	if m.InstanceID.IsNull() { // an import sets only the id
		instance, endpoint, _ := strings.Cut(m.ID.ValueString(), ":")
		m.InstanceID, m.EndpointID = types.StringValue(instance), types.StringValue(endpoint)
	}
	spec, _, err := r.readCloud(ctx, m.InstanceID.ValueString(), m.EndpointID.ValueString())
	switch {
	case rdsapi.IsNotFound(err) || (err == nil && spec == nil):
		resp.Diagnostics.AddWarning("RDS database proxy endpoint no longer exists", fmt.Sprintf("The endpoint %s of the database proxy of %s is gone; it is removed from state.", m.EndpointID.ValueString(), m.InstanceID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Error reading the RDS database proxy endpoint", err.Error())
		return
	}
	r.data.Journal.Recorded(m.EndpointID.ValueString()) // in a state: no longer an interrupted create's
	if r.readInto(ctx, &m, m.waiting(ctx, &resp.Diagnostics), &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}
}

// Delete deletes the endpoint.
func (r *dbProxyEndpointResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m dbProxyEndpointModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &m)...); resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	decided := rdsservice.PlanProxyEndpoint(rdsservice.ProxyRequest{InstanceID: m.InstanceID.ValueString(), Delete: true,
		Endpoint: &rdsservice.ProxyEndpointTarget{ID: m.EndpointID.ValueString()}}, nil)
	if result := rdsservice.ExecuteProxy(ctx, r.data.API, r.data.Waiter, decided); result.Err != nil {
		resp.Diagnostics.AddError("Error deleting the RDS database proxy endpoint", fmt.Sprintf("%s: %s", result.Step, rdsservice.OperationError(ctx, result.Err)))
	}
}

// ImportState imports by "<instance id>:<endpoint id>"; the read fills the rest.
func (r *dbProxyEndpointResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	instance, endpoint, ok := strings.Cut(req.ID, ":")
	if !ok || instance == "" || endpoint == "" {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("%q: import an rds_db_proxy_endpoint by <instance id>:<endpoint id>, e.g. rm-1:ta9um4.", req.ID))
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), instance)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("endpoint_id"), endpoint)...)
}
