package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

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

// Default operation budgets (alicloud's defaults for RDS).
const (
	defaultCreateTimeout = 50 * time.Minute
	defaultUpdateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 30 * time.Minute
	// planLookupTimeout bounds the API reads ModifyPlan makes (class catalogue, read-only
	// instances, restore source), so a slow API cannot hang a plan.
	planLookupTimeout = 2 * time.Minute
)

var (
	engines      = []string{"MySQL", "PostgreSQL", "SQLServer", "MariaDB"}
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
			"restarts the instance once; the plan says so in a warning, and `prevent_restart = true` turns that warning " +
			"into an error. The RDS API offers no InnoDB page-size choice, so the provider does not expose one.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Instance id (`DBInstanceId`, e.g. `rm-...`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"engine": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Database engine: `MySQL`, `PostgreSQL`, `SQLServer` or `MariaDB`. Changing it creates a new instance.",
				Validators:          []validator.String{stringvalidator.OneOf(engines...)},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"engine_version": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Engine version, e.g. `8.0` or `5.7` for MySQL (16K atomic write needs one of those two). " +
					"Changing it creates a new instance.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
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
				MarkdownDescription: "Storage in GB: at least 20, in steps of 5. Changing it restarts the instance.",
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
			"zone_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Zone, e.g. `cn-hangzhou-i`; chosen by the cloud when unset. Changing it creates a new instance.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()},
			},
			"vpc_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "VPC of the instance. Changing it creates a new instance.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()},
			},
			"vswitch_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "vSwitch of the instance, in `zone_id`. Changing it creates a new instance.",
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
				Default:     setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{types.StringValue(defaultSecurityIP)})),
				MarkdownDescription: "IPv4 addresses or CIDR blocks allowed to connect (the `default` allow-list). Defaults to " +
					"`[\"127.0.0.1\"]` (nobody). Changes in place without a restart.",
				Validators: []validator.Set{
					setvalidator.SizeBetween(1, 1000),
					setvalidator.ValueStringsAre(ipv4OrCIDRValidator{}),
				},
			},
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
				MarkdownDescription: "When true, a plan that would restart this instance (or, through it, its read-only " +
					"instances) fails at plan time instead of carrying a warning. Default false.",
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
				Computed:            true,
				MarkdownDescription: "Instance status (`DBInstanceStatus`), `Running` after every apply.",
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
				MarkdownDescription: "Creation (purchase) time, UTC. Decides 16K atomic write eligibility of x86 instances.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instruction_set_arch": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`x86` or `arm` (YiTian), from the instance class.",
			},
			"atomic_write_16k_supported": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the instance is eligible for 16K atomic write at all (API `init_optimized_writes`). " +
					"When false, `atomic_write_16k = true` is refused at plan time.",
			},
			"read_only_instance_ids": schema.ListAttribute{
				ElementType:         types.StringType,
				Computed:            true,
				MarkdownDescription: "Ids of the read-only instances of this primary.",
				PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
			},
		},
	}
	for name, a := range parameterSchemaAttributes() {
		resp.Schema.Attributes[name] = a
	}
}

// Configure receives the API client from the provider.
func (r *instanceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, "rds_instance", &resp.Diagnostics)
}

// Create creates the instance (or clones it), records its id as soon as the cloud accepts it,
// and waits until it is Running with the planned 16K atomic write value, all within one deadline.
func (r *instanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan instanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	budget, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	// Same checks as the plan: values unknown then are known now. Only errors matter here;
	// the plan already carried the warnings.
	an, d := r.analyzeCreate(ctx, plan, plan)
	if d.HasError() {
		resp.Diagnostics.Append(errorsOnly(d)...)
		return
	}
	wantFlag := an.flag
	restore := plan.restoreFrom(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	var id string
	if restore != nil {
		out, err := r.data.API.CloneDBInstance(ctx, &rdsapi.CloneDBInstanceRequest{
			RegionID:              r.data.Region,
			SourceDBInstanceID:    restore.SourceInstanceID.ValueString(),
			BackupID:              restore.BackupID.ValueString(),
			RestoreTime:           restore.RestoreTime.ValueString(),
			PayType:               rdsapi.PayTypePostpaid,
			DBInstanceClass:       plan.InstanceType.ValueString(),
			DBInstanceStorage:     plan.Storage.ValueInt64(),
			DBInstanceStorageType: plan.StorageType.ValueString(),
			Category:              plan.Category.ValueString(),
			ZoneID:                plan.ZoneID.ValueString(),
			InstanceNetworkType:   networkType(plan),
			VPCID:                 plan.VpcID.ValueString(),
			VSwitchID:             plan.VSwitchID.ValueString(),
		})
		if err != nil {
			resp.Diagnostics.AddError("Error cloning RDS instance",
				fmt.Sprintf("CloneDBInstance from %s failed: %v", restore.SourceInstanceID.ValueString(), err))
			return
		}
		id = out.DBInstanceID
	} else {
		createReq := &rdsapi.CreateDBInstanceRequest{
			RegionID:              r.data.Region,
			ZoneID:                plan.ZoneID.ValueString(),
			Engine:                plan.Engine.ValueString(),
			EngineVersion:         plan.EngineVersion.ValueString(),
			DBInstanceClass:       plan.InstanceType.ValueString(),
			DBInstanceStorage:     plan.Storage.ValueInt64(),
			DBInstanceStorageType: plan.StorageType.ValueString(),
			Category:              plan.Category.ValueString(),
			PayType:               rdsapi.PayTypePostpaid,
			DBInstanceNetType:     rdsapi.NetTypeIntranet,
			InstanceNetworkType:   networkType(plan),
			VPCID:                 plan.VpcID.ValueString(),
			VSwitchID:             plan.VSwitchID.ValueString(),
			SecurityIPList:        strings.Join(setStrings(ctx, plan.SecurityIPs, &resp.Diagnostics), ","),
			DBInstanceDescription: plan.InstanceName.ValueString(),
			DeletionProtection:    plan.DeletionProtection.ValueBool(),
		}
		// The provider's computed default goes out explicitly, so the result never depends on
		// the server's default (spec rule 4). Other engines have no such setting.
		if isMySQL(plan.Engine.ValueString()) && wantFlag != nil {
			createReq.OptimizedWrites = optimizedWrites(*wantFlag)
		}
		if bpe := plan.BufferPoolExtension; !bpe.IsNull() && !bpe.IsUnknown() &&
			(bpe.ValueBool() || strings.EqualFold(plan.StorageType.ValueString(), "general_essd")) {
			createReq.IoAccelerationEnabled = switchValue(bpe.ValueBool())
		}
		if resp.Diagnostics.HasError() {
			return
		}
		out, err := r.data.API.CreateDBInstance(ctx, createReq)
		if err != nil {
			resp.Diagnostics.AddError("Error creating RDS instance", fmt.Sprintf("CreateDBInstance failed: %v", err))
			return
		}
		id = out.DBInstanceID
	}
	if id == "" {
		resp.Diagnostics.AddError("Error creating RDS instance", "the cloud accepted the request but returned no DBInstanceId")
		return
	}
	tflog.Info(ctx, "RDS instance accepted by the cloud", map[string]any{"id": id})

	// Record the instance now: if a wait below fails, Terraform keeps it as tainted instead of
	// losing track of a billed instance.
	plan.ID = types.StringValue(id)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.knownOrNull())...)
	if resp.Diagnostics.HasError() {
		return
	}

	var attr *rdsapi.DBInstanceAttribute
	var err error
	if wantFlag != nil && isMySQL(plan.Engine.ValueString()) && restore == nil {
		attr, err = r.data.Waiter.WaitRunningWithFlag(ctx, id, *wantFlag)
	} else {
		attr, err = r.data.Waiter.WaitRunning(ctx, id)
	}
	if err != nil {
		resp.Diagnostics.AddError("Error waiting for RDS instance to be created",
			fmt.Sprintf("Instance %s was created but did not become ready: %v. It is recorded in state and will be "+
				"replaced on the next apply (tainted).", id, err))
		return
	}

	// A clone starts with its source's settings; bring the rest in line with the plan.
	if restore != nil {
		attr, err = r.alignClone(ctx, id, attr, plan, wantFlag)
		if err != nil {
			resp.Diagnostics.AddError("Error configuring cloned RDS instance",
				fmt.Sprintf("Instance %s was cloned but could not be configured as planned: %v. It is recorded in state "+
					"and will be replaced on the next apply (tainted).", id, err))
			return
		}
	}

	pd, d := r.data.decideParameters(ctx, newInstanceParameterInputs(plan, plan, wantFlag))
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.data.applyParameters(ctx, id, pd, false); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Error setting RDS instance parameters",
			fmt.Sprintf("Instance %s was created but its parameters could not be set: %v. It is recorded in state and will be "+
				"replaced on the next apply (tainted).", id, err))
		return
	}
	if len(pd.plan.Send) > 0 {
		if attr, err = r.data.Waiter.WaitRunning(ctx, id); err != nil {
			resp.Diagnostics.AddError("Error reading RDS instance after setting parameters", err.Error())
			return
		}
	}
	r.writeState(ctx, attr, &plan, &resp.Diagnostics)
	plan.Parameters, plan.ParametersPending = readParameters(ctx, r.data.API, id, plan.Parameters, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Read refreshes the state with one DescribeDBInstanceAttribute, plus one DescribeParameters when
// parameters are managed.
func (r *instanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state instanceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.ID.ValueString()
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
		resp.Diagnostics.AddError("Not a primary instance",
			fmt.Sprintf("Instance %s is a read-only instance of %s. Manage it with rds_readonly_instance instead of rds_instance.", id, attr.MasterInstanceID))
		return
	}
	if state.PreventRestart.IsNull() || state.PreventRestart.IsUnknown() {
		state.PreventRestart = types.BoolValue(false)
	}
	r.writeState(ctx, attr, &state, &resp.Diagnostics)
	state.Parameters, state.ParametersPending = readParameters(ctx, r.data.API, id, state.Parameters, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update sends every spec change in one ModifyDBInstanceSpec (one restart), waits for Running
// and the planned flag, then applies the changes that need no restart; one deadline for all.
func (r *instanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config instanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	budget, d := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	id := state.ID.ValueString()

	an, d := r.analyzeUpdate(ctx, state, plan, config)
	pd, pdDiags := r.data.decideParameters(ctx, existingParameterInputs(state, config, an.flag))
	d.Append(pdDiags...)
	if d.HasError() {
		resp.Diagnostics.Append(errorsOnly(d)...)
		return
	}
	an.addParameters(pd)
	if an.needsRestart() && plan.PreventRestart.ValueBool() {
		// Only reachable when the plan could not know; the plan itself already refused.
		resp.Diagnostics.AddAttributeError(an.firstPath, restartRefusedSummary, an.restartDetail())
		return
	}

	// Parameters first: when a spec change follows, its restart applies the ones that need one.
	if err := r.data.applyParameters(ctx, id, pd, an.specChanges()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Error setting RDS instance parameters", err.Error())
		return
	}
	var attr *rdsapi.DBInstanceAttribute
	var err error
	if an.specChanges() {
		specReq := &rdsapi.ModifyDBInstanceSpecRequest{
			DBInstanceID:      id,
			DBInstanceClass:   plan.InstanceType.ValueString(),
			DBInstanceStorage: plan.Storage.ValueInt64(),
			PayType:           rdsapi.PayTypePostpaid,
			EffectiveTime:     rdsapi.EffectiveTimeImmediate,
		}
		if an.storageTypeChanged {
			specReq.DBInstanceStorageType = plan.StorageType.ValueString()
		}
		if an.flagChanged {
			specReq.OptimizedWrites = optimizedWrites(*an.flag)
		}
		if an.bpeChanged {
			specReq.IoAccelerationEnabled = switchValue(*an.bpe)
		}
		var want *bool
		if isMySQL(state.Engine.ValueString()) && an.flag != nil {
			want = an.flag
		}
		tflog.Info(ctx, "modifying RDS instance spec (one restart)", map[string]any{"id": id, "reasons": strings.Join(an.reasons, "; ")})
		attr, err = rdsservice.ApplySpecChange(ctx, r.data.API, r.data.Waiter, id, specReq, want)
		if err != nil {
			resp.Diagnostics.AddError("Error modifying RDS instance", err.Error())
			return
		}
		if attr, err = rdsservice.WaitParametersRunning(ctx, r.data.API, r.data.Waiter, id, pd.plan.Send); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Error waiting for RDS instance parameters", err.Error())
			return
		}
		// The cloud turns the flag on for the read-only instances the plan named; the apply is done
		// when they are back too, so nothing after it meets them mid-restart.
		for _, follower := range an.followers {
			if _, err := r.data.Waiter.WaitRunningWithFlag(ctx, follower, true); err != nil {
				resp.Diagnostics.AddError("Error waiting for a read-only instance to follow its primary",
					fmt.Sprintf("%s turned on 16K atomic write, which the cloud passes on to its read-only instance %s: %v", id, follower, err))
				return
			}
		}
	}

	if !plan.InstanceName.IsUnknown() && !plan.InstanceName.Equal(state.InstanceName) {
		err = r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifyDBInstanceDescription(ctx, id, plan.InstanceName.ValueString())
		})
		if err != nil {
			resp.Diagnostics.AddError("Error renaming RDS instance", fmt.Sprintf("ModifyDBInstanceDescription %s: %v", id, err))
			return
		}
	}
	if !plan.SecurityIPs.IsUnknown() && !plan.SecurityIPs.Equal(state.SecurityIPs) {
		ips := setStrings(ctx, plan.SecurityIPs, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		err = r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{
				DBInstanceID:          id,
				SecurityIps:           strings.Join(ips, ","),
				DBInstanceIPArrayName: rdsapi.DefaultSecurityIPArray,
			})
		})
		if err != nil {
			resp.Diagnostics.AddError("Error changing RDS instance security IPs", fmt.Sprintf("ModifySecurityIps %s: %v", id, err))
			return
		}
	}
	if !plan.DeletionProtection.IsUnknown() && !plan.DeletionProtection.Equal(state.DeletionProtection) {
		err = r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifyDBInstanceDeletionProtection(ctx, id, plan.DeletionProtection.ValueBool())
		})
		if err != nil {
			resp.Diagnostics.AddError("Error changing RDS instance deletion protection",
				fmt.Sprintf("ModifyDBInstanceDeletionProtection %s: %v", id, err))
			return
		}
	}

	if attr == nil || !an.specChanges() {
		attr, err = r.data.Waiter.WaitRunning(ctx, id)
	} else {
		attr, err = r.data.API.DescribeDBInstanceAttribute(ctx, id)
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS instance after update", err.Error())
		return
	}
	r.writeState(ctx, attr, &plan, &resp.Diagnostics)
	plan.Parameters, plan.ParametersPending = readParameters(ctx, r.data.API, id, plan.Parameters, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Delete deletes the instance and waits until it is gone; not found counts as deleted.
func (r *instanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state instanceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id := state.ID.ValueString()
	if state.DeletionProtection.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("deletion_protection"), deletionProtectedSummary, deletionProtectedDetail(id))
		return
	}
	budget, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()

	deleteAndWait(ctx, r.data, id, &resp.Diagnostics)
}

// ImportState imports an instance by id; Read fills in the rest.
func (r *instanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if id == "" {
		resp.Diagnostics.AddError("Invalid import id", "Import an rds_instance by its instance id, e.g. `terraform import rds_instance.db rm-bp1example`.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("prevent_restart"), false)...)
}

// ValidateConfig checks what the configuration alone decides. Unknown values are skipped here;
// Terraform validates again during plan and apply once they are known.
func (r *instanceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config instanceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(validateConfigModel(ctx, config)...)
}

// ModifyPlan adds what needs prior state or the API: the planned 16K atomic write value, the
// eligibility and class checks, and the restart warning (an error with prevent_restart).
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		// Destroy: refuse at plan time what the cloud will refuse at apply time.
		var state instanceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if !resp.Diagnostics.HasError() && state.DeletionProtection.ValueBool() {
			resp.Diagnostics.AddAttributeError(path.Root("deletion_protection"), deletionProtectedSummary, deletionProtectedDetail(state.ID.ValueString()))
		}
		return
	}
	if !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw) {
		// Nothing changes: nothing to predict and nothing restarts. Most resources of a large plan
		// end here, before decoding three copies of the model.
		return
	}
	var plan, config instanceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.data == nil {
		// The provider is not configured yet (unknown provider configuration); apply checks again.
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	defer cancel()

	if req.State.Raw.IsNull() {
		an, d := r.analyzeCreate(lookupCtx, config, plan)
		resp.Diagnostics.Append(d...)
		plan.AtomicWrite16K = boolOrUnknown(an.flag)
		plan.AtomicWrite16KSupported = boolOrUnknown(an.supported)
		if config.BufferPoolExtension.IsNull() {
			plan.BufferPoolExtension = types.BoolValue(false)
		}
		if isKnown(plan.InstanceType) {
			plan.InstructionSetArch = types.StringValue(rdsservice.Architecture(plan.InstanceType.ValueString()))
		}
		plan.ReadOnlyInstanceIDs = types.ListValueMust(types.StringType, nil)
		pd, d := r.data.decideParameters(lookupCtx, newInstanceParameterInputs(plan, config, an.flag))
		resp.Diagnostics.Append(d...)
		plan.ParametersPending = pd.plannedPending(pd.restarts(), &resp.Diagnostics)
		addCreateParameterRestart(&resp.Diagnostics, pd, "the new instance "+instanceLabel(plan), plan.Category.ValueString(), false, plan.PreventRestart.ValueBool())
		resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
		return
	}

	var state instanceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(resp.RequiresReplace) > 0 {
		// Terraform plans the replacement as a create in a second call; here only the delete half
		// matters.
		if state.DeletionProtection.ValueBool() {
			resp.Diagnostics.AddAttributeError(path.Root("deletion_protection"), deletionProtectedSummary,
				deletionProtectedDetail(state.ID.ValueString())+" This plan replaces the instance, which deletes the current one.")
		}
		return
	}

	an, d := r.analyzeUpdate(lookupCtx, state, plan, config)
	resp.Diagnostics.Append(d...)
	pd, d := r.data.decideParameters(lookupCtx, existingParameterInputs(state, config, an.flag))
	resp.Diagnostics.Append(d...)
	an.addParameters(pd)
	plan.ParametersPending = pd.plannedPending(an.needsRestart(), &resp.Diagnostics)
	plan.AtomicWrite16K = boolOrUnknown(an.flag)
	plan.BufferPoolExtension = boolOrUnknown(an.bpe)
	plan.AtomicWrite16KSupported = boolOrUnknown(an.supported)
	switch {
	case !isKnown(plan.InstanceType):
		plan.InstructionSetArch = types.StringUnknown()
	case an.classChanged:
		plan.InstructionSetArch = types.StringValue(rdsservice.Architecture(plan.InstanceType.ValueString()))
	default:
		plan.InstructionSetArch = state.InstructionSetArch
	}
	if !an.anyChange(state, plan) && len(pd.plan.Send) == 0 {
		// Nothing changes: keep every computed value, so the plan is empty.
		plan.Status = state.Status
	}
	if an.needsRestart() || an.mayRestart() {
		if plan.PreventRestart.ValueBool() && an.needsRestart() {
			resp.Diagnostics.AddAttributeError(an.firstPath, restartRefusedSummary, an.restartDetail())
		} else {
			summary, detail := an.restartWarning()
			resp.Diagnostics.AddAttributeWarning(an.firstPath, summary, detail)
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// ---- plan analysis, shared by ModifyPlan and apply ----

const restartRefusedSummary = "Plan restarts RDS instances but prevent_restart is true"

// createAnalysis is what the plan predicts for a new instance.
type createAnalysis struct {
	flag      *bool // planned atomic_write_16k; nil = unknown until apply
	supported *bool // planned atomic_write_16k_supported
}

// analyzeCreate predicts 16K atomic write for a new instance or a clone and checks the class.
// config is the configuration (to tell "unset" from a value); plan carries defaults.
func (r *instanceResource) analyzeCreate(ctx context.Context, config, plan instanceModel) (createAnalysis, diag.Diagnostics) {
	var diags diag.Diagnostics
	var an createAnalysis
	explicit := isKnown(config.AtomicWrite16K)
	if explicit {
		an.flag = ptr(config.AtomicWrite16K.ValueBool())
	}

	restore := plan.restoreFrom(ctx, &diags)
	switch {
	case restore != nil:
		if !isKnown(restore.SourceInstanceID) {
			break
		}
		srcID := restore.SourceInstanceID.ValueString()
		src, err := r.data.API.DescribeDBInstanceAttribute(ctx, srcID)
		if err != nil {
			diags.AddAttributeError(path.Root("restore_from").AtName("source_instance_id"), "Cannot read the restore source",
				fmt.Sprintf("DescribeDBInstanceAttribute %s: %v. restore_from.source_instance_id must name an existing instance.", srcID, err))
			return an, diags
		}
		inherited := src.OptimizedWrites != nil && src.OptimizedWrites.Enabled
		an.supported = ptr(src.OptimizedWrites != nil && src.OptimizedWrites.Supported)
		if !explicit {
			an.flag = ptr(inherited)
			break
		}
		if *an.flag == inherited {
			break
		}
		// A different explicit value: one toggle right after the clone is ready.
		cur, err := rdsservice.ExistingFromAttribute(src)
		if err != nil {
			diags.AddError("Unexpected answer for the restore source", err.Error())
			return an, diags
		}
		cur.ID = "the clone of " + srcID
		cur.MasterID, cur.MasterEnabled = "", nil
		for _, p := range rdsservice.CheckToggle(cur, *an.flag, rdsservice.SpecChange{
			InstanceClass: stringIfKnown(plan.InstanceType), StorageType: stringIfKnown(plan.StorageType),
		}) {
			diags.AddAttributeError(path.Root(rdsservice.AttrAtomicWrite), p.Summary, p.Detail)
		}
		if diags.HasError() {
			return an, diags
		}
		restart := rdsservice.Restart{
			InstanceID: "the new clone of " + srcID,
			Reasons:    []string{fmt.Sprintf("it inherits atomic_write_16k = %t from %s and is toggled to %t right after creation", inherited, srcID, *an.flag)},
			Downtime:   rdsservice.ExpectedDowntime(plan.Category.ValueString(), false),
		}
		summary, detail := rdsservice.RestartWarning([]rdsservice.Restart{restart})
		if plan.PreventRestart.ValueBool() {
			diags.AddAttributeError(path.Root("atomic_write_16k"), restartRefusedSummary, detail)
		} else {
			diags.AddAttributeWarning(path.Root("atomic_write_16k"), summary, detail)
		}
	default:
		spec, ok := newSpec(plan)
		if !ok {
			break
		}
		eligible := len(rdsservice.EligibleForNew(spec)) == 0
		an.supported = ptr(eligible)
		if !explicit {
			an.flag = ptr(rdsservice.DefaultAtomicWrite(spec))
		}
	}
	diags.Append(r.checkClass(ctx, plan, nil)...)
	return an, diags
}

// updateAnalysis is what the plan predicts for a change of an existing instance.
type updateAnalysis struct {
	flag, bpe, supported *bool

	classChanged, storageChanged, storageTypeChanged, flagChanged, bpeChanged bool
	// reasons say why the instance restarts; unknowns name restart attributes not known yet.
	reasons   []string
	unknowns  []string
	followers []string
	firstPath path.Path
	instance  string
	category  string
}

func (a updateAnalysis) specChanges() bool {
	return a.classChanged || a.storageChanged || a.storageTypeChanged || a.flagChanged || a.bpeChanged
}
func (a updateAnalysis) needsRestart() bool { return len(a.reasons) > 0 }
func (a updateAnalysis) mayRestart() bool   { return len(a.unknowns) > 0 }

func (a updateAnalysis) anyChange(state, plan instanceModel) bool {
	return a.specChanges() || a.mayRestart() || !plan.InstanceName.Equal(state.InstanceName) ||
		!plan.SecurityIPs.Equal(state.SecurityIPs) || !plan.DeletionProtection.Equal(state.DeletionProtection)
}

func (a updateAnalysis) restarts() []rdsservice.Restart {
	var out []rdsservice.Restart
	reasons := a.reasons
	if len(reasons) == 0 {
		reasons = []string{"may restart: " + strings.Join(a.unknowns, ", ") + " known only at apply"}
	}
	out = append(out, rdsservice.Restart{InstanceID: a.instance, Reasons: reasons, Downtime: rdsservice.ExpectedDowntime(a.category, false)})
	for _, ro := range a.followers {
		out = append(out, rdsservice.Restart{
			InstanceID: ro + " (read-only instance)",
			Reasons:    []string{"follows its primary turning atomic_write_16k on"},
			Downtime:   rdsservice.ExpectedDowntime("", true),
		})
	}
	return out
}

func (a updateAnalysis) restartWarning() (string, string) {
	summary, detail := rdsservice.RestartWarning(a.restarts())
	if !a.needsRestart() {
		summary = "This apply may restart RDS instance " + a.instance
		detail += " The restart attributes are checked again at apply time with their real values."
	}
	return summary, detail
}

// addParameters joins the parameter decision to the restart decision: restart-needing parameters
// restart the instance (once, with any spec change), and a restart for any reason also applies the
// parameters already waiting for one.
func (a *updateAnalysis) addParameters(d parameterDecision) {
	if d.managed && d.unknown {
		a.unknowns = append(a.unknowns, "parameters")
	}
	reasons := d.reasons(a.needsRestart() || d.restarts())
	a.reasons = append(a.reasons, reasons...)
	if (len(reasons) > 0 || (d.managed && d.unknown)) && len(a.firstPath.Steps()) == 0 {
		a.firstPath = path.Root("parameters")
	}
}

func (a updateAnalysis) restartDetail() string {
	_, detail := rdsservice.RestartWarning(a.restarts())
	return detail + " prevent_restart is true, so this plan is refused: revert the change, or set prevent_restart = false to allow the restart."
}

// analyzeUpdate predicts the planned flag and Buffer Pool Extension, checks the change against
// the 16K rules and the class catalogue, and works out which instances restart. ModifyPlan shows
// its diagnostics; Update runs it again and stops on its errors before sending anything.
func (r *instanceResource) analyzeUpdate(ctx context.Context, state, plan, config instanceModel) (updateAnalysis, diag.Diagnostics) {
	var diags diag.Diagnostics
	an := updateAnalysis{
		instance: instanceLabel(state),
		category: state.Category.ValueString(),
	}
	cur := existingFromInstanceState(state)
	change := rdsservice.SpecChange{}
	trigger := func(name string, unknown bool, changed *bool, differs bool) {
		if unknown {
			an.unknowns = append(an.unknowns, name)
			if len(an.firstPath.Steps()) == 0 {
				an.firstPath = path.Root(name)
			}
			return
		}
		*changed = differs
		if differs && len(an.firstPath.Steps()) == 0 {
			an.firstPath = path.Root(name)
		}
	}
	trigger("instance_type", plan.InstanceType.IsUnknown(), &an.classChanged, plan.InstanceType.ValueString() != state.InstanceType.ValueString())
	trigger("storage", plan.Storage.IsUnknown(), &an.storageChanged, plan.Storage.ValueInt64() != state.Storage.ValueInt64())
	trigger("storage_type", plan.StorageType.IsUnknown(), &an.storageTypeChanged, plan.StorageType.ValueString() != state.StorageType.ValueString())
	if an.classChanged {
		change.InstanceClass = plan.InstanceType.ValueString()
	}
	if an.storageTypeChanged {
		change.StorageType = plan.StorageType.ValueString()
	}
	if an.storageChanged {
		change.Storage = plan.Storage.ValueInt64()
	}
	changeKnown := !plan.InstanceType.IsUnknown() && !plan.StorageType.IsUnknown()

	// atomic_write_16k: the configured value, else the current one unless the change makes the
	// instance ineligible.
	switch {
	case isKnown(config.AtomicWrite16K):
		an.flag = ptr(config.AtomicWrite16K.ValueBool())
	case config.AtomicWrite16K.IsUnknown() || !changeKnown:
		an.flag = nil
	default:
		an.flag = ptr(cur.Enabled)
		if cur.Enabled && (an.classChanged || an.storageTypeChanged) && !rdsservice.PredictSupportedAfter(cur, change) {
			an.flag = ptr(false)
			diags.AddAttributeWarning(an.firstPath, "16K atomic write will be turned off",
				fmt.Sprintf("Instance %s has atomic_write_16k = true, but after this change (%s) it is no longer eligible, so the "+
					"same spec change turns 16K atomic write off. Keep the current instance_type/storage_type to keep it, or set "+
					"atomic_write_16k = false to acknowledge.", an.instance, describeChange(state, plan)))
		}
	}
	if an.flag == nil {
		an.unknowns = append(an.unknowns, "atomic_write_16k")
		if len(an.firstPath.Steps()) == 0 {
			an.firstPath = path.Root("atomic_write_16k")
		}
	} else {
		an.flagChanged = *an.flag != cur.Enabled && isMySQL(cur.Engine)
		if an.flagChanged && len(an.firstPath.Steps()) == 0 {
			an.firstPath = path.Root("atomic_write_16k")
		}
	}
	if changeKnown {
		an.supported = ptr(cur.Supported)
		if an.classChanged || an.storageTypeChanged {
			// Unknown when only the product-type history, which the API does not show, decides.
			if supported, known := rdsservice.PredictSupportedAfterKnown(cur, change); known {
				an.supported = ptr(supported)
			} else {
				an.supported = nil
			}
		}
	}

	// Rule checks for the planned flag (only when something that matters changes).
	if an.flag != nil && changeKnown && (an.flagChanged || (*an.flag && (an.classChanged || an.storageTypeChanged))) {
		for _, p := range rdsservice.CheckToggle(cur, *an.flag, change) {
			diags.AddAttributeError(problemPath(p), p.Summary, p.Detail)
		}
		for _, p := range rdsservice.ToggleWarnings(cur, *an.flag, change) {
			diags.AddAttributeWarning(problemPath(p), p.Summary, p.Detail)
		}
	}

	// Buffer Pool Extension: the configured value, else the current one (off when the storage
	// type no longer allows it).
	switch {
	case isKnown(config.BufferPoolExtension):
		an.bpe = ptr(config.BufferPoolExtension.ValueBool())
	case config.BufferPoolExtension.IsUnknown() || plan.StorageType.IsUnknown():
		an.bpe = nil
	default:
		an.bpe = ptr(state.BufferPoolExtension.ValueBool())
		if *an.bpe && !strings.EqualFold(plan.StorageType.ValueString(), "general_essd") {
			an.bpe = ptr(false)
		}
	}
	if an.bpe == nil {
		an.unknowns = append(an.unknowns, "buffer_pool_extension")
	} else {
		an.bpeChanged = *an.bpe != state.BufferPoolExtension.ValueBool()
		if an.bpeChanged && len(an.firstPath.Steps()) == 0 {
			an.firstPath = path.Root("buffer_pool_extension")
		}
		if isKnown(plan.StorageType) {
			for _, p := range rdsservice.CheckBufferPoolExtension(plan.StorageType.ValueString(), *an.bpe) {
				diags.AddAttributeError(problemPath(p), p.Summary, p.Detail)
			}
		}
	}

	// Why the instance restarts: every spec change is one ModifyDBInstanceSpec, one restart.
	var wantFlag *bool
	if an.flagChanged {
		wantFlag = an.flag
	}
	an.reasons = rdsservice.SpecChangeRestarts(cur, wantFlag, change)
	if an.bpeChanged {
		an.reasons = append(an.reasons, fmt.Sprintf("buffer_pool_extension changes from %t to %t", state.BufferPoolExtension.ValueBool(), *an.bpe))
	}

	// Turning a primary on turns on its read-only instances that have it off (one restart each).
	if an.flagChanged && *an.flag && !diags.HasError() {
		followers, err := r.followingReadOnly(ctx, state.ID.ValueString())
		if err != nil {
			diags.AddWarning("Cannot list the read-only instances that will restart",
				fmt.Sprintf("Turning on 16K atomic write for %s also turns it on (with a restart) for its read-only instances that "+
					"have it off, but they could not be read: %v.", an.instance, err))
		}
		an.followers = followers
	}

	if an.classChanged || an.storageTypeChanged {
		diags.Append(r.checkClass(ctx, plan, &state)...)
	}
	return an, diags
}

// followingReadOnly reads the primary, then each of its read-only instances, and returns those
// that have 16K atomic write off.
func (r *instanceResource) followingReadOnly(ctx context.Context, primaryID string) ([]string, error) {
	primary, err := r.data.API.DescribeDBInstanceAttribute(ctx, primaryID)
	if err != nil {
		return nil, err
	}
	var ros []rdsservice.ExistingInstance
	var errs []error
	for _, roID := range primary.ReadOnlyDBInstanceIDs {
		attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, roID)
		if rdsapi.IsNotFound(err) {
			continue
		}
		if err != nil {
			// Name it anyway: better a warning that is too broad than a silent restart.
			errs = append(errs, err)
			ros = append(ros, rdsservice.ExistingInstance{ID: roID, Supported: true})
			continue
		}
		ro := rdsservice.ExistingInstance{ID: roID}
		if info := attr.OptimizedWrites; info != nil {
			ro.Enabled, ro.Supported = info.Enabled, info.Supported
		}
		ros = append(ros, ro)
	}
	current := primary.OptimizedWrites != nil && primary.OptimizedWrites.Enabled
	return rdsservice.FollowingReadOnly(current, true, ros), errors.Join(errs...)
}

// checkClass checks instance_type (and storage) against DescribeAvailableClasses. A failed
// lookup is a warning: the cloud checks again when the order goes out.
func (r *instanceResource) checkClass(ctx context.Context, plan instanceModel, state *instanceModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if !isKnown(plan.Engine) || !isKnown(plan.EngineVersion) || !isKnown(plan.StorageType) || !isKnown(plan.Category) || !isKnown(plan.InstanceType) {
		return diags
	}
	zone := stringIfKnown(plan.ZoneID)
	if state != nil && zone == "" {
		zone = state.ZoneID.ValueString()
	}
	out, err := r.data.classes.offered(ctx, r.data.API, rdsapi.DescribeAvailableClassesRequest{
		RegionID:              r.data.Region,
		ZoneID:                zone,
		Engine:                plan.Engine.ValueString(),
		EngineVersion:         plan.EngineVersion.ValueString(),
		DBInstanceStorageType: plan.StorageType.ValueString(),
		Category:              plan.Category.ValueString(),
		InstanceChargeType:    rdsapi.PayTypePostpaid,
	})
	if err != nil {
		if rdsapi.ErrorCode(err) == "" || rdsapi.IsThrottled(err) || rdsapi.IsTransient(err) || rdsapi.IsBusy(err) {
			diags.AddAttributeWarning(path.Root("instance_type"), "Cannot check the instance type",
				fmt.Sprintf("DescribeAvailableClasses failed: %v. The instance type is checked by the cloud at apply time instead.", err))
			return diags
		}
		// A definite refusal of the combination itself: the create would be refused the same way.
		diags.AddAttributeError(refusedAttribute(err), "The cloud refuses this combination",
			fmt.Sprintf("DescribeAvailableClasses refused engine %q, engine_version %q, category %q, storage_type %q%s: %v. "+
				"Correct the value the cloud names.", plan.Engine.ValueString(), plan.EngineVersion.ValueString(),
				plan.Category.ValueString(), plan.StorageType.ValueString(), inZone(zone), err))
		return diags
	}
	want := plan.InstanceType.ValueString()
	var names []string
	for _, c := range out.DBInstanceClasses {
		names = append(names, c.DBInstanceClass)
		if c.DBInstanceClass != want {
			continue
		}
		rng := c.DBInstanceStorageRange
		size := plan.Storage.ValueInt64()
		if isKnown(plan.Storage) && rng.MaxValue > 0 && (size < int64(rng.MinValue) || size > int64(rng.MaxValue) ||
			(rng.Step > 0 && (size-int64(rng.MinValue))%int64(rng.Step) != 0)) {
			diags.AddAttributeError(path.Root("storage"), "Storage size not offered for this instance type",
				fmt.Sprintf("instance_type %q with storage_type %q takes %d to %d GB in steps of %d; got %d. Choose a size in that range.",
					want, plan.StorageType.ValueString(), rng.MinValue, rng.MaxValue, max(int64(rng.Step), 1), size))
		}
		return diags
	}
	diags.AddAttributeError(path.Root("instance_type"), "Instance type not offered",
		fmt.Sprintf("instance_type %q is not offered for %s %s, category %s, storage_type %s%s. %s",
			want, plan.Engine.ValueString(), plan.EngineVersion.ValueString(), plan.Category.ValueString(), plan.StorageType.ValueString(),
			inZone(zone), closeMatches(want, names)))
	return diags
}

// alignClone brings a fresh clone to the planned flag, name, allow-list and deletion protection.
func (r *instanceResource) alignClone(ctx context.Context, id string, attr *rdsapi.DBInstanceAttribute, plan instanceModel, wantFlag *bool) (*rdsapi.DBInstanceAttribute, error) {
	var err error
	if wantFlag != nil && isMySQL(attr.Engine) && !rdsservice.FlagIs(attr, *wantFlag) {
		attr, err = rdsservice.ApplySpecChange(ctx, r.data.API, r.data.Waiter, id, &rdsapi.ModifyDBInstanceSpecRequest{
			DBInstanceClass:   attr.DBInstanceClass,
			DBInstanceStorage: int64(attr.DBInstanceStorage),
			PayType:           rdsapi.PayTypePostpaid,
			EffectiveTime:     rdsapi.EffectiveTimeImmediate,
			OptimizedWrites:   optimizedWrites(*wantFlag),
		}, wantFlag)
		if err != nil {
			return nil, err
		}
	}
	if name := plan.InstanceName.ValueString(); isKnown(plan.InstanceName) && name != "" && name != attr.DBInstanceDescription {
		if err := r.data.Waiter.RetryBusy(ctx, func() error { return r.data.API.ModifyDBInstanceDescription(ctx, id, name) }); err != nil {
			return nil, err
		}
	}
	var diags diag.Diagnostics
	ips := setStrings(ctx, plan.SecurityIPs, &diags)
	if len(ips) > 0 {
		if err := r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: strings.Join(ips, ","), DBInstanceIPArrayName: rdsapi.DefaultSecurityIPArray})
		}); err != nil {
			return nil, err
		}
	}
	if plan.DeletionProtection.ValueBool() != bool(attr.DeletionProtection) {
		if err := r.data.Waiter.RetryBusy(ctx, func() error {
			return r.data.API.ModifyDBInstanceDeletionProtection(ctx, id, plan.DeletionProtection.ValueBool())
		}); err != nil {
			return nil, err
		}
	}
	return r.data.Waiter.WaitRunning(ctx, id)
}

// writeState copies what the cloud reports into m. Inputs the cloud spells differently keep the
// configured spelling; a missing or malformed answer is an error, never raw text in state.
func (r *instanceResource) writeState(_ context.Context, a *rdsapi.DBInstanceAttribute, m *instanceModel, diags *diag.Diagnostics) {
	if a == nil {
		diags.AddError("Error reading RDS instance", "the cloud returned no instance attributes")
		return
	}
	m.ID = types.StringValue(a.DBInstanceID)
	m.Engine = keepSpelling(m.Engine, a.Engine)
	m.EngineVersion = keepSpelling(m.EngineVersion, string(a.EngineVersion))
	m.InstanceType = types.StringValue(a.DBInstanceClass)
	m.Storage = types.Int64Value(int64(a.DBInstanceStorage))
	m.StorageType = keepSpelling(m.StorageType, a.DBInstanceStorageType)
	m.Category = keepSpelling(m.Category, a.Category)
	m.ZoneID = types.StringValue(a.ZoneID)
	m.VpcID = types.StringValue(a.VpcID)
	m.VSwitchID = types.StringValue(a.VSwitchID)
	m.InstanceName = types.StringValue(a.DBInstanceDescription)
	m.DeletionProtection = types.BoolValue(bool(a.DeletionProtection))
	m.Status = types.StringValue(a.DBInstanceStatus)
	m.ConnectionString = types.StringValue(a.ConnectionString)
	m.CreationTime = types.StringValue(a.CreationTime)
	m.InstructionSetArch = attrArchitecture(a)
	m.Port = attrPort(a, diags)
	m.AtomicWrite16K, m.AtomicWrite16KSupported = attrAtomicWrite(a)
	m.BufferPoolExtension = types.BoolValue(switchOn(string(a.IoAccelerationEnabled)))
	m.SecurityIPs = stringSetValue(splitList(a.SecurityIPList), diags)
	m.ReadOnlyInstanceIDs = stringListValue(a.ReadOnlyDBInstanceIDs, diags)
	if m.RestoreFrom.IsUnknown() {
		m.RestoreFrom = types.ObjectNull(restoreFromAttrTypes)
	}
}

// validateConfigModel holds the checks ValidateConfig runs; a separate function so unit tests and
// apply share it.
func validateConfigModel(ctx context.Context, c instanceModel) diag.Diagnostics {
	var diags diag.Diagnostics
	storageType := c.StorageType
	if storageType.IsNull() {
		storageType = types.StringValue(defaultStorageType)
	}
	category := c.Category
	if category.IsNull() {
		category = types.StringValue(defaultCategory)
	}
	restoreSet := !c.RestoreFrom.IsNull()

	// atomic_write_16k = true needs MySQL 5.7/8.0 on ESSD: the config alone decides that.
	if isKnown(c.AtomicWrite16K) && c.AtomicWrite16K.ValueBool() && isKnown(c.Engine) && isKnown(c.EngineVersion) && isKnown(storageType) {
		for _, p := range rdsservice.EligibleForNew(rdsservice.NewInstanceSpec{
			Engine: c.Engine.ValueString(), EngineVersion: c.EngineVersion.ValueString(), StorageType: storageType.ValueString(),
			Category: category.ValueString(), InstanceClass: c.InstanceType.ValueString(),
		}) {
			diags.AddAttributeError(path.Root("atomic_write_16k"), p.Summary, p.Detail)
		}
	}
	if isKnown(c.BufferPoolExtension) && isKnown(storageType) {
		for _, p := range rdsservice.CheckBufferPoolExtension(storageType.ValueString(), c.BufferPoolExtension.ValueBool()) {
			diags.AddAttributeError(path.Root("buffer_pool_extension"), p.Summary, p.Detail)
		}
	}
	if restoreSet && !c.RestoreFrom.IsUnknown() {
		var rf restoreFromModel
		diags.Append(c.RestoreFrom.As(ctx, &rf, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
		if !rf.BackupID.IsUnknown() && !rf.RestoreTime.IsUnknown() {
			hasBackup := rf.BackupID.ValueString() != ""
			hasTime := rf.RestoreTime.ValueString() != ""
			if hasBackup == hasTime {
				diags.AddAttributeError(path.Root("restore_from"), "Invalid restore_from",
					"Set exactly one of restore_from.backup_id (a backup set id) and restore_from.restore_time (UTC yyyy-MM-ddTHH:mm:ssZ).")
			}
		}
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

func inZone(zone string) string {
	if zone == "" {
		return ""
	}
	return " in zone " + zone
}

func describeChange(state, plan instanceModel) string {
	var parts []string
	if plan.InstanceType.ValueString() != state.InstanceType.ValueString() {
		parts = append(parts, fmt.Sprintf("instance_type %q -> %q", state.InstanceType.ValueString(), plan.InstanceType.ValueString()))
	}
	if plan.StorageType.ValueString() != state.StorageType.ValueString() {
		parts = append(parts, fmt.Sprintf("storage_type %q -> %q", state.StorageType.ValueString(), plan.StorageType.ValueString()))
	}
	return strings.Join(parts, ", ")
}

func newSpec(m instanceModel) (rdsservice.NewInstanceSpec, bool) {
	if !isKnown(m.Engine) || !isKnown(m.EngineVersion) || !isKnown(m.StorageType) || !isKnown(m.Category) || !isKnown(m.InstanceType) {
		return rdsservice.NewInstanceSpec{}, false
	}
	return rdsservice.NewInstanceSpec{
		Engine: m.Engine.ValueString(), EngineVersion: m.EngineVersion.ValueString(), StorageType: m.StorageType.ValueString(),
		Category: m.Category.ValueString(), InstanceClass: m.InstanceType.ValueString(),
	}, true
}

// existingFromState describes the instance as the last refresh saw it.
func existingFromInstanceState(s instanceModel) rdsservice.ExistingInstance {
	inst := rdsservice.ExistingInstance{
		ID:            instanceLabel(s),
		Engine:        s.Engine.ValueString(),
		EngineVersion: s.EngineVersion.ValueString(),
		StorageType:   s.StorageType.ValueString(),
		Category:      s.Category.ValueString(),
		InstanceClass: s.InstanceType.ValueString(),
		Storage:       s.Storage.ValueInt64(),
		Architecture:  s.InstructionSetArch.ValueString(),
		Supported:     s.AtomicWrite16KSupported.ValueBool(),
		Enabled:       s.AtomicWrite16K.ValueBool(),
	}
	if t, err := rdsservice.ParseAPITime(s.CreationTime.ValueString()); err == nil {
		inst.CreationTime = t
	}
	return inst
}

// refusedAttribute maps the API parameter a refusal names to the attribute to fix.
func refusedAttribute(err error) path.Path {
	message := err.Error()
	for _, candidate := range []struct{ parameter, attribute string }{
		{"EngineVersion", "engine_version"}, {"DBInstanceStorageType", "storage_type"}, {"StorageType", "storage_type"},
		{"Category", "category"}, {"ZoneId", "zone_id"}, {"Engine", "engine"},
	} {
		if strings.Contains(message, candidate.parameter) {
			return path.Root(candidate.attribute)
		}
	}
	return path.Root("instance_type")
}

// closeMatches lists the offered classes closest to want (edit distance), at most five.
func closeMatches(want string, offered []string) string {
	if len(offered) == 0 {
		return "No class is offered for this combination; check engine_version, category and storage_type."
	}
	sorted := append([]string(nil), offered...)
	sort.SliceStable(sorted, func(i, j int) bool {
		di, dj := editDistance(want, sorted[i]), editDistance(want, sorted[j])
		if di != dj {
			return di < dj
		}
		return sorted[i] < sorted[j]
	})
	if len(sorted) > 5 {
		sorted = sorted[:5]
	}
	return "Close matches: " + strings.Join(sorted, ", ") + "."
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// newInstanceParameterInputs are the parameter facts of an instance the apply creates.
func newInstanceParameterInputs(plan, config instanceModel, atomicWrite *bool) parameterInputs {
	return parameterInputs{
		engine: stringIfKnown(plan.Engine), version: stringIfKnown(plan.EngineVersion), category: stringIfKnown(plan.Category),
		config: config.Parameters, state: types.MapNull(types.StringType), pending: types.MapNull(types.StringType),
		atomicWrite: atomicWrite,
	}
}

// existingParameterInputs are the parameter facts of an existing instance.
func existingParameterInputs(state, config instanceModel, atomicWrite *bool) parameterInputs {
	return parameterInputs{
		instanceID: state.ID.ValueString(), engine: state.Engine.ValueString(), version: state.EngineVersion.ValueString(),
		category: state.Category.ValueString(), config: config.Parameters, state: state.Parameters, pending: state.ParametersPending,
		atomicWrite: atomicWrite,
	}
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
	Category                types.String   `tfsdk:"category"`
	ZoneID                  types.String   `tfsdk:"zone_id"`
	VpcID                   types.String   `tfsdk:"vpc_id"`
	VSwitchID               types.String   `tfsdk:"vswitch_id"`
	InstanceName            types.String   `tfsdk:"instance_name"`
	SecurityIPs             types.Set      `tfsdk:"security_ips"`
	DeletionProtection      types.Bool     `tfsdk:"deletion_protection"`
	AtomicWrite16K          types.Bool     `tfsdk:"atomic_write_16k"`
	BufferPoolExtension     types.Bool     `tfsdk:"buffer_pool_extension"`
	PreventRestart          types.Bool     `tfsdk:"prevent_restart"`
	RestoreFrom             types.Object   `tfsdk:"restore_from"`
	Timeouts                timeouts.Value `tfsdk:"timeouts"`
	Status                  types.String   `tfsdk:"status"`
	ConnectionString        types.String   `tfsdk:"connection_string"`
	Port                    types.Int64    `tfsdk:"port"`
	CreationTime            types.String   `tfsdk:"creation_time"`
	InstructionSetArch      types.String   `tfsdk:"instruction_set_arch"`
	AtomicWrite16KSupported types.Bool     `tfsdk:"atomic_write_16k_supported"`
	ReadOnlyInstanceIDs     types.List     `tfsdk:"read_only_instance_ids"`
	Parameters              types.Map      `tfsdk:"parameters"`
	ParametersPending       types.Map      `tfsdk:"parameters_pending"`
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
	for _, v := range []*types.String{&out.ZoneID, &out.VpcID, &out.VSwitchID, &out.InstanceName, &out.Status,
		&out.ConnectionString, &out.CreationTime, &out.InstructionSetArch} {
		nullString(v)
	}
	for _, v := range []*types.Bool{&out.AtomicWrite16K, &out.AtomicWrite16KSupported, &out.BufferPoolExtension} {
		nullBool(v)
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
	return out
}
