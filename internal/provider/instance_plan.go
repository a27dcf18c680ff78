package provider

// What both instance resources share at plan time: the preamble of ModifyPlan, the instance as the
// planner sees it and the class catalogue's facts.

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// ---- shared by rds_instance and rds_readonly_instance ----

// Default operation budgets of both resources (alicloud's defaults for RDS); the timeouts
// attribute overrides them.
const (
	defaultCreateTimeout = 50 * time.Minute
	defaultUpdateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 30 * time.Minute
	// planLookupTimeout bounds the API reads ModifyPlan makes (primary, read-only instances,
	// restore source, class catalogue), so a slow API cannot hang a plan.
	planLookupTimeout = 2 * time.Minute
)

// planPreamble is the start of both resources' ModifyPlan: a destroy's plan is shown, timeouts must be positive, and an unchanged or unconfigured plan stops here. It
// returns the context for the plan's API reads (bounded by planLookupTimeout) and whether ModifyPlan
// goes on; an unchanged plan this run must decide all the same (rdsservice.Ledger.Replans) goes on.
func planPreamble(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (context.Context, context.CancelFunc, bool) {
	done := func() (context.Context, context.CancelFunc, bool) { return ctx, func() {}, false }
	if req.Plan.Raw.IsNull() {
		planDestroy(ctx, data, req.State, &resp.Diagnostics) // instance_destroy.go
		return done()
	}
	// Problems found before (tags, the configuration's own checks) do not stop the planner: every
	// refusal of the plan is reported at once (issue 41 §2.12).
	var budgets timeouts.Value
	read := req.Config.GetAttribute(ctx, path.Root("timeouts"), &budgets)
	resp.Diagnostics.Append(read...)
	if read.HasError() {
		return done()
	}
	addProblems(&resp.Diagnostics, rdsservice.CheckTimeouts(serviceValue(ctx, budgets.Object)))
	if data == nil {
		// The provider is not configured yet (unknown provider configuration); apply checks again.
		return done()
	}
	if u, ok := unchangedOf(req.Plan.Raw, req.State.Raw); ok && !data.plans.Replans(u) {
		// Nothing changes: nothing to predict, and no API call. The refreshed state still tells of
		// an instance that is being deleted or is locked, and of a task waiting for its window.
		out := rdsservice.PlanUnchangedInstance(&data.plans, u)
		addProblems(&resp.Diagnostics, out.StateProblems)
		if out.Pending != nil {
			data.decided(*out.Pending)
			addProblems(&resp.Diagnostics, out.Pending.Problems)
		}
		return done()
	}
	lookupCtx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	return lookupCtx, cancel, true
}

// unchangedOf is an unchanged instance's plan as rdsservice reads it; false when the planned values
// change something, or create the instance.
func unchangedOf(plan, state tftypes.Value) (rdsservice.UnchangedInstance, bool) {
	if state.IsNull() || !plan.Equal(state) {
		return rdsservice.UnchangedInstance{}, false
	}
	return rdsservice.UnchangedOf(attrValueOf(state)), true
}

// refuseImportOfDeleting stops the import of an instance that is being deleted (one read; Read
// reports the other failures, and a missing instance, as it does for every refresh).
func refuseImportOfDeleting(ctx context.Context, data *ProviderData, id string, diags *diag.Diagnostics) {
	if !requireConfigured(data, diags) {
		return
	}
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, id)
	if err == nil && attr.DBInstanceStatus == rdsservice.StatusDeleting {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleImportDeleting, id, id)})
	}
}

// instanceView is the one conversion of a DescribeDBInstanceAttribute answer into attribute values,
// shared by both resources and both data sources.
type instanceView struct {
	ID, MasterInstanceID, Engine, EngineVersion, InstanceType, StorageType, Category, DBInstanceType types.String
	ZoneID, VpcID, VSwitchID, InstanceName, Status, ConnectionString, CreationTime, Architecture     types.String
	LockMode                                                                                         types.String
	Storage, Port                                                                                    types.Int64
	DeletionProtection, AtomicWrite16K, AtomicWrite16KSupported, BufferPoolExtension                 types.Bool
	SecurityIPs                                                                                      types.Set
	ReadOnlyInstanceIDs                                                                              types.List
}

func viewOf(a *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) instanceView {
	e, _ := rdsservice.ExistingFromAttribute(a) // creation_time is shown as the answer spells it
	return instanceView{
		ID:                      types.StringValue(e.ID),
		MasterInstanceID:        types.StringValue(e.MasterID),
		Engine:                  types.StringValue(e.Engine),
		EngineVersion:           types.StringValue(e.EngineVersion),
		InstanceType:            types.StringValue(e.InstanceClass),
		StorageType:             types.StringValue(e.StorageType),
		Category:                types.StringValue(e.Category),
		Status:                  types.StringValue(e.Status),
		LockMode:                types.StringValue(e.LockMode),
		Architecture:            types.StringValue(e.Architecture),
		Storage:                 types.Int64Value(e.Storage),
		DeletionProtection:      types.BoolValue(e.DeletionProtection),
		BufferPoolExtension:     types.BoolValue(e.BufferPoolExtension),
		AtomicWrite16K:          types.BoolValue(e.Enabled),
		AtomicWrite16KSupported: types.BoolValue(e.Supported),
		DBInstanceType:          types.StringValue(a.DBInstanceType),
		ZoneID:                  types.StringValue(a.ZoneID),
		VpcID:                   types.StringValue(a.VpcID),
		VSwitchID:               types.StringValue(a.VSwitchID),
		InstanceName:            types.StringValue(a.DBInstanceDescription),
		ConnectionString:        types.StringValue(a.ConnectionString),
		CreationTime:            types.StringValue(a.CreationTime),
		Port:                    attrPort(a, diags),
		SecurityIPs:             stringSetValue(rdsservice.SplitList(a.SecurityIPList), diags),
		ReadOnlyInstanceIDs:     stringListValue(a.ReadOnlyDBInstanceIDs, diags),
	}
}
