package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// released_keep_policy of rds_instance: which backup sets survive a destroy, sent with
// DeleteDBInstance and shown in the plan of the destroy.

func releasedKeepPolicyAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Which backup sets survive a destroy (`ReleasedKeepPolicy`, sent with `DeleteDBInstance`): `None`, " +
			"`Lastest` (the latest set; the API's spelling) or `All`. Cloud-disk instances created on or after 2024-02-01 always " +
			"keep the latest set, so only `Lastest` is accepted for them. Unset: the instance's backup policy decides. The plan " +
			"of a destroy says what is kept.",
	}
}

// planReleasedKeep checks released_keep_policy against the instance's storage and creation date
// (now, for a new instance). The plan of a destroy says what the release keeps (planDestroy).
func planReleasedKeep(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	var keep, storageType, created types.String
	if req.Plan.Raw.IsNull() {
		return
	}
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("released_keep_policy"), &keep)...)
	diags.Append(req.Plan.GetAttribute(ctx, path.Root("storage_type"), &storageType)...)
	when := time.Now().UTC()
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("creation_time"), &created)...)
		when, _ = rdsservice.ParseAPITime(created.ValueString()) // zero when unknown: the date rule waits
	}
	if diags.HasError() || !isKnown(keep) || !isKnown(storageType) {
		return
	}
	addProblems(diags, rdsservice.CheckReleasedKeepPolicy(keep.ValueString(), storageType.ValueString(), when))
}
