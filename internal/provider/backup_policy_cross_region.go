package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// cross_region on rds_backup_policy (issue 46 §2): sent with ModifyInstanceCrossBackupPolicy (an
// operation of the policy's program) and read back with DescribeInstanceCrossBackupPolicy only
// where it is configured. The plan checks the destination and the retention and names the
// copies a shorter retention deletes (rdsservice/cross_region.go).

var crossRegionAttrTypes = map[string]attr.Type{"region": types.StringType, "retention_days": types.Int64Type, "log_backup_enabled": types.BoolType}

type crossRegionModel struct {
	Region           types.String `tfsdk:"region"`
	RetentionDays    types.Int64  `tfsdk:"retention_days"`
	LogBackupEnabled types.Bool   `tfsdk:"log_backup_enabled"`
}

func crossRegionAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Copies of every backup set in another region (`ModifyInstanceCrossBackupPolicy`, read back with " +
			"`DescribeInstanceCrossBackupPolicy`). Left out, the provider neither changes nor reads it. The destination is checked " +
			"at plan against the regions the provider's region may copy to (`DescribeAvailableCrossRegion`). Shortening " +
			"`retention_days` deletes the older copies at once: the plan names them, and `prevent_data_loss` refuses it. An " +
			"instance on cloud disks loses every copy when it is released, whatever `released_keep_policy` says: destroying it " +
			"warns, and `rds_instance.prevent_data_loss` refuses it.",
		Attributes: map[string]schema.Attribute{
			"region":         schema.StringAttribute{Required: true, MarkdownDescription: "Destination region of the copies, e.g. `cn-shanghai`."},
			"retention_days": schema.Int64Attribute{Required: true, MarkdownDescription: "Days each copy is kept: 7-1825."},
			"log_backup_enabled": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether log backups are copied too, for restores to a point in time in the destination. Default false."},
		},
	}
}

// crossRegionOf is a cross_region value as the API takes it; nil when it is null or not known yet.
func crossRegionOf(ctx context.Context, o types.Object, diags *diag.Diagnostics) *rdsapi.CrossBackupPolicy {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	var m crossRegionModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	if !isKnown(m.Region) || !isKnown(m.RetentionDays) || m.LogBackupEnabled.IsUnknown() {
		return nil
	}
	return &rdsapi.CrossBackupPolicy{Enabled: true, Region: m.Region.ValueString(), Retention: m.RetentionDays.ValueInt64(),
		LogEnabled: m.LogBackupEnabled.ValueBool()}
}

// crossRegionObject is the state's cross_region as read back: null when copying is off;
// log_backup_enabled stays null while it is off and was left out.
func crossRegionObject(p rdsapi.CrossBackupPolicy, requested crossRegionModel) types.Object {
	if !p.Enabled {
		return types.ObjectNull(crossRegionAttrTypes)
	}
	logOn := types.BoolValue(p.LogEnabled)
	if requested.LogBackupEnabled.IsNull() && !p.LogEnabled {
		logOn = types.BoolNull()
	}
	return types.ObjectValueMust(crossRegionAttrTypes, map[string]attr.Value{"region": types.StringValue(p.Region),
		"retention_days": types.Int64Value(p.Retention), "log_backup_enabled": logOn})
}

// refreshCrossRegion reads cross_region back where it is managed.
func (r *backupPolicyResource) refreshCrossRegion(ctx context.Context, m *backupPolicyModel, diags *diag.Diagnostics) {
	if m.CrossRegion.IsNull() || m.CrossRegion.IsUnknown() {
		return
	}
	var requested crossRegionModel
	diags.Append(m.CrossRegion.As(ctx, &requested, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	id := m.InstanceID.ValueString()
	got, err := r.data.API.DescribeInstanceCrossBackupPolicy(ctx, id)
	if err != nil {
		diags.AddError("Error reading the RDS cross-region backup policy", fmt.Sprintf("DescribeInstanceCrossBackupPolicy %s: %v", id, err))
		return
	}
	m.CrossRegion = crossRegionObject(*got, requested)
}

// planCrossRegion checks a configured cross_region against the cloud at plan, and names the
// copies a shorter retention deletes (or with prevent_data_loss refuses the plan); call: the apply
// sends the cross-region policy.
func (r *backupPolicyResource) planCrossRegion(ctx context.Context, plan backupPolicyModel, diags *diag.Diagnostics) (call bool) {
	want := crossRegionOf(ctx, plan.CrossRegion, diags)
	if want == nil {
		return false
	}
	id := plan.InstanceID.ValueString()
	decided, err := rdsservice.PlanCrossRegion(ctx, r.data.API, id, r.data.Region, *want)
	if err != nil {
		diags.AddError("Error reading the RDS cross-region backup policy", err.Error())
		return false
	}
	if addProblems(diags, decided.Problems); diags.HasError() {
		return false
	}
	loss, err := rdsservice.PlanCrossRegionRetentionLoss(ctx, r.data.API, id, decided.Current, want.Retention, r.data.cloudNow())
	switch {
	case err != nil:
		diags.AddError("Error reading the RDS cross-region backups", err.Error())
	case loss != nil:
		addProblems(diags, rdsservice.GuardDataLoss(plan.PreventDataLoss.ValueBool(), *loss))
	}
	return decided.Call != nil
}
