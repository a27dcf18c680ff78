package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// moveSQLAudit carries alicloud_db_instance's SQL collector (SQL Explorer, the audit DAS now
// serves) into sql_audit (issue 46): sql_collector_status = "Enabled" is audit on, with
// sql_collector_config_value as retention_days; hot_retention_days, which alicloud does not have,
// is read at the refresh that follows. "Disabled", the cloud's default, leaves sql_audit unmanaged.
func moveSQLAudit(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
	if !strings.EqualFold(src.str("sql_collector_status"), "Enabled") {
		return
	}
	days, err := src.value(alicloudMapping{"retention_days", []string{"sql_collector_config_value"}, kindInt})
	if err != nil {
		addMoveError(&resp.Diagnostics, src.target, err)
		return
	}
	audit := types.ObjectValueMust(sqlAuditAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true),
		"retention_days": days, "hot_retention_days": types.Int64Null()})
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("sql_audit"), audit)...)
}
