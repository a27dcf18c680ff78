package provider

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A creation that stops after the instance is usable (issue 19). Terraform marks an object tainted
// whenever Create returns an error (core's maybeTainted), so every later apply would replace it: for
// a clone, one more billed instance per apply. Core also refuses a successful Create whose state
// differs from a value the plan knew ("Provider produced inconsistent result after apply"). So:
//
//   - an instance that never reached Running is recorded and the error returned (tainted): it may
//     not be usable at all;
//   - once it has reached Running, a later step that fails (parameters, a clone's 16K atomic write,
//     Buffer Pool Extension, name, allow-list, deletion protection, the maintenance window) ends the
//     Create successfully with a warning naming the instance, the step, the error and what was not
//     applied. The state holds the planned values where the plan knew them (core's check), the read
//     values elsewhere; private state names the step and what was not applied. The next refresh
//     reads the cloud, so the next plan shows what remains (or refuses it, saying why) and its
//     apply completes it, on the same instance.

// createIncompleteKey is the private-state key of an instance whose creation stopped early.
const createIncompleteKey = "create_incomplete"

// afterStopBudget bounds the reads that describe an instance after its Create stopped: they run
// after the create's deadline or an interruption, so they have their own short budget.
const afterStopBudget = time.Minute

// createIncomplete is what private state keeps of a creation that stopped after the instance was
// Running (rdsservice reads it in the plans that follow).
type createIncomplete = rdsservice.CreateIncomplete

// Settings a Create applies after the instance exists; the attributes a stopped creation may
// leave out.
var (
	instanceCreateSettings = []string{"instance_type", "storage", "storage_type", "instance_name", "security_ips",
		"deletion_protection", "atomic_write_16k", "buffer_pool_extension", "maintenance_window", "parameters", "parameters_pending"}
	readonlyCreateSettings = []string{"instance_type", "storage", "storage_type", "instance_name",
		"deletion_protection", "atomic_write_16k", "maintenance_window", "parameters", "parameters_pending"}
)

// afterStop is a context for reading the instance once more after ctx ended (deadline or Ctrl-C).
func afterStop(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), afterStopBudget)
}

// readAgain reads the instance once more after its creation stopped; fresh says whether the read
// worked (when it did not, last stays).
func readAgain(ctx context.Context, data *ProviderData, id string, last *rdsapi.DBInstanceAttribute) (_ *rdsapi.DBInstanceAttribute, fresh bool) {
	again, err := data.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return last, false
	}
	return again, true
}

// createStop is where a create stopped after its instance was usable: the step, its error, and
// the instance as last read.
type createStop struct {
	last *rdsapi.DBInstanceAttribute
	step string
	err  error
}

// readBack is instance id as read again after a create stopped: seen (the model), fresh when it
// was read in full, and the settings the create applies.
type readBack[M any] struct {
	id       string
	seen     M
	fresh    bool
	settings []string
}

// recordIncompleteCreate ends a Create whose instance is usable but whose step failed (stop): the
// state is planned where the plan knew a value and back.seen elsewhere; private state and a warning
// say what was not applied. When back was read in full (fresh) and has every planned setting, the
// step's failure changed nothing (say, a wait that ran out just before the instance got there):
// the create simply succeeded.
func recordIncompleteCreate[M any](ctx context.Context, planned tfsdk.Plan, resp *resource.CreateResponse, back readBack[M], stop createStop) {
	id, seen, step, err := back.id, back.seen, stop.step, stop.err
	setAppliedState(ctx, planned, &seen, &resp.State, &resp.Diagnostics)
	var state M
	resp.Diagnostics.Append(resp.State.Get(ctx, &state)...)
	missing := differing(state, seen, back.settings)
	if back.fresh && len(missing) == 0 {
		tflog.Info(ctx, "a create step failed, but the instance has every planned setting", map[string]any{
			"id": id, "step": step, "error": err.Error()})
		return
	}
	note := createIncomplete{Step: step, Error: rdsservice.OperationError(ctx, err), Attributes: missing}
	if resp.Private != nil { // nil only when Create is called outside the framework
		raw, _ := json.Marshal(note)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, createIncompleteKey, raw)...)
	}
	what := "which settings are missing could not be read; the next plan shows them"
	if len(missing) > 0 {
		what = "not applied yet: " + strings.Join(missing, ", ")
	}
	p := rdsservice.Raise(rdsservice.RuleCreateIncomplete, id, id, upperFirst(step), note.Error, what)
	resp.Diagnostics.AddWarning(p.Summary, p.Detail)
}

// warnUnrefreshed warns, at the start of a plan, when the state still holds the planned values of
// a creation that stopped early (rdsservice.UnrefreshedCreate).
func warnUnrefreshed(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	id := attrValueOf(req.State.Raw).Get("id").String()
	addWarnings(diags, rdsservice.UnrefreshedCreate(id, privateKey(ctx, req.Private, createIncompleteKey)))
}

// warnIncompleteCreate names, in the plan, the changes that complete a creation that stopped
// early (rdsservice.CompletingCreate).
func warnIncompleteCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	raw := privateKey(ctx, req.Private, createIncompleteKey)
	if raw == nil {
		return
	}
	state := attrValueOf(req.State.Raw)
	addWarnings(&resp.Diagnostics, rdsservice.CompletingCreate(state.Get("id").String(), raw, attrValueOf(resp.Plan.Raw), state))
}

// addWarnings shows problems as warnings about the resource, not one of its attributes.
func addWarnings(diags *diag.Diagnostics, problems []rdsservice.Problem) {
	for _, p := range problems {
		diags.AddWarning(p.Summary, p.Detail)
	}
}

// noteRefreshed records, on refresh, that the state now shows the instance's own values.
func noteRefreshed(ctx context.Context, private interface {
	privateGetter
	privateSetter
}, diags *diag.Diagnostics) {
	note := incompleteCreate(ctx, private)
	if note == nil || note.Refreshed {
		return
	}
	note.Refreshed = true
	raw, _ := json.Marshal(note)
	diags.Append(private.SetKey(ctx, createIncompleteKey, raw)...)
}

// clearIncompleteCreate forgets a stopped creation once an update has brought the instance to its
// plan; it writes nothing when there is nothing to forget.
func clearIncompleteCreate(ctx context.Context, private interface {
	privateGetter
	privateSetter
}, diags *diag.Diagnostics) {
	if incompleteCreate(ctx, private) != nil {
		diags.Append(private.SetKey(ctx, createIncompleteKey, nil)...)
	}
}

func incompleteCreate(ctx context.Context, private privateGetter) *createIncomplete {
	return rdsservice.CreateIncompleteOf(privateKey(ctx, private, createIncompleteKey))
}

// privateKey is key's value in private state; nil when it has none, or cannot be read.
func privateKey(ctx context.Context, private privateGetter, key string) []byte {
	if private == nil {
		return nil
	}
	raw, d := private.GetKey(ctx, key)
	if d.HasError() || len(raw) == 0 {
		return nil
	}
	return raw
}

// differing lists the attributes among names (by tfsdk tag) whose values in a and b differ, in the
// model's order.
func differing[M any](a, b M, names []string) []string {
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := range av.NumField() {
		tag := av.Type().Field(i).Tag.Get("tfsdk")
		if !slices.Contains(names, tag) {
			continue
		}
		x, okX := av.Field(i).Interface().(attr.Value)
		y, okY := bv.Field(i).Interface().(attr.Value)
		if okX && okY && !x.Equal(y) {
			out = append(out, tag)
		}
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// incompleteCreate records an rds_instance whose creation stopped after it was Running: the
// instance is read once more (its own budget) for the values the plan did not know.
func (r *instanceResource) incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan instanceModel, stop createStop) {
	id := plan.ID.ValueString()
	rctx, cancel := afterStop(ctx)
	defer cancel()
	last, fresh := readAgain(rctx, r.data, id, stop.last)
	// What cannot be read now keeps its planned value; the next refresh reads it.
	var ignored diag.Diagnostics
	seen := plan
	if last != nil {
		seen = unknownSettings(plan) // read, never taken from the plan
		r.writeState(last, &seen, &ignored)
		if resp.Private != nil { // nil only when Create is called outside the framework
			var configuredIPs types.Set
			ignored.Append(req.Config.GetAttribute(ctx, path.Root("security_ips"), &configuredIPs)...)
			r.settleSecurityIPs(rctx, configuredIPs, types.SetUnknown(types.StringType), &seen, resp.Private, &ignored)
		}
	}
	seen.Parameters, seen.ParametersPending = readParameters(rctx, r.data.API, id, plan.Parameters, &ignored)
	recordIncompleteCreate(ctx, req.Plan, resp, readBack[instanceModel]{id, seen.knownOrNull(), fresh && !ignored.HasError(), instanceCreateSettings}, stop)
}

// incompleteCreate records an rds_readonly_instance whose creation stopped after it was Running
// (see the rds_instance form).
func (r *readonlyInstanceResource) incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan readonlyInstanceModel,
	stop createStop) {
	id := plan.ID.ValueString()
	rctx, cancel := afterStop(ctx)
	defer cancel()
	last, fresh := readAgain(rctx, r.data, id, stop.last)
	var ignored diag.Diagnostics
	seen := plan
	if last != nil {
		seen = readonlyFromAttribute(last, &plan, &ignored)
	}
	seen.Parameters, seen.ParametersPending = readParameters(rctx, r.data.API, id, plan.Parameters, &ignored)
	roNullUnknowns(&seen)
	recordIncompleteCreate(ctx, req.Plan, resp, readBack[readonlyInstanceModel]{id, seen, fresh && !ignored.HasError(), readonlyCreateSettings}, stop)
}

// unknownSettings is m with the settings a Create applies unknown, so that reading the instance
// into it shows the instance's values, whatever the reading keeps of known ones.
func unknownSettings(m instanceModel) instanceModel {
	for _, v := range []*types.String{&m.InstanceType, &m.StorageType, &m.InstanceName, &m.MaintenanceWindow} {
		*v = types.StringUnknown()
	}
	for _, v := range []*types.Bool{&m.DeletionProtection, &m.AtomicWrite16K, &m.BufferPoolExtension} {
		*v = types.BoolUnknown()
	}
	m.Storage = types.Int64Unknown()
	m.SecurityIPs = types.SetUnknown(types.StringType)
	return m
}
