package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Restarts in the maintenance window: apply_restarts = "in_maintenance_window" sends the update's
// spec order with EffectiveTime=MaintainTime and returns at once. Until the window the state keeps
// the requested values (so plans show no diff) and scheduled_change says what is pending; the cloud's
// task centre (DescribeHistoryTasks) says whether it happened. The instance's real spec while a change
// is pending is kept in private state, so that a later plan compares the configuration with it.

// scheduledFromKey is the private-state key of the instance's spec before the pending change.
const scheduledFromKey = "scheduled_from"

// maintenanceAttributes are the schema of maintenance_window, apply_restarts and scheduled_change.
func maintenanceAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"maintenance_window": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The daily maintenance window in UTC, `HH:mmZ-HH:mmZ` (API `MaintainTime`), e.g. `02:00Z-03:00Z`; it may " +
				"cross midnight. Changing it restarts nothing. When unset, the instance keeps the cloud's (new instances get `18:00Z-22:00Z`).",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"apply_restarts": schema.StringAttribute{
			Optional: true,
			Computed: true,
			Default:  stringdefault.StaticString(rdsservice.ApplyRestartsImmediately),
			MarkdownDescription: "How an update that restarts the instance (`atomic_write_16k`, `instance_type`, `storage_type`, " +
				"`buffer_pool_extension`, a storage reduction) is submitted: `immediately` (default; the apply waits for the restart) or " +
				"`in_maintenance_window` (the cloud restarts the instance in its next `maintenance_window`; the apply returns at once). " +
				"The plan's warning says when; `prevent_restart` refuses a deferred restart too. While a change is pending, plans show no " +
				"diff and `scheduled_change` describes it; changing the configuration again before the window replaces the pending change " +
				"(still one restart), reverting it cancels it, and switching to `immediately` applies it now. A window that passes " +
				"without the change (the cloud failed or cancelled it) shows as drift in the next plan. Applies to rds_instance updates; " +
				"creation is never deferred.",
			Validators: []validator.String{stringvalidator.OneOf(rdsservice.ApplyRestartsImmediately, rdsservice.ApplyRestartsInWindow)},
		},
		"scheduled_change": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The change waiting for the maintenance window, or null: `changes` (what restarts the instance), `window`, `starts_at` (UTC, as the cloud scheduled it) and `task_id` (its task in the RDS task centre).",
			Attributes: map[string]schema.Attribute{
				"task_id":   schema.StringAttribute{Computed: true, MarkdownDescription: "Task id (DescribeHistoryTasks)."},
				"window":    schema.StringAttribute{Computed: true, MarkdownDescription: "The maintenance window it waits for."},
				"starts_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When the window starts, UTC."},
				"changes": schema.ListAttribute{Computed: true, ElementType: types.StringType,
					MarkdownDescription: "The changes that restart the instance in the window."},
			},
		},
	}
}

var scheduledChangeAttrTypes = map[string]attr.Type{
	"task_id": types.StringType, "window": types.StringType, "starts_at": types.StringType,
	"changes": types.ListType{ElemType: types.StringType},
}

type scheduledChangeModel struct {
	TaskID   types.String `tfsdk:"task_id"`
	Window   types.String `tfsdk:"window"`
	StartsAt types.String `tfsdk:"starts_at"`
	Changes  types.List   `tfsdk:"changes"`
}

// specValues is the part of an instance a spec order changes: what private state keeps of the
// instance while a change waits for its window.
type specValues struct {
	InstanceType        string `json:"instance_type"`
	Storage             int64  `json:"storage"`
	StorageType         string `json:"storage_type"`
	AtomicWrite         bool   `json:"atomic_write_16k"`
	AtomicWriteSupport  bool   `json:"atomic_write_16k_supported"`
	BufferPoolExtension bool   `json:"buffer_pool_extension"`
}

func specOf(m instanceModel) specValues {
	return specValues{InstanceType: m.InstanceType.ValueString(), Storage: m.Storage.ValueInt64(), StorageType: m.StorageType.ValueString(),
		AtomicWrite: m.AtomicWrite16K.ValueBool(), AtomicWriteSupport: m.AtomicWrite16KSupported.ValueBool(),
		BufferPoolExtension: m.BufferPoolExtension.ValueBool()}
}

// setSpec writes spec values into a model.
func (v specValues) setSpec(m *instanceModel) {
	m.InstanceType, m.Storage, m.StorageType = types.StringValue(v.InstanceType), types.Int64Value(v.Storage), types.StringValue(v.StorageType)
	m.AtomicWrite16K, m.AtomicWrite16KSupported = types.BoolValue(v.AtomicWrite), types.BoolValue(v.AtomicWriteSupport)
	m.BufferPoolExtension = types.BoolValue(v.BufferPoolExtension)
}

// privateGetter and privateSetter are the private-state halves of the framework's requests and responses.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// scheduledFrom is the instance's spec before its pending change, or nil when nothing is pending.
func scheduledFrom(ctx context.Context, private privateGetter, diags *diag.Diagnostics) *specValues {
	if private == nil {
		return nil
	}
	raw, d := private.GetKey(ctx, scheduledFromKey)
	diags.Append(d...)
	if len(raw) == 0 {
		return nil
	}
	var v specValues
	if err := json.Unmarshal(raw, &v); err != nil {
		diags.AddWarning("Ignoring unreadable private state", fmt.Sprintf("%s: %v", scheduledFromKey, err))
		return nil
	}
	return &v
}

func setScheduledFrom(ctx context.Context, private privateSetter, v *specValues, diags *diag.Diagnostics) {
	var raw []byte
	if v != nil {
		raw, _ = json.Marshal(v)
	}
	diags.Append(private.SetKey(ctx, scheduledFromKey, raw)...)
}

// pendingTask finds the instance's deferred spec change that is still to happen, or nil.
func pendingTask(ctx context.Context, data *ProviderData, id string) (*rdsapi.HistoryTask, error) {
	out, err := data.API.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{
		InstanceID: id, TaskType: rdsapi.TaskTypeModifySpec,
		Status: rdsapi.TaskStatusScheduled + "," + rdsapi.TaskStatusWaiting + "," + rdsapi.TaskStatusRunning,
	})
	if err != nil {
		return nil, err
	}
	tasks := out.Items
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].StartTime > tasks[j].StartTime })
	for i := range tasks {
		if tasks[i].InstanceID == id || tasks[i].InstanceID == "" {
			return &tasks[i], nil
		}
	}
	return nil, nil
}

// scheduledChangeValue is scheduled_change for a pending task.
func scheduledChangeValue(ctx context.Context, task *rdsapi.HistoryTask, window string, changes []string, diags *diag.Diagnostics) types.Object {
	if task == nil {
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	list, d := types.ListValueFrom(ctx, types.StringType, changes)
	diags.Append(d...)
	obj, d := types.ObjectValueFrom(ctx, scheduledChangeAttrTypes, scheduledChangeModel{
		TaskID: types.StringValue(task.TaskID), Window: types.StringValue(window),
		StartsAt: types.StringValue(task.StartTime), Changes: list,
	})
	diags.Append(d...)
	return obj
}

// scheduledChanges lists a pending change's changes (kept in state across refreshes).
func scheduledChanges(ctx context.Context, v types.Object, diags *diag.Diagnostics) (task string, changes []string) {
	if !isKnown(v) {
		return "", nil
	}
	var m scheduledChangeModel
	diags.Append(v.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	diags.Append(m.Changes.ElementsAs(ctx, &changes, false)...)
	return m.TaskID.ValueString(), changes
}

// setMaintenanceWindow sets a configured window the instance does not have yet, and returns the
// instance as it is afterwards. The change restarts nothing.
func (r *instanceResource) setMaintenanceWindow(ctx context.Context, id string, attr *rdsapi.DBInstanceAttribute, want types.String) (*rdsapi.DBInstanceAttribute, error) {
	if !isKnown(want) || attr == nil || attr.MaintainTime == want.ValueString() {
		return attr, nil
	}
	if err := r.data.Waiter.RetryBusy(ctx, func() error {
		return r.data.API.ModifyDBInstanceMaintainTime(ctx, id, want.ValueString())
	}); err != nil {
		return attr, err
	}
	return r.data.Waiter.WaitRunning(ctx, id)
}

// priorForPlan is the state the planner compares the configuration with: while a change waits for
// the window, the state holds the requested values and the instance still has its old ones.
func priorForPlan(state *instanceModel, from *specValues) *instanceModel {
	if state == nil || from == nil {
		return state
	}
	prior := *state
	from.setSpec(&prior)
	return &prior
}

// deferSpecChange sends the update's spec order for the maintenance window and records what is
// pending: scheduled_change in plan (the state to be) and the instance's current spec in private
// state. It does not wait: the restart happens in the window.
func (r *instanceResource) deferSpecChange(ctx context.Context, req *rdsapi.ModifyDBInstanceSpecRequest, before specValues,
	changes []string, plan *instanceModel, private privateSetter, diags *diag.Diagnostics) {
	req.EffectiveTime = rdsapi.EffectiveTimeMaintainTime
	if err := r.data.Waiter.RetryBusy(ctx, func() error {
		_, err := r.data.API.ModifyDBInstanceSpec(ctx, req)
		return err
	}); err != nil {
		diags.AddError("Error scheduling the RDS instance change", operationError(ctx, err))
		return
	}
	task, err := pendingTask(ctx, r.data, req.DBInstanceID)
	if err != nil {
		diags.AddError("Error reading the scheduled change", fmt.Sprintf("The change was scheduled for the maintenance window, "+
			"but DescribeHistoryTasks failed: %s. The next refresh reads it again.", operationError(ctx, err)))
		return
	}
	if task == nil { // the order changed nothing the cloud had to wait for
		plan.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
		setScheduledFrom(ctx, private, nil, diags)
		return
	}
	plan.ScheduledChange = scheduledChangeValue(ctx, task, plan.MaintenanceWindow.ValueString(), changes, diags)
	setScheduledFrom(ctx, private, &before, diags)
}

// refreshScheduled decides, on refresh, whether a change is still waiting for its window: then the
// state keeps the requested values (requested) and private state the instance's (seen, just read);
// otherwise scheduled_change is cleared and the state shows the instance as it is, so a change the
// window did not make shows as drift.
func (r *instanceResource) refreshScheduled(ctx context.Context, id string, requested instanceModel, seen *instanceModel,
	private privateSetter, diags *diag.Diagnostics) {
	taskID, changes := scheduledChanges(ctx, requested.ScheduledChange, diags)
	if taskID == "" {
		seen.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
		return
	}
	task, err := pendingTask(ctx, r.data, id)
	if err != nil {
		diags.AddError("Error reading the scheduled change", fmt.Sprintf("DescribeHistoryTasks for %s: %v", id, err))
		return
	}
	if task == nil || task.TaskID != taskID {
		seen.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
		setScheduledFrom(ctx, private, nil, diags)
		return
	}
	before := specOf(*seen)
	specOf(requested).setSpec(seen)
	seen.ScheduledChange = scheduledChangeValue(ctx, task, seen.MaintenanceWindow.ValueString(), changes, diags)
	setScheduledFrom(ctx, private, &before, diags)
}

// specRequest is the update's one ModifyDBInstanceSpec: the planned class and storage always (the
// cloud needs one of them), the other fields when the order changes them.
func (r *instanceResource) specRequest(id string, plan instanceModel, order rdsservice.SpecOrder) *rdsapi.ModifyDBInstanceSpecRequest {
	req := &rdsapi.ModifyDBInstanceSpecRequest{
		DBInstanceID: id, DBInstanceClass: plan.InstanceType.ValueString(), DBInstanceStorage: plan.Storage.ValueInt64(),
		PayType: rdsapi.PayTypePostpaid, EffectiveTime: rdsapi.EffectiveTimeImmediate,
	}
	if order.StorageType != nil {
		req.DBInstanceStorageType = *order.StorageType
	}
	if order.AtomicWrite != nil {
		req.OptimizedWrites = optimizedWrites(*order.AtomicWrite)
	}
	if order.BufferPoolExtension != nil {
		req.IoAccelerationEnabled = switchValue(*order.BufferPoolExtension)
	}
	return req
}

// restartReasons are the reasons the decision restarts the instance itself.
func restartReasons(dec rdsservice.Decision, id string) []string {
	for _, r := range dec.Restarts {
		if r.InstanceID == id {
			return r.Reasons
		}
	}
	if len(dec.Restarts) > 0 {
		return dec.Restarts[0].Reasons
	}
	return nil
}
