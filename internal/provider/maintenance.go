package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
				"Parameters that take effect only after a restart are deferred too (ModifyParameter `SwitchTimeMode=MaintainTime`): " +
				"`parameters_pending` shows them until the window, and with a deferred spec change they share its one restart. " +
				"The plan's warning says when; `prevent_restart` refuses a deferred restart too. While a change is pending, plans show no " +
				"diff and `scheduled_change` describes it; changing the configuration again before the window replaces a pending spec change " +
				"(still one restart), reverting it cancels it (a zone move too; a major or minor version upgrade cannot be withdrawn), a new " +
				"`maintenance_window` moves it there, and switching to `immediately` applies it now: the guide \"Changes waiting for the " +
				"maintenance window\" has what each later change does to each kind. A window that passes " +
				"without the change (the cloud failed or cancelled it) shows as drift in the next plan (for a parameter: the cloud " +
				"withdraws its waiting value). Switching to `immediately` alone also applies a parameter that waits for the window: " +
				"one restart now, which the plan announces (`parameters_pending` becomes empty). Growing cloud-disk storage is never " +
				"deferred: sent with a deferred change, it is applied at once, online, and only the rest waits. Applies to updates of " +
				"rds_instance and rds_readonly_instance (a read-only instance that follows its primary's toggle restarts with its " +
				"primary); creation is never deferred.",
			Validators: []validator.String{stringvalidator.OneOf(rdsservice.ApplyRestartsImmediately, rdsservice.ApplyRestartsInWindow)},
		},
		"scheduled_change": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "The change waiting for the maintenance window, or null: `changes` (what restarts the instance), `window`, `starts_at` (UTC, as the cloud scheduled it) and `task_id` (its task in the RDS task centre). " +
				"A spec change ordered outside Terraform (console, another tool) is found by the refresh and shown here too, with its target in the spec attributes: a configuration that keeps the instance's current spec cancels it. " +
				"Every plan names the restart a waiting change makes in the window, and `prevent_restart = true` refuses it.",
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

// specValues is the part of an instance a spec order changes (rdsservice.SpecValues).
type specValues = rdsservice.SpecValues

// specFields points at a model's attributes that a spec order changes, so that both instance
// resources share one deferral; BufferPoolExtension is nil where the resource has none.
type specFields struct {
	InstanceType, StorageType                            *types.String
	Storage                                              *types.Int64
	AtomicWrite, AtomicWriteSupport, BufferPoolExtension *types.Bool
	EngineVersion                                        *types.String
	Category                                             *types.String // rds_instance only
	InstructionSetArch                                   *types.String
}

func (m *instanceModel) specFields() specFields {
	return specFields{InstanceType: &m.InstanceType, StorageType: &m.StorageType, Storage: &m.Storage,
		AtomicWrite: &m.AtomicWrite16K, AtomicWriteSupport: &m.AtomicWrite16KSupported, BufferPoolExtension: &m.BufferPoolExtension,
		EngineVersion: &m.EngineVersion, Category: &m.Category, InstructionSetArch: &m.InstructionSetArch}
}

func (m *readonlyInstanceModel) specFields() specFields {
	return specFields{InstanceType: &m.InstanceType, StorageType: &m.StorageType, Storage: &m.Storage,
		AtomicWrite: &m.AtomicWrite16K, AtomicWriteSupport: &m.AtomicWrite16KSupported, EngineVersion: &m.EngineVersion,
		InstructionSetArch: &m.InstructionSetArch}
}

func specOf(f specFields) specValues {
	v := specValues{InstanceType: f.InstanceType.ValueString(), Storage: f.Storage.ValueInt64(), StorageType: f.StorageType.ValueString(),
		AtomicWrite: f.AtomicWrite.ValueBool(), AtomicWriteSupport: f.AtomicWriteSupport.ValueBool()}
	if f.BufferPoolExtension != nil {
		v.BufferPoolExtension = f.BufferPoolExtension.ValueBool()
	}
	if f.EngineVersion != nil {
		v.EngineVersion = f.EngineVersion.ValueString()
	}
	if f.Category != nil {
		v.Category = f.Category.ValueString()
	}
	if f.InstructionSetArch != nil {
		v.Architecture = f.InstructionSetArch.ValueString()
	}
	return v
}

// setSpec writes spec values into a model.
func setSpec(v specValues, f specFields) {
	*f.InstanceType, *f.Storage, *f.StorageType = types.StringValue(v.InstanceType), types.Int64Value(v.Storage), types.StringValue(v.StorageType)
	*f.AtomicWrite, *f.AtomicWriteSupport = types.BoolValue(v.AtomicWrite), types.BoolValue(v.AtomicWriteSupport)
	if f.BufferPoolExtension != nil {
		*f.BufferPoolExtension = types.BoolValue(v.BufferPoolExtension)
	}
	if f.EngineVersion != nil && v.EngineVersion != "" {
		*f.EngineVersion = types.StringValue(v.EngineVersion)
	}
	if f.Category != nil && v.Category != "" {
		*f.Category = types.StringValue(v.Category)
	}
	if f.InstructionSetArch != nil && v.Architecture != "" {
		*f.InstructionSetArch = types.StringValue(v.Architecture)
	}
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
	v, err := rdsservice.ScheduledFromOf(raw)
	if err != nil {
		diags.AddWarning("Ignoring unreadable private state", fmt.Sprintf("%s: %v", scheduledFromKey, err))
	}
	return v
}

func setScheduledFrom(ctx context.Context, private privateSetter, v *specValues, diags *diag.Diagnostics) {
	var raw []byte
	if v != nil {
		raw, _ = json.Marshal(v)
	}
	diags.Append(private.SetKey(ctx, scheduledFromKey, raw)...)
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

// scheduledRead is what scheduled_change is read with, on refresh or after an apply: the instance
// (id, engine, and window, its maintenance window now), the state's scheduled_change (recorded),
// the private state that keeps the spec before the task, and after an apply scheduled_change as
// planned.
type scheduledRead struct {
	id, engine, window string
	recorded, planned  types.Object
	private            privateSetter
}

// stillScheduled is scheduled_change after an apply that sent parameters, or moved the window,
// while a change was pending (planned unknown): the recorded change while its task still waits,
// else null.
func (p *ProviderData) stillScheduled(ctx context.Context, s scheduledRead, diags *diag.Diagnostics) types.Object {
	if !s.planned.IsUnknown() {
		return s.planned
	}
	id, recorded, window, private := s.id, s.recorded, s.window, s.private
	taskID, changes := scheduledChanges(ctx, recorded, diags)
	task, err := rdsservice.PendingTask(ctx, p.API, id)
	if err != nil {
		diags.AddError("Error reading the scheduled change", fmt.Sprintf("DescribeHistoryTasks for %s: %v", id, err))
		return recorded
	}
	if task == nil || task.TaskID != taskID {
		setScheduledFrom(ctx, private, nil, diags)
		if params := rdsservice.PendingParameterChanges(changes); task != nil && task.TaskType == rdsapi.TaskTypeModifyParameter && len(params) > 0 {
			// The spec change was cancelled; the parameters deferred with it wait in a task of their own.
			return scheduledChangeValue(ctx, task, window, params, diags)
		}
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	return scheduledChangeValue(ctx, task, window, changes, diags)
}

// refreshScheduled decides, on refresh, whether the change recorded in scheduled_change is still
// waiting for its window: then the state keeps the requested spec (requested) and private state
// the instance's (seen, just read); otherwise scheduled_change is cleared and the state shows the
// instance as it is, so a change the window did not make shows as drift (deferred parameters
// too: the cloud withdraws their waiting values when the window passes without them).
func (p *ProviderData) refreshScheduled(ctx context.Context, s scheduledRead, requested specValues, seen specFields, diags *diag.Diagnostics) types.Object {
	id, recorded, window, private := s.id, s.recorded, s.window, s.private
	taskID, changes := scheduledChanges(ctx, recorded, diags)
	if taskID == "" {
		return p.adoptPending(ctx, s, seen, diags)
	}
	task, err := rdsservice.PendingTask(ctx, p.API, id)
	if err != nil {
		diags.AddError("Error reading the scheduled change", fmt.Sprintf("DescribeHistoryTasks for %s: %v", id, err))
		return recorded
	}
	if task == nil || task.TaskID != taskID {
		setScheduledFrom(ctx, private, nil, diags)
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	if rdsservice.HoldsSpec(task) {
		before := specOf(seen)
		setSpec(requested, seen)
		setScheduledFrom(ctx, private, &before, diags)
	}
	return scheduledChangeValue(ctx, task, window, changes, diags)
}

// requestedDoublewrite is parameters while a change waits for the window: innodb_doublewrite
// follows the flag, so like the spec it shows the value the requested flag gives it (the cloud
// runs the old one until the window), and a plan does not send the pending change again.
func requestedDoublewrite(params types.Map, scheduled types.Object, requestedFlag types.Bool) types.Map {
	current, ok := params.Elements()[rdsservice.DoublewriteParameter].(types.String)
	if !isKnown(scheduled) || !isKnown(params) || !ok || !isKnown(requestedFlag) {
		return params
	}
	want := rdsservice.DoublewriteFor(requestedFlag.ValueBool())
	if strings.EqualFold(current.ValueString(), want) {
		return params
	}
	elems := params.Elements()
	elems[rdsservice.DoublewriteParameter] = types.StringValue(want)
	return types.MapValueMust(types.StringType, elems)
}
