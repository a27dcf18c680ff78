package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

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
				PlanModifiers: requiresReplace(rdsservice.ResourceInstance, rdsservice.AttrEngine),
			},
			"engine_version": engineVersionAttribute(),
			"instance_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Instance class (`DBInstanceClass`), e.g. `mysql.n2.medium.2c` (x86) or `mysql.n2m.medium.2c` " +
					"(YiTian, arm). The plan checks it against the classes the region offers for the engine, version, category " +
					"and storage type. Moving an instance bought before 2025-05-14 between " +
					"x86 and YiTian classes makes it lose 16K atomic write for good. " + instanceTypeEffect,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"storage": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "Storage in GB: at least 20, in steps of 5. " + rdsservice.StorageChangeEffect() + " " + storageReplaceEffect,
				Validators:          []validator.Int64{int64validator.AtLeast(20), multipleOf(5)},
			},
			"storage_type": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(defaultStorageType),
				MarkdownDescription: "Storage type: `cloud_essd` (default), `cloud_essd2`, `cloud_essd3`, `general_essd`, `cloud_ssd` " +
					"or `local_ssd`. 16K atomic write needs an ESSD type (`cloud_essd*` or `general_essd`); " +
					"`buffer_pool_extension` needs `general_essd`. " + storageTypeEffect,
				Validators: []validator.String{stringvalidator.OneOf(storageTypes...)},
			},
			"category": categoryAttribute(),
			"vpc_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "VPC of the instance. Changing it creates a new instance.",
				PlanModifiers:       append([]planmodifier.String{stringplanmodifier.UseStateForUnknown()}, requiresReplace(rdsservice.ResourceInstance, "vpc_id")...),
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
					"replacement. A restart that depends on a value known only at apply (an `instance_type` computed from a " +
					"resource created in the same run, a clone of a source created in it) is refused as a certain one. " +
					"Unlike `lifecycle { prevent_destroy = true }`, it also refuses restarts. Default false.",
			},
			"restore_from": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "Create the instance as a clone (`CloneDBInstance`) of a backup or a point in time of " +
					"another instance. The clone inherits the source's `atomic_write_16k`; setting a different value costs one " +
					"toggle (one restart) right after creation, which the plan announces (as possible when the source or its backup " +
					"is created in the same run; `prevent_restart = true` refuses it then too). Changing it creates a new instance.",
				PlanModifiers: requiresReplaceObject(rdsservice.ResourceInstance, rdsservice.AttrRestoreFrom),
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
					"cross_region_backup_id": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "A cross-region backup of `source_instance_id` to restore (`cross_backup_id` of data source " +
							"`rds_cross_region_backups`), instead of `backup_id` or `restore_time`: `CreateDdrInstance` creates the instance in " +
							"the region that holds the copy, which must be this resource's provider's region (an aliased provider; checked at " +
							"plan, with the copy read there). Needs `source_region`. The source may be released (local-disk instances keep their copies).",
					},
					"source_region": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Region of `source_instance_id`, for `cross_region_backup_id` only.",
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
					"`storage` is allowed, and a `billing` change beside the growth is sent once the growth has lifted the lock (about 5 minutes).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"connection_string": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Internal connection address.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"port": portAttribute(),
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
	resp.Schema.Attributes["parameter_group_id"] = parameterGroupIDAttribute()
	resp.Schema.Attributes["parameter_group_values"] = parameterGroupValuesAttribute()
	resp.Schema.Attributes[rdsservice.AttrMonitoringPeriod] = monitoringPeriodAttribute()
	resp.Schema.Attributes[rdsservice.AttrHAConfig] = haConfigAttribute()
	resp.Schema.Attributes[rdsservice.AttrSyncMode] = syncModeAttribute()
	maps.Copy(resp.Schema.Attributes, securityAttributes())
	maps.Copy(resp.Schema.Attributes, minorVersionAttributes())
	maps.Copy(resp.Schema.Attributes, zoneAttributes())
	addTagAttributes(resp.Schema.Attributes)
	maps.Copy(resp.Schema.Attributes, storageAutoScaleAttributes())
	maps.Copy(resp.Schema.Attributes, sqlAuditAttributes())
	maps.Copy(resp.Schema.Attributes, billingAttributes())
	maps.Copy(resp.Schema.Attributes, endpointAttributes())
	resp.Schema.Attributes["security_ip_groups"] = ipGroupsAttribute()
	resp.Schema.Attributes["security_group_ids"] = securityGroupIDsAttribute()
	resp.Schema.Attributes["whitelist_template_ids"] = whitelistTemplateIDsAttribute()
}
