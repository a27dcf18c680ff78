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

// SQL audit on rds_instance (issue 46 §1): sql_audit is sent with DAS's ModifySqlLogConfig (a
// program operation) and read back with DescribeSqlLogConfig only where it is configured, so a
// change made outside Terraform shows as drift and an instance without it costs no DAS call.

var sqlAuditAttrTypes = map[string]attr.Type{"enabled": types.BoolType, "retention_days": types.Int64Type, "hot_retention_days": types.Int64Type}

// sqlAuditAttributes are sql_audit and prevent_data_loss.
func sqlAuditAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		rdsservice.AttrSQLAudit: schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "SQL audit through the Database Autonomy Service (`ModifySqlLogConfig`, read back with " +
				"`DescribeSqlLogConfig`). Left out, the provider neither changes nor reads it. Shortening `retention_days` deletes " +
				"the older logs at once, and `enabled = false` deletes them all: the plan names the days of logs that go, and " +
				"`prevent_data_loss = true` refuses it.",
			Attributes: map[string]schema.Attribute{
				"enabled": schema.BoolAttribute{Required: true, MarkdownDescription: "Whether SQL statements are audited."},
				"retention_days": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Days logs are kept in all: 7, 30, 180 or 365. Required when `enabled`."},
				"hot_retention_days": schema.Int64Attribute{Optional: true,
					MarkdownDescription: "Days of them kept hot (fast to search): 1-7, at most `retention_days`. Required when `enabled`."},
			},
		},
		rdsservice.AttrPreventDataLoss: preventDataLossAttribute("data of this instance (SQL audit logs deleted by a shorter " +
			"`sql_audit.retention_days` or by turning audit off, or the cross-region backups a release, by a destroy or a replacement, deletes: an instance on " +
			"cloud disks loses them all when it is released, whatever `released_keep_policy` says)"),
	}
}

// sqlAuditObject is the state's sql_audit as read back: retentions null while it is off.
func sqlAuditObject(cfg rdsapi.SQLAudit) types.Object {
	if !cfg.Enabled {
		return types.ObjectValueMust(sqlAuditAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(false),
			"retention_days": types.Int64Null(), "hot_retention_days": types.Int64Null()})
	}
	return types.ObjectValueMust(sqlAuditAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true),
		"retention_days": types.Int64Value(cfg.Retention), "hot_retention_days": types.Int64Value(cfg.HotRetention)})
}

// refreshSQLAudit reads sql_audit back where it is managed.
func refreshSQLAudit(ctx context.Context, api rdsapi.API, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	if requested.SQLAudit.IsNull() || requested.SQLAudit.IsUnknown() {
		return
	}
	cfg, err := api.DescribeSqlLogConfig(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddWarning("Cannot read sql_audit",
			fmt.Sprintf("Instance %s: DescribeSqlLogConfig (Database Autonomy Service): %v. sql_audit keeps the value in state; "+
				"a RAM user needs hdm:DescribeSqlLogConfig.", state.ID.ValueString(), err))
		state.SQLAudit = requested.SQLAudit
		return
	}
	if kept, _, _ := rdsservice.SQLAuditOf(serviceValue(ctx, requested.SQLAudit)); !cfg.Enabled && !kept.Enabled {
		state.SQLAudit = requested.SQLAudit // off as configured: retentions written beside enabled = false stay
		return
	}
	state.SQLAudit = sqlAuditObject(*cfg)
}
