package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.ResourceWithMoveState = (*backupPolicyResource)(nil)

// MoveState moves alicloud_rds_instance_cross_backup_policy into rds_backup_policy's cross_region
// (issue 46): the destination, retention and log copying are taken from the source (its switches
// read "Enable" or "Disabled", as DescribeInstanceCrossBackupPolicy answers); the rest of the
// policy is read by the refresh that follows, as an import does.
func (r *backupPolicyResource) MoveState(context.Context) []resource.StateMover {
	return moveFromAlicloud(alicloudMove{
		target: "rds_backup_policy", sources: []string{"alicloud_rds_instance_cross_backup_policy"},
		mapping: []alicloudMapping{{"instance_id", []string{"instance_id", "id"}, kindString}, {"id", []string{"instance_id", "id"}, kindString}},
		check: func(src alicloudState) error {
			return requireParts(src, []string{"instance_id", "id"}, []string{"cross_backup_region"})
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			cross := types.ObjectNull(crossRegionAttrTypes)
			if enabled := src.str("backup_enabled"); enabled == "" || strings.EqualFold(enabled, "Enable") {
				days, err := src.value(alicloudMapping{"retention_days", []string{"retention"}, kindInt})
				if err != nil {
					resp.Diagnostics.AddError("Cannot move into rds_backup_policy", err.Error())
					return
				}
				logOn := types.BoolNull() // left out of the configuration while it is off
				if strings.EqualFold(src.str("log_backup_enabled"), "Enable") {
					logOn = types.BoolValue(true)
				}
				cross = types.ObjectValueMust(crossRegionAttrTypes, map[string]attr.Value{
					"region": types.StringValue(src.str("cross_backup_region")), "retention_days": days, "log_backup_enabled": logOn})
			}
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("cross_region"), cross)...)
		},
	})
}
