package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Storage autoscaling on rds_instance (issue 27 §2). storage_auto_scale is sent with
// ModifyDasInstanceConfig (a program operation) and read back through DAS's
// DescribeAutoScalingConfig, so a change made outside Terraform shows as drift. While it is on,
// storage in the state is the floor the user configured and storage_actual the disk the cloud
// has: growth made by the cloud is no diff. The DAS read costs one call per refresh, only where
// storage_auto_scale is managed, on import, or when the disk is larger than the state's storage.

var autoScaleAttrTypes = map[string]attr.Type{"threshold": types.Int64Type, "upper_bound": types.Int64Type}

// storageAutoScaleAttributes are storage_auto_scale and storage_actual.
func storageAutoScaleAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"storage_auto_scale": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "Storage autoscaling (`ModifyDasInstanceConfig`): present means on. The cloud grows the disk, " +
				"online, by the larger of 15% and 5 GB when free space falls to `threshold` percent, up to `upper_bound` GB. " +
				"While it is on, `storage` is a floor: growth made by the cloud is not a change (see `storage_actual`), a " +
				"`storage` above the actual size still grows the disk, and one below it sends nothing. Read back through " +
				"the Database Autonomy Service (`DescribeAutoScalingConfig`): a change made outside Terraform shows as drift. " +
				"High-availability Edition on cloud disks only.",
			Attributes: map[string]schema.Attribute{
				"threshold": schema.Int64Attribute{
					Required:            true,
					MarkdownDescription: "Free space, in percent, at which the disk grows: 10, 20, 30, 40 or 50.",
				},
				"upper_bound": schema.Int64Attribute{
					Required: true,
					MarkdownDescription: "Largest size, in GB, the cloud grows the disk to: at least `storage` (and the actual " +
						"size), at most 32000 for ESSDs and 6000 for `cloud_ssd`.",
				},
			},
		},
		"storage_actual": schema.Int64Attribute{
			Computed: true,
			MarkdownDescription: "Storage the instance has, in GB: `storage`, or more once storage autoscaling grew the disk. " +
				"Known after apply while autoscaling is on (the cloud may grow the disk at any time).",
		},
	}
}

// autoScaleObject is the state's storage_auto_scale: null when off.
func autoScaleObject(cfg rdsapi.StorageAutoScale) types.Object {
	if !cfg.Enabled {
		return types.ObjectNull(autoScaleAttrTypes)
	}
	return types.ObjectValueMust(autoScaleAttrTypes, map[string]attr.Value{
		"threshold": types.Int64Value(cfg.Threshold), "upper_bound": types.Int64Value(cfg.UpperBound)})
}

// refreshStorageAutoScale reads storage_auto_scale back where it is managed, on import, or when
// the disk is larger than the state's storage (autoscaling turned on outside Terraform would
// explain it), and keeps storage at the configured floor while autoscaling is on. writeState has
// set storage and storage_actual to the instance's size.
func refreshStorageAutoScale(ctx context.Context, api rdsapi.API, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	floor := requested.Storage
	grown := isKnown(floor) && state.Storage.ValueInt64() > floor.ValueInt64()
	if requested.StorageAutoScale.IsNull() && !grown && isKnown(floor) {
		return
	}
	cfg, err := api.DescribeAutoScalingConfig(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddWarning("Cannot read storage_auto_scale",
			fmt.Sprintf("Instance %s: DescribeAutoScalingConfig (Database Autonomy Service): %v. storage_auto_scale keeps the value in state; "+
				"a RAM user needs hdm:DescribeAutoScalingConfig.", state.ID.ValueString(), err))
		state.StorageAutoScale = requested.StorageAutoScale
		kept, _ := rdsservice.AutoScaleOf(serviceValue(ctx, requested.StorageAutoScale))
		cfg = &kept
	} else {
		state.StorageAutoScale = autoScaleObject(*cfg)
	}
	if cfg.Enabled && grown {
		state.Storage = floor
	}
}

// readOnlyStorageFloor is a read-only instance's storage after a refresh. When its primary's
// autoscaling grows the primary, the cloud first grows a read-only instance smaller than the new
// size ("Optimization of automatic storage expansion"): that growth is not a change either, so
// the state keeps the configured storage while the primary's autoscaling is on. The DAS read is
// made only when the disk is larger than the state's storage.
func readOnlyStorageFloor(ctx context.Context, api rdsapi.API, primaryID string, configured, read types.Int64, diags *diag.Diagnostics) types.Int64 {
	if !isKnown(configured) || !isKnown(read) || read.ValueInt64() <= configured.ValueInt64() || primaryID == "" {
		return read
	}
	cfg, err := api.DescribeAutoScalingConfig(ctx, primaryID)
	if err != nil {
		diags.AddWarning("Cannot read the primary's storage_auto_scale",
			fmt.Sprintf("Primary %s: DescribeAutoScalingConfig (Database Autonomy Service): %v. The read-only instance's storage shows the size the cloud reports.", primaryID, err))
		return read
	}
	if cfg.Enabled {
		return configured
	}
	return read
}
