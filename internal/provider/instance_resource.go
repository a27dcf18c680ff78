package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ resource.Resource                   = (*instanceResource)(nil)
	_ resource.ResourceWithConfigure      = (*instanceResource)(nil)
	_ resource.ResourceWithImportState    = (*instanceResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*instanceResource)(nil)
	_ resource.ResourceWithValidateConfig = (*instanceResource)(nil)
)

// NewInstanceResource returns the rds_instance resource.
func NewInstanceResource() resource.Resource {
	return &instanceResource{}
}

// instanceResource manages one primary ApsaraDB RDS instance.
type instanceResource struct {
	data *ProviderData
}

var (
	// engines are those the provider supports end to end (the class catalogue offers classes for
	// them); 16K atomic write and the provider's rules are MySQL's, PostgreSQL instances get the rest.
	engines      = []string{"MySQL", "PostgreSQL"}
	storageTypes = []string{"cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd", "cloud_ssd", "local_ssd"}
	categories   = []string{"HighAvailability", "Basic", "cluster"}
)

const (
	defaultStorageType = "cloud_essd"
	defaultCategory    = "HighAvailability"
	defaultSecurityIP  = "127.0.0.1"
)

// Metadata returns the resource type name.
func (r *instanceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance"
}

// Schema defines rds_instance.
func (r *instanceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An ApsaraDB RDS primary instance (pay-as-you-go). Changes to `instance_type`, `storage`, " +
			"`storage_type`, `atomic_write_16k` and `buffer_pool_extension` go out together in one spec change, which " +
			"restarts the instance once (growing cloud-disk storage alone is online); the plan says so in a warning, and " +
			"`prevent_restart = true` turns that warning " +
			"into an error. The RDS API offers no InnoDB page-size choice, so the provider does not expose one.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Instance id (`DBInstanceId`, e.g. `rm-...`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"engine": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Database engine: `MySQL` or `PostgreSQL` (the engines whose classes the provider checks at plan; " +
					"SQL Server and MariaDB are not supported). Changing it creates a new instance.",
				Validators:    []validator.String{stringvalidator.OneOf(engines...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"engine_version": engineVersionAttribute(),
			"instance_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Instance class (`DBInstanceClass`), e.g. `mysql.n2.medium.2c` (x86) or `mysql.n2m.medium.2c` " +
					"(YiTian, arm). The plan checks it against the classes the region offers for the engine, version, category " +
					"and storage type. Changing it restarts the instance. Moving an instance bought before 2025-05-14 between " +
					"x86 and YiTian classes makes it lose 16K atomic write for good.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"storage": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "Storage in GB: at least 20, in steps of 5. " + rdsservice.StorageChangeEffect(),
				Validators:          []validator.Int64{int64validator.AtLeast(20), multipleOf(5)},
			},
			"storage_type": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(defaultStorageType),
				MarkdownDescription: "Storage type: `cloud_essd` (default), `cloud_essd2`, `cloud_essd3`, `general_essd`, `cloud_ssd` " +
					"or `local_ssd`. 16K atomic write needs an ESSD type (`cloud_essd*` or `general_essd`); " +
					"`buffer_pool_extension` needs `general_essd`. Changing it restarts the instance.",
				Validators: []validator.String{stringvalidator.OneOf(storageTypes...)},
			},
			"category": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(defaultCategory),
				MarkdownDescription: "Edition: `HighAvailability` (default), `Basic` or `cluster`. A Basic-edition instance can get " +
					"16K atomic write only at creation. Changing it creates a new instance.",
				Validators:    []validator.String{stringvalidator.OneOf(categories...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"vpc_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "VPC of the instance. Changing it creates a new instance.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()},
			},
			"instance_name": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Description of the instance (`DBInstanceDescription`): 2 to 255 characters, starting with a " +
					"letter, not starting with `http://` or `https://`. Changes in place without a restart.",
				Validators:    []validator.String{instanceNameValidator{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"security_ips": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				MarkdownDescription: "IPv4 addresses or CIDR blocks allowed to connect (the `default` allow-list). A new instance " +
					"gets `[\"127.0.0.1\"]` (nobody) when unset; an existing or imported instance keeps its allow-list when unset. " +
					"Changes in place without a restart.",
				PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
				Validators: []validator.Set{
					setvalidator.SizeBetween(1, 1000),
					setvalidator.ValueStringsAre(ipv4OrCIDRValidator{}),
				},
			},
			"released_keep_policy": releasedKeepPolicyAttribute(),
			"deletion_protection": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "When true the cloud refuses to delete the instance, and so does `terraform destroy`: set it " +
					"to false and apply before destroying or replacing the instance. Default false.",
			},
			"atomic_write_16k": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "16K atomic write (API `OptimizedWrites`): the storage path writes each 16 KiB InnoDB page " +
					"atomically, so the doublewrite buffer is switched off (published: +48% write QPS on `mysql.n2.large.2c`, " +
					"+93% together with `buffer_pool_extension`). Free of charge.\n\n" +
					"**Turning it on or off restarts the instance** (expected downtime: about 30 to 60 seconds for " +
					"High-availability and cluster editions). Turning it on for a primary also turns it on, with one restart " +
					"each, for its read-only instances that have it off. The plan names every instance that will restart; set " +
					"`prevent_restart = true` to make such a plan fail instead.\n\n" +
					"Needs MySQL 5.7 or 8.0 on ESSD storage (`cloud_essd`, `cloud_essd2`, `cloud_essd3`, `general_essd`). " +
					"Instances bought on or after 2025-05-14 and existing YiTian (arm) instances are eligible; existing x86 " +
					"instances bought earlier are not (`atomic_write_16k_supported = false`). A Basic-edition instance can " +
					"get it only at creation.\n\n" +
					"When unset, a new instance gets it exactly when eligible (the plan shows the value), a clone inherits its " +
					"source's value, and an existing instance keeps its current value.",
			},
			"buffer_pool_extension": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Buffer Pool Extension (API `IoAccelerationEnabled`), the ESSD I/O acceleration feature; " +
					"only on `general_essd` storage. Together with `atomic_write_16k` the published write gain is +93% " +
					"instead of +48%. Changing it restarts the instance. When unset, a new instance gets it off and an " +
					"existing instance keeps its current value.",
			},
			"prevent_restart": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "When true, a plan that takes this instance out of service fails at plan time instead of " +
					"carrying a warning: a restart (of this instance or, through it, of its read-only instances) or a " +
					"replacement. Unlike `lifecycle { prevent_destroy = true }`, it also refuses restarts. Default false.",
			},
			"restore_from": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "Create the instance as a clone (`CloneDBInstance`) of a backup or a point in time of " +
					"another instance. The clone inherits the source's `atomic_write_16k`; setting a different value costs one " +
					"toggle (one restart) right after creation, which the plan announces. Changing it creates a new instance.",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				Attributes: map[string]schema.Attribute{
					"source_instance_id": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Id of the instance to clone.",
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"backup_id": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Backup set to restore. Exactly one of `backup_id` and `restore_time`.",
					},
					"restore_time": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Point in time to restore, UTC `yyyy-MM-ddTHH:mm:ssZ`. Exactly one of `backup_id` and `restore_time`.",
						Validators:          []validator.String{utcTimestampValidator{}},
					},
				},
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),

			"status": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Instance status (`DBInstanceStatus`), `Running` after every apply. An instance that is `Stopped` " +
					"or `Deleting` (released outside Terraform) takes no change: the plan says so (an error for `Deleting`), " +
					"and an apply fails at once instead of waiting for its timeout.",
			},
			"lock_mode": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Lock of the instance (`LockMode`): `Unlock`, or why the cloud refuses changes to it " +
					"(`ManualLock`, `LockByExpiration`, `LockByRestoration`, `LockByDiskQuota`, `LockReadInstanceByDiskQuota`). " +
					"A plan that changes a locked instance warns and names the way to unlock it; under `LockByDiskQuota`, growing " +
					"`storage` is allowed.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"connection_string": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Internal connection address.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"port": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Port of `connection_string`.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"creation_time": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Creation time, UTC.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"purchase_time": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The purchase time that decides 16K atomic write eligibility (rules 2 and 9), UTC: `creation_time`, " +
					"except for a clone, which keeps its source's product line (the source's purchase time, as this provider saw it " +
					"when planning the clone). The cloud does not report it: after importing a clone, it is the clone's `creation_time`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instruction_set_arch": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`x86` or `arm` (YiTian), from the instance class.",
			},
			"atomic_write_16k_supported": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the instance is eligible for 16K atomic write at all (API `init_optimized_writes`). " +
					"When false, `atomic_write_16k = true` is refused at plan time. On an existing Basic-edition instance that " +
					"has it off, `true` is refused even when this is true: Basic edition gets 16K atomic write only at creation " +
					"(and the plan warns that turning it off there cannot be undone). To find instances that could turn it on, " +
					"filter on this attribute and on `category` not being `Basic`.",
			},
			"read_only_instance_ids": schema.ListAttribute{
				ElementType:         types.StringType,
				Computed:            true,
				MarkdownDescription: "Ids of the read-only instances of this primary.",
				PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
			},
		},
	}
	for name, a := range maintenanceAttributes() {
		resp.Schema.Attributes[name] = a
	}
	for name, a := range parameterSchemaAttributes() {
		resp.Schema.Attributes[name] = a
	}
	maps.Copy(resp.Schema.Attributes, securityAttributes())
	maps.Copy(resp.Schema.Attributes, minorVersionAttributes())
	maps.Copy(resp.Schema.Attributes, zoneAttributes())
	addTagAttributes(resp.Schema.Attributes)
	maps.Copy(resp.Schema.Attributes, storageAutoScaleAttributes())
	maps.Copy(resp.Schema.Attributes, billingAttributes())
}

// Configure receives the API client from the provider.
func (r *instanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_instance", &resp.Diagnostics)
}

// Create creates the instance (or clones it) and runs the rest of its program (apply.go).
func (r *instanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createInstance[instanceModel](ctx, primaryKind{r}, r.data, req, resp)
}

// Read refreshes the state with one DescribeDBInstanceAttribute, plus one DescribeParameters when
// parameters are managed and one DescribeDBInstanceIPArrayList when security_ips is (security_ips.go).
func (r *instanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state instanceModel
	resp.Diagnostics.Append(instanceCodec.Get(ctx, req.State.Raw, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.ID.ValueString()
	r.data.Journal.Recorded(id) // in a state: no longer an interrupted create's (issue 29)
	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		resp.Diagnostics.AddWarning("RDS instance no longer exists",
			fmt.Sprintf("Instance %s was not found (deleted outside Terraform?); it is removed from state and the next plan creates it again.", id))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err))
		return
	}
	if attr.MasterInstanceID != "" {
		p := rdsservice.Raise(rdsservice.RuleNotAPrimary, id, id, attr.MasterInstanceID)
		resp.Diagnostics.AddError(p.Summary, p.Detail)
		return
	}
	if state.PreventRestart.IsNull() || state.PreventRestart.IsUnknown() {
		state.PreventRestart = types.BoolValue(false)
	}
	if state.DeletionProtection.IsNull() || state.DeletionProtection.IsUnknown() {
		state.DeletionProtection = types.BoolValue(false)
	}
	requested := state
	r.writeState(attr, &state, &resp.Diagnostics)
	readSecurity(ctx, r.data.API, id, &state, &resp.Diagnostics)
	warnMinorBehind(requested, state, &resp.Diagnostics)
	readBilling(ctx, r.data.API, attr, &state, &resp.Diagnostics)
	refreshTags(ctx, r.data, attr, &state.Tags, &state.TagsAll, &resp.Diagnostics)
	refreshStorageAutoScale(ctx, r.data.API, requested, &state, &resp.Diagnostics)
	state.ScheduledChange = r.data.refreshScheduled(ctx, id, state.Engine.ValueString(), requested.ScheduledChange, specOf(requested.specFields()), state.specFields(),
		state.MaintenanceWindow.ValueString(), resp.Private, &resp.Diagnostics)
	holdPlacement(ctx, r.data, requested, &state, &resp.Diagnostics)
	if securityIPsManaged(ctx, req.Private, &resp.Diagnostics) {
		state.SecurityIPs = readDefaultSecurityIPs(ctx, r.data.API, id, state.SecurityIPs, &resp.Diagnostics)
	}
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &resp.Diagnostics)
	state.Parameters = requestedDoublewrite(state.Parameters, state.ScheduledChange, state.AtomicWrite16K)
	if resp.Diagnostics.HasError() {
		return
	}
	noteRefreshed(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(instanceCodec.Set(ctx, &resp.State, state)...)
}

// Update runs the update's program (apply.go): one spec change (one restart) now or for the
// maintenance window, with the parameters it shares its restart with, then the in-place settings.
func (r *instanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateInstance[instanceModel](ctx, primaryKind{r}, r.data, req, resp)
}

// Delete deletes the instance and waits until it is gone; not found counts as deleted.
func (r *instanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state instanceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.ID.ValueString()
	addProblems(&resp.Diagnostics, rdsservice.PlanDestroy(id, state.DeletionProtection.ValueBool()))
	if resp.Diagnostics.HasError() {
		return
	}
	budget, ok := operationBudget(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	if releasePrepaid(ctx, r.data, id, state.PrepaidOnDestroy.ValueString(), &resp.Diagnostics) {
		return
	}
	deleteAndWait(ctx, r.data, id, state.ReleasedKeepPolicy.ValueString(), &resp.Diagnostics)
}

// ImportState imports an instance by id; Read fills in the rest.
func (r *instanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if addProblems(&resp.Diagnostics, rdsservice.CheckImportID("rds_instance", id)); resp.Diagnostics.HasError() {
		return
	}
	if refuseImportOfDeleting(ctx, r.data, id, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("prevent_restart"), false)...)
	importTags(ctx, &resp.State, &resp.Diagnostics)
	importScheduled(ctx, r.data, id, &resp.State, &resp.Diagnostics)
}

// cloudNow is the waiter's clock set to the cloud's, as the API client last saw it: the window a
// deferred change runs in is the cloud's, and the plan names it as scheduled_change.starts_at will.
func (p *ProviderData) cloudNow() time.Time {
	now := p.Waiter.Now()
	if c, ok := p.API.(interface{ CloudOffset() time.Duration }); ok {
		now = now.Add(c.CloudOffset())
	}
	return now
}

// importScheduled imports a change waiting for the instance's window as an apply that deferred it
// leaves the state: scheduled_change lists it, the spec attributes hold its target (Read keeps them
// while the task waits), and apply_restarts = "in_maintenance_window", so that the next plan, and
// configuration generated from the state, keep the change scheduled rather than order it at once.
func importScheduled(ctx context.Context, data *ProviderData, id string, state *tfsdk.State, diags *diag.Diagnostics) {
	task, err := rdsservice.PendingTask(ctx, data.API, id)
	if err == nil && task == nil {
		return
	}
	var attr *rdsapi.DBInstanceAttribute
	if err == nil {
		attr, err = data.API.DescribeDBInstanceAttribute(ctx, id)
	}
	scheduled := rdsservice.ScheduledTaskOf(task)
	if err != nil || scheduled == nil {
		diags.AddWarning("Cannot read the instance's scheduled change", fmt.Sprintf("Instance %s: %v; scheduled_change is left empty.", id, err))
		return
	}
	cur, err := rdsservice.ExistingFromAttribute(attr)
	if err != nil {
		diags.AddWarning("Cannot read the instance's scheduled change", fmt.Sprintf("Instance %s: %v; scheduled_change is left empty.", id, err))
		return
	}
	set := func(name string, v any) { diags.Append(state.SetAttribute(ctx, path.Root(name), v)...) }
	set("apply_restarts", rdsservice.ApplyRestartsInWindow)
	set("scheduled_change", scheduledChangeValue(ctx, task, attr.MaintainTime, scheduled.Changes(cur), diags))
	if spec := scheduled.Spec; spec != nil {
		set("instance_type", spec.InstanceClass)
		set("storage", spec.Storage)
		set("storage_type", spec.StorageType)
		set("atomic_write_16k", spec.AtomicWrite)
		set("atomic_write_16k_supported", cur.Supported)
		if _, ok := state.Schema.GetAttributes()["buffer_pool_extension"]; ok {
			set("buffer_pool_extension", spec.BufferPoolExtension)
		}
	}
}

// ValidateConfig checks what the configuration alone decides. Unknown values are skipped here;
// Terraform validates again during plan and apply once they are known.
func (r *instanceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config instanceModel
	resp.Diagnostics.Append(instanceCodec.Get(ctx, req.Config.Raw, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(validateConfigModel(ctx, config)...)
	addProblems(&resp.Diagnostics, rdsservice.CheckSecurityConfig(valBool(config.TDEEnabled), valString(config.TDEEncryptionKey), valString(config.TDERoleArn)))
	addProblems(&resp.Diagnostics, rdsservice.CheckMinorVersionConfig(valString(config.TargetMinorVersion)))
}

// ModifyPlan shows the planner's decision: computed values, errors, and the restart, replacement
// or guard it names.
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	warnUnrefreshed(ctx, req, &resp.Diagnostics)
	planReleasedKeep(ctx, req, &resp.Diagnostics)
	planBillingDestroy(ctx, req, &resp.Diagnostics)
	tagsAll := planTags(ctx, r.data, req, resp, 1)
	lookupCtx, cancel, proceed := planPreamble(ctx, r.data, req, resp, nil)
	defer cancel()
	if !proceed {
		return
	}
	plan, config, state := planModels[instanceModel](ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.TagsAll = tagsAll
	var replace []string
	if state != nil {
		replace = zoneReplaces(versionReplaces(ctx, req.Private, replacedBySchema(ctx, r, req), state.Engine, state.EngineVersion, plan.EngineVersion), plan)
	}
	from := scheduledFrom(ctx, req.Private, &resp.Diagnostics)
	dec, d := r.decide(lookupCtx, priorForPlan(state, from), config, plan, replace, from != nil)
	resp.Diagnostics.Append(d...)
	r.data.decided(dec)
	addProblems(&resp.Diagnostics, dec.Problems)
	if dec.Action == rdsservice.ActionReplace {
		// Terraform plans the new instance in a second call, without prior state.
		r.data.plans.replaced.record(state.ID.ValueString(), valInt(plan.Storage))
		return
	}
	plan.AtomicWrite16K = boolOf(dec.AtomicWrite)
	plan.AtomicWrite16KSupported = boolOf(dec.AtomicWriteSupported)
	plan.BufferPoolExtension = boolOf(dec.BufferPoolExtension)
	plan.InstructionSetArch = stringOf(dec.Architecture)
	plan.Status = stringOf(dec.Status)
	plan.StorageActual = plannedStorageActual(ctx, state, plan, dec, &resp.Diagnostics)
	plan.LockMode = plannedLockMode(plan.LockMode, state != nil)
	plan.ParametersPending = plannedPending(config.Parameters, dec.Parameters, &resp.Diagnostics)
	planSecurityValues(state, config, &plan)
	r.planMinorValues(state, config, dec, &plan)
	planPlacement(dec, &plan)
	plan.ExpireTime = plannedExpireTime(ctx, state, plan, &resp.Diagnostics)
	if state == nil {
		planInterruptedCreate(lookupCtx, r.data, "rds_instance", req.Config, &plan.ID, &resp.Diagnostics)
		plan.PurchaseTime = stringOf(dec.PurchaseTime)
		plan.ReadOnlyInstanceIDs = types.ListValueMust(types.StringType, nil)
		if config.SecurityIPs.IsNull() {
			plan.SecurityIPs = types.SetValueMust(types.StringType, []attr.Value{types.StringValue(defaultSecurityIP)})
		}
	} else {
		flag := dec.AtomicWrite
		if dec.Deferred {
			// Nothing changes during this apply: read-only instances plan with the current value.
			flag = valBool(priorForPlan(state, from).AtomicWrite16K)
		}
		plan.ScheduledChange = plannedScheduledChange(dec, state.ScheduledChange, from, specOf(plan.specFields()), isKnown(plan.InstanceType))
		r.data.plans.record(state.ID.ValueString(), flag)
		r.data.plans.storage.record(state.ID.ValueString(), valInt(plan.Storage))
		if dec.Deferred && dec.Order.AtomicWrite != nil {
			r.data.plans.recordScheduled(state.ID.ValueString(), &rdsservice.ScheduledFlag{On: *dec.Order.AtomicWrite, StartsAt: dec.DeferredStartsAt})
		}
		warnIncompleteCreate(ctx, req.Private, state.ID.ValueString(), *state, plan, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// ---- the planner's inputs ----

// decide fetches the facts the planner needs and calls it. config tells "unset" from a value;
// plan carries defaults; state is nil for a create; replace lists what Terraform replaces for.
func (r *instanceResource) decide(ctx context.Context, state *instanceModel, config, plan instanceModel, replace []string, specPending bool) (rdsservice.Decision, diag.Diagnostics) {
	var diags diag.Diagnostics
	in := r.planInput(ctx, state, config, plan, replace, &diags)
	in.Facts.SpecChangePending = specPending
	return rdsservice.Plan(in), diags
}

// planInput is the planner's input: the desired values, the prior state, and the facts read
// from the cloud (restore source, read-only instances, parameters, class catalogue).
func (r *instanceResource) planInput(ctx context.Context, state *instanceModel, config, plan instanceModel, replace []string, diags *diag.Diagnostics) rdsservice.PlanInput {
	in := rdsservice.PlanInput{
		Role:  rdsservice.RolePrimary,
		Label: "the new instance",
		Desired: rdsservice.Desired{
			Engine: valString(plan.Engine), EngineVersion: valString(plan.EngineVersion), InstanceClass: valString(plan.InstanceType),
			StorageType: valString(plan.StorageType), Category: valString(plan.Category), Storage: valInt(plan.Storage),
			AtomicWrite: valBool(config.AtomicWrite16K), BufferPoolExtension: valBool(config.BufferPoolExtension),
			PreventRestart: plan.PreventRestart.ValueBool(), Parameters: desiredParameters(config.Parameters),
			ApplyRestarts: plan.ApplyRestarts.ValueString(), MaintenanceWindow: valString(plan.MaintenanceWindow),
			Minor:     desiredMinor(config),
			Placement: desiredPlacement(config),
		},
		Facts:   rdsservice.Facts{Now: r.data.cloudNow()},
		Replace: replace,
	}
	if name := stringIfKnown(plan.InstanceName); name != "" {
		in.Label = fmt.Sprintf("the new instance %q", name)
	}
	r.securityInput(ctx, state, config, &in, diags)
	in.Desired.Tags = primaryTagPlan(ctx, state, plan, diags)
	autoScaleWant(ctx, plan, &in, diags)
	in.Desired.Billing = billingPlanOf(ctx, state, plan, diags)
	if state == nil {
		r.cloneFacts(ctx, plan, &in, diags)
		in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, "", stringIfKnown(plan.Engine),
			stringIfKnown(plan.EngineVersion), stringIfKnown(plan.Category), types.MapNull(types.StringType), types.MapNull(types.StringType))
		r.askClasses(ctx, plan, nil, &in)
		return in
	}
	purchase := state.PurchaseTime
	if !isKnown(purchase) || purchase.ValueString() == "" {
		purchase = state.CreationTime
	}
	prior := existingFrom(instanceLabel(*state), state.view(), purchase)
	in.Prior, in.Label = &prior, prior.ID
	autoScalePrior(ctx, *state, &in, diags)
	in.Desired.InPlaceChanges = settingsOfModel(ctx, plan, diags).Changes(settingsOfModel(ctx, *state, diags))
	r.minorFacts(ctx, state, config, &in, diags)
	if len(in.Replace) > 0 {
		// The new instance's parameters decide whether it restarts right after creation.
		in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, "", stringIfKnown(plan.Engine),
			stringIfKnown(plan.EngineVersion), stringIfKnown(plan.Category), types.MapNull(types.StringType), types.MapNull(types.StringType))
		return in
	}
	turningOn := isKnown(config.AtomicWrite16K) && config.AtomicWrite16K.ValueBool() && !state.AtomicWrite16K.ValueBool()
	growing := isKnown(plan.Storage) && plan.Storage.ValueInt64() > state.Storage.ValueInt64()
	if turningOn || growing || upgradesEngine(state, plan) || upgradesMinor(state, config) {
		in.Facts.ReadOnly, in.Facts.ReadOnlyError = readOnlyFacts(ctx, r.data, state.ID.ValueString())
	}
	if movesZone(*state, config) {
		placementFacts(ctx, r.data, *state, &in)
	}
	in.Desired.Parameters.Recorded = state.Parameters.Equal(config.Parameters)
	in.Facts.Pending = pendingOf(ctx, state.ScheduledChange)
	in.Facts.Parameters = r.data.parameterFacts(ctx, in.Desired.Parameters, state.ID.ValueString(), state.Engine.ValueString(),
		parameterVersion(state.Engine, state.EngineVersion, plan.EngineVersion), state.Category.ValueString(), state.Parameters, state.ParametersPending)
	r.askClasses(ctx, plan, state, &in)
	return in
}

// cloneFacts reads the restore source of a new clone.
func (r *instanceResource) cloneFacts(ctx context.Context, plan instanceModel, in *rdsservice.PlanInput, diags *diag.Diagnostics) {
	restore := plan.restoreFrom(ctx, diags)
	if restore == nil {
		return
	}
	in.Role = rdsservice.RoleClone
	in.Desired.RestoreTime = valString(restore.RestoreTime)
	if !isKnown(restore.SourceInstanceID) {
		return
	}
	srcID := restore.SourceInstanceID.ValueString()
	in.Label = "the new clone of " + srcID
	src, err := r.data.API.DescribeDBInstanceAttribute(ctx, srcID)
	if err != nil {
		in.Facts.SourceError = fmt.Sprintf("%s: %v", srcID, err)
		return
	}
	source, err := rdsservice.ExistingFromAttribute(src)
	if err != nil {
		in.Facts.SourceError = err.Error()
		return
	}
	// Terraform plans the clone after the source it references: when this run changes the
	// source's flag, the clone is made from the source as changed.
	if planned := r.data.plans.lookup(srcID); planned.IsKnown() {
		source.Enabled = planned.Value()
	}
	in.Facts.Source = &source
}

// askClasses asks the class catalogue for a new instance, or when the class or storage type changes.
func (r *instanceResource) askClasses(ctx context.Context, plan instanceModel, state *instanceModel, in *rdsservice.PlanInput) {
	if state != nil && plan.InstanceType.Equal(state.InstanceType) && plan.StorageType.Equal(state.StorageType) && plan.ZoneID.Equal(state.ZoneID) {
		return
	}
	if !isKnown(plan.Engine) || !isKnown(plan.EngineVersion) || !isKnown(plan.StorageType) || !isKnown(plan.Category) || !isKnown(plan.InstanceType) {
		return
	}
	zone := stringIfKnown(plan.ZoneID)
	if state != nil && zone == "" {
		zone = state.ZoneID.ValueString()
	}
	in.Facts.Classes = classFacts(ctx, r.data, rdsapi.DescribeAvailableClassesRequest{
		ZoneID: zone, Engine: plan.Engine.ValueString(), EngineVersion: plan.EngineVersion.ValueString(),
		DBInstanceStorageType: plan.StorageType.ValueString(), Category: plan.Category.ValueString(),
	})
}

// readOnlyFacts reads the primary, then each of its read-only instances. One that cannot be read is
// still listed (as eligible and off): better a warning that is too broad than a silent restart.
func readOnlyFacts(ctx context.Context, data *ProviderData, primaryID string) ([]rdsservice.ExistingInstance, string) {
	primary, err := data.API.DescribeDBInstanceAttribute(ctx, primaryID)
	if err != nil {
		return nil, err.Error()
	}
	var ros []rdsservice.ExistingInstance
	var errs []error
	for _, roID := range primary.ReadOnlyDBInstanceIDs {
		attr, err := data.API.DescribeDBInstanceAttribute(ctx, roID)
		if rdsapi.IsNotFound(err) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			ros = append(ros, rdsservice.ExistingInstance{ID: roID, Supported: true})
			continue
		}
		ro, err := rdsservice.ExistingFromAttribute(attr)
		if err != nil {
			errs = append(errs, err)
		}
		ros = append(ros, ro)
	}
	if err := errors.Join(errs...); err != nil {
		return ros, err.Error()
	}
	return ros, ""
}

// writeState copies what the cloud reports into m. Inputs the cloud spells differently keep the
// configured spelling; a missing or malformed answer is an error, never raw text in state. Empty
// optional values are null, so that a configuration generated from the state passes validation.
func (r *instanceResource) writeState(a *rdsapi.DBInstanceAttribute, m *instanceModel, diags *diag.Diagnostics) {
	if a == nil {
		diags.AddError("Error reading RDS instance", "the cloud returned no instance attributes")
		return
	}
	v := viewOf(a, diags)
	m.ID = v.ID
	m.Engine = keepSpelling(m.Engine, a.Engine)
	m.EngineVersion = keepSpelling(m.EngineVersion, string(a.EngineVersion))
	m.InstanceType = v.InstanceType
	m.Storage, m.StorageActual = v.Storage, v.Storage
	m.StorageType = keepSpelling(m.StorageType, a.DBInstanceStorageType)
	m.Category = keepSpelling(m.Category, a.Category)
	m.ZoneID = v.ZoneID
	m.VpcID = emptyAsNull(v.VpcID)
	m.VSwitchID = emptyAsNull(v.VSwitchID)
	secondaryZones(a, m)
	m.InstanceName = emptyAsNull(v.InstanceName)
	m.DeletionProtection = v.DeletionProtection
	m.Status = v.Status
	m.LockMode = v.LockMode
	m.ConnectionString = v.ConnectionString
	m.CreationTime = v.CreationTime
	if !isKnown(m.PurchaseTime) || m.PurchaseTime.ValueString() == "" {
		m.PurchaseTime = v.CreationTime
	}
	m.InstructionSetArch = v.Architecture
	m.Port = v.Port
	m.AtomicWrite16K, m.AtomicWrite16KSupported = v.AtomicWrite16K, v.AtomicWrite16KSupported
	m.BufferPoolExtension = v.BufferPoolExtension
	m.SecurityIPs = v.SecurityIPs
	m.ReadOnlyInstanceIDs = v.ReadOnlyInstanceIDs
	m.MaintenanceWindow = types.StringValue(a.MaintainTime)
	m.ResourceGroupID = emptyAsNull(types.StringValue(a.ResourceGroupID))
	writeMinorVersion(a, m)
	if !isKnown(m.ScheduledChange) {
		m.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
	}
	if m.ApplyRestarts.IsNull() || m.ApplyRestarts.IsUnknown() {
		m.ApplyRestarts = types.StringValue(rdsservice.ApplyRestartsImmediately)
	}
	if m.RestoreFrom.IsUnknown() {
		m.RestoreFrom = types.ObjectNull(restoreFromAttrTypes)
	}
}

// validateConfigModel holds the checks ValidateConfig runs (the planner's configuration-only rules).
func validateConfigModel(ctx context.Context, c instanceModel) diag.Diagnostics {
	var diags diag.Diagnostics
	storageType := c.StorageType
	if storageType.IsNull() {
		storageType = types.StringValue(defaultStorageType)
	}
	addProblems(&diags, rdsservice.CheckMaintenanceWindow(valString(c.MaintenanceWindow)))
	addProblems(&diags, rdsservice.CheckConfig(rdsservice.Desired{
		Engine: valString(c.Engine), EngineVersion: valString(c.EngineVersion), StorageType: valString(storageType),
		AtomicWrite: valBool(c.AtomicWrite16K), BufferPoolExtension: valBool(c.BufferPoolExtension),
	}))
	if !c.RestoreFrom.IsNull() && !c.RestoreFrom.IsUnknown() {
		var rf restoreFromModel
		diags.Append(c.RestoreFrom.As(ctx, &rf, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
		addProblems(&diags, rdsservice.CheckRestoreFrom(valString(rf.BackupID), valString(rf.RestoreTime)))
	}
	return diags
}

// ---- helpers ----

func networkType(m instanceModel) string {
	if m.VpcID.ValueString() != "" || m.VSwitchID.ValueString() != "" {
		return rdsapi.NetworkTypeVPC
	}
	return ""
}

func instanceLabel(m instanceModel) string {
	id := m.ID.ValueString()
	if name := m.InstanceName.ValueString(); name != "" && name != id {
		return fmt.Sprintf("%s (%s)", id, name)
	}
	return id
}

// view is the state in the shared shape the planner reads.
func (m instanceModel) view() instanceView {
	return instanceView{ID: m.ID, Engine: m.Engine, EngineVersion: m.EngineVersion, InstanceType: m.InstanceType,
		StorageType: m.StorageType, Category: m.Category, Storage: m.Storage, Architecture: m.InstructionSetArch,
		AtomicWrite16K: m.AtomicWrite16K, AtomicWrite16KSupported: m.AtomicWrite16KSupported, Status: m.Status, LockMode: m.LockMode,
		DeletionProtection: m.DeletionProtection, BufferPoolExtension: m.BufferPoolExtension}
}

// settingsOfModel is the in-place settings of a state or plan; unknown values are left alone.
func settingsOfModel(ctx context.Context, m instanceModel, diags *diag.Diagnostics) rdsservice.Settings {
	var s rdsservice.Settings
	if isKnown(m.InstanceName) {
		s.Name = ptr(m.InstanceName.ValueString())
	}
	if isKnown(m.SecurityIPs) {
		s.SecurityIPs = setStrings(ctx, m.SecurityIPs, diags)
	}
	if isKnown(m.DeletionProtection) {
		s.DeletionProtection = ptr(m.DeletionProtection.ValueBool())
	}
	if isKnown(m.MaintenanceWindow) {
		s.MaintenanceWindow = ptr(m.MaintenanceWindow.ValueString())
	}
	return s
}

// ---- model ----

// instanceModel maps rds_instance.
type instanceModel struct {
	ID                      types.String   `tfsdk:"id"`
	Engine                  types.String   `tfsdk:"engine"`
	EngineVersion           types.String   `tfsdk:"engine_version"`
	InstanceType            types.String   `tfsdk:"instance_type"`
	Storage                 types.Int64    `tfsdk:"storage"`
	StorageType             types.String   `tfsdk:"storage_type"`
	ReleasedKeepPolicy      types.String   `tfsdk:"released_keep_policy"`
	Category                types.String   `tfsdk:"category"`
	ZoneID                  types.String   `tfsdk:"zone_id"`
	VpcID                   types.String   `tfsdk:"vpc_id"`
	VSwitchID               types.String   `tfsdk:"vswitch_id"`
	ZoneIDSlaveA            types.String   `tfsdk:"zone_id_slave_a"`
	ZoneIDSlaveB            types.String   `tfsdk:"zone_id_slave_b"`
	InstanceName            types.String   `tfsdk:"instance_name"`
	SecurityIPs             types.Set      `tfsdk:"security_ips"`
	DeletionProtection      types.Bool     `tfsdk:"deletion_protection"`
	AtomicWrite16K          types.Bool     `tfsdk:"atomic_write_16k"`
	BufferPoolExtension     types.Bool     `tfsdk:"buffer_pool_extension"`
	PreventRestart          types.Bool     `tfsdk:"prevent_restart"`
	RestoreFrom             types.Object   `tfsdk:"restore_from"`
	Timeouts                timeouts.Value `tfsdk:"timeouts"`
	Status                  types.String   `tfsdk:"status"`
	LockMode                types.String   `tfsdk:"lock_mode"`
	ConnectionString        types.String   `tfsdk:"connection_string"`
	Port                    types.Int64    `tfsdk:"port"`
	CreationTime            types.String   `tfsdk:"creation_time"`
	PurchaseTime            types.String   `tfsdk:"purchase_time"`
	InstructionSetArch      types.String   `tfsdk:"instruction_set_arch"`
	AtomicWrite16KSupported types.Bool     `tfsdk:"atomic_write_16k_supported"`
	ReadOnlyInstanceIDs     types.List     `tfsdk:"read_only_instance_ids"`
	MaintenanceWindow       types.String   `tfsdk:"maintenance_window"`
	ApplyRestarts           types.String   `tfsdk:"apply_restarts"`
	ScheduledChange         types.Object   `tfsdk:"scheduled_change"`
	Parameters              types.Map      `tfsdk:"parameters"`
	ParametersPending       types.Map      `tfsdk:"parameters_pending"`
	// SSL and TDE (instance_security.go).
	SSLEnabled       types.Bool   `tfsdk:"ssl_enabled"`
	SSLExpireTime    types.String `tfsdk:"ssl_expire_time"`
	TDEEnabled       types.Bool   `tfsdk:"tde_enabled"`
	TDEEncryptionKey types.String `tfsdk:"tde_encryption_key"`
	TDERoleArn       types.String `tfsdk:"tde_role_arn"`
	Tags             types.Map    `tfsdk:"tags"`
	TagsAll          types.Map    `tfsdk:"tags_all"`
	ResourceGroupID  types.String `tfsdk:"resource_group_id"`
	// Minor version (instance_minor_version.go).
	TargetMinorVersion      types.String `tfsdk:"target_minor_version"`
	MinorVersion            types.String `tfsdk:"minor_version"`
	AutoUpgradeMinorVersion types.String `tfsdk:"auto_upgrade_minor_version"`
	// Storage autoscaling (storage_autoscale.go).
	StorageAutoScale types.Object `tfsdk:"storage_auto_scale"`
	StorageActual    types.Int64  `tfsdk:"storage_actual"`
	// Subscription billing (billing.go).
	Billing          types.Object `tfsdk:"billing"`
	PrepaidOnDestroy types.String `tfsdk:"prepaid_on_destroy"`
	ExpireTime       types.String `tfsdk:"expire_time"`
}

// restoreFromModel maps restore_from.
type restoreFromModel struct {
	SourceInstanceID types.String `tfsdk:"source_instance_id"`
	BackupID         types.String `tfsdk:"backup_id"`
	RestoreTime      types.String `tfsdk:"restore_time"`
}

var restoreFromAttrTypes = map[string]attr.Type{
	"source_instance_id": types.StringType,
	"backup_id":          types.StringType,
	"restore_time":       types.StringType,
}

// restoreFrom returns restore_from, or nil when it is not set (or not known yet).
func (m instanceModel) restoreFrom(ctx context.Context, diags *diag.Diagnostics) *restoreFromModel {
	if !isKnown(m.RestoreFrom) {
		return nil
	}
	var rf restoreFromModel
	diags.Append(m.RestoreFrom.As(ctx, &rf, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	return &rf
}

// knownOrNull returns a copy fit for state: unknown computed values become null.
func (m instanceModel) knownOrNull() instanceModel {
	out := m
	nullString := func(v *types.String) {
		if v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	nullBool := func(v *types.Bool) {
		if v.IsUnknown() {
			*v = types.BoolNull()
		}
	}
	for _, v := range []*types.String{&out.ZoneID, &out.VpcID, &out.VSwitchID, &out.InstanceName, &out.Status, &out.LockMode,
		&out.ConnectionString, &out.CreationTime, &out.PurchaseTime, &out.InstructionSetArch, &out.MaintenanceWindow, &out.SSLExpireTime, &out.ExpireTime} {
		nullString(v)
	}
	for _, v := range []*types.Bool{&out.AtomicWrite16K, &out.AtomicWrite16KSupported, &out.BufferPoolExtension} {
		nullBool(v)
	}
	if out.ScheduledChange.IsUnknown() {
		out.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
	}
	if out.Port.IsUnknown() {
		out.Port = types.Int64Null()
	}
	if out.ReadOnlyInstanceIDs.IsUnknown() {
		out.ReadOnlyInstanceIDs = types.ListNull(types.StringType)
	}
	if out.SecurityIPs.IsUnknown() {
		out.SecurityIPs = types.SetNull(types.StringType)
	}
	if out.ParametersPending.IsUnknown() {
		out.ParametersPending = types.MapNull(types.StringType)
	}
	tagsKnownOrNull(&out.TagsAll, &out.ResourceGroupID)
	if out.StorageActual.IsUnknown() {
		out.StorageActual = types.Int64Null()
	}
	return out
}

// ---- the apply (apply.go) ----

// primaryKind is rds_instance's part of the shared apply.
type primaryKind struct{ r *instanceResource }

func (k primaryKind) planInput(ctx context.Context, state *instanceModel, config instanceModel, plan *instanceModel, diags *diag.Diagnostics) rdsservice.PlanInput {
	return k.r.planInput(ctx, state, config, *plan, nil, diags)
}

func (k primaryKind) parts(m *instanceModel) modelParts {
	return modelParts{ID: &m.ID, Timeouts: m.Timeouts, Spec: m.specFields(), MaintenanceWindow: &m.MaintenanceWindow,
		ScheduledChange: &m.ScheduledChange, Parameters: &m.Parameters, Pending: &m.ParametersPending}
}

func (k primaryKind) settings(ctx context.Context, m instanceModel, diags *diag.Diagnostics) rdsservice.Settings {
	return settingsOfModel(ctx, m, diags)
}

// execution is the executor's input: for a create, CreateDBInstance (or CloneDBInstance) with
// every setting it can carry; a clone gets the default allow-list afterwards when none is set.
func (k primaryKind) execution(ctx context.Context, plan *instanceModel, dec rdsservice.Decision, diags *diag.Diagnostics) rdsservice.Execution {
	e := rdsservice.Execution{Settings: settingsOfModel(ctx, *plan, diags), TargetClass: plan.InstanceType.ValueString(),
		TargetStorage: plan.Storage.ValueInt64()}
	if dec.Action != rdsservice.ActionCreate {
		return e
	}
	if e.Settings.SecurityIPs == nil {
		e.Settings.SecurityIPs = []string{defaultSecurityIP}
	}
	if restore := plan.restoreFrom(ctx, diags); restore != nil {
		e.Create.Clone = &rdsapi.CloneDBInstanceRequest{
			RegionID: k.r.data.Region, SourceDBInstanceID: restore.SourceInstanceID.ValueString(),
			BackupID: restore.BackupID.ValueString(), RestoreTime: restore.RestoreTime.ValueString(),
			PayType: rdsapi.PayTypePostpaid, DBInstanceClass: plan.InstanceType.ValueString(), DBInstanceStorage: plan.Storage.ValueInt64(),
			DBInstanceStorageType: plan.StorageType.ValueString(), Category: plan.Category.ValueString(), ZoneID: plan.ZoneID.ValueString(),
			InstanceNetworkType: networkType(*plan), VPCID: plan.VpcID.ValueString(), VSwitchID: plan.VSwitchID.ValueString(),
		}
		return e
	}
	e.Create.Instance = &rdsapi.CreateDBInstanceRequest{
		RegionID: k.r.data.Region, ZoneID: plan.ZoneID.ValueString(), Engine: plan.Engine.ValueString(),
		EngineVersion: plan.EngineVersion.ValueString(), DBInstanceClass: plan.InstanceType.ValueString(),
		DBInstanceStorage: plan.Storage.ValueInt64(), DBInstanceStorageType: plan.StorageType.ValueString(),
		Category: plan.Category.ValueString(), PayType: rdsapi.PayTypePostpaid, DBInstanceNetType: rdsapi.NetTypeIntranet,
		InstanceNetworkType: networkType(*plan), VPCID: plan.VpcID.ValueString(), VSwitchID: plan.VSwitchID.ValueString(),
		SecurityIPList: strings.Join(e.Settings.SecurityIPs, ","), DBInstanceDescription: plan.InstanceName.ValueString(),
		DeletionProtection: plan.DeletionProtection.ValueBool(), ZoneIDSlave1: stringIfKnown(plan.ZoneIDSlaveA), ZoneIDSlave2: stringIfKnown(plan.ZoneIDSlaveB),
		Tags: createTags(ctx, plan.TagsAll, diags), ResourceGroupID: stringIfKnown(plan.ResourceGroupID),
		TargetMinorVersion: stringIfKnown(plan.TargetMinorVersion),
	}
	e.Create.Instance.PayType, e.Create.Instance.Subscription = createSubscription(ctx, *plan, diags)
	// The provider's computed default goes out explicitly, so the result never depends on the
	// server's default (spec rule 4). Other engines have no such setting.
	if flag := dec.AtomicWrite; isMySQL(plan.Engine.ValueString()) && flag.IsKnown() {
		e.Create.Instance.OptimizedWrites = optimizedWrites(flag.Value())
	}
	if bpe := plan.BufferPoolExtension; isKnown(bpe) && (bpe.ValueBool() || strings.EqualFold(plan.StorageType.ValueString(), "general_essd")) {
		e.Create.Instance.IoAccelerationEnabled = switchValue(bpe.ValueBool())
	}
	return e
}

func (k primaryKind) accepted(plan instanceModel, id string) instanceModel {
	plan.ID = types.StringValue(id)
	return plan.knownOrNull()
}

func (k primaryKind) applied(ctx context.Context, attr *rdsapi.DBInstanceAttribute, plan, config instanceModel, private privateSetter, diags *diag.Diagnostics) instanceModel {
	planned := plan.SecurityIPs
	k.r.writeState(attr, &plan, diags)
	readSecurity(ctx, k.r.data.API, attr.DBInstanceID, &plan, diags)
	readBilling(ctx, k.r.data.API, attr, &plan, diags)
	settleSecurityIPs(ctx, k.r.data.API, attr.DBInstanceID, config.SecurityIPs, planned, &plan, private, diags)
	return plan
}

func (k primaryKind) incompleteCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan instanceModel,
	last *rdsapi.DBInstanceAttribute, step string, err error) {
	k.r.incompleteCreate(ctx, req, resp, plan, last, step, err)
}
