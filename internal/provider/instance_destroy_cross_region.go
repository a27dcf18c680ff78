package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// planCrossRegionRelease names the cross-region backups the release of a primary on cloud disks
// deletes (issue 46 §2, rdsservice/cross_region.go), or with its prevent_data_loss refuses the
// destroy. Read-only instances have no backups of their own; an abandoned subscription keeps them.
func planCrossRegionRelease(ctx context.Context, data *ProviderData, state tfsdk.State, req rdsservice.DestroyRequest, diags *diag.Diagnostics) {
	if req.ReadOnly || data == nil || data.API == nil || !rdsservice.DestroyReleases(req) {
		return
	}
	var storageType types.String
	var prevent types.Bool
	diags.Append(state.GetAttribute(ctx, path.Root("storage_type"), &storageType)...)
	diags.Append(state.GetAttribute(ctx, path.Root(rdsservice.AttrPreventDataLoss), &prevent)...)
	cloudDisk := rdsservice.BackupFacts{StorageType: storageType.ValueString()}.CloudDisk()
	if diags.HasError() || !cloudDisk {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	defer cancel()
	loss, err := rdsservice.PlanCrossRegionReleaseLoss(ctx, data.API, req.InstanceID, cloudDisk, req.KeepPolicy, data.cloudNow())
	switch {
	case err != nil:
		diags.AddError("Cannot read the cross-region backups the destroy deletes", fmt.Sprintf("RDS instance %s: %v. Plan again.", req.InstanceID, err))
	case loss != nil:
		addProblems(diags, rdsservice.GuardDataLoss(prevent.ValueBool(), *loss))
	}
}
