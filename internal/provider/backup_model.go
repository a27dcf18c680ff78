package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// backupModel is rds_backup's state.
type backupModel struct {
	ID              types.String `tfsdk:"id"`
	InstanceID      types.String `tfsdk:"instance_id"`
	Method          types.String `tfsdk:"backup_method"`
	Strategy        types.String `tfsdk:"backup_strategy"`
	DBNames         types.Set    `tfsdk:"db_names"`
	BackupID        types.String `tfsdk:"backup_id"`
	BackupStartTime types.String `tfsdk:"backup_start_time"`
	BackupEndTime   types.String `tfsdk:"backup_end_time"`
	BackupSize      types.Int64  `tfsdk:"backup_size"`
	StoreStatus     types.String `tfsdk:"store_status"`
	PreventDataLoss types.Bool   `tfsdk:"prevent_data_loss"`
}

// request is what the model asks CreateBackup for; values the plan does not know are marked.
func (m backupModel) request(ctx context.Context, diags *diag.Diagnostics) rdsservice.BackupRequest {
	return rdsservice.BackupRequest{
		Method: stringIfKnown(m.Method), Strategy: stringIfKnown(m.Strategy), DBNames: setStrings(ctx, m.DBNames, diags),
		Unknown: unknownAttrs(map[string]interface{ IsUnknown() bool }{
			rdsservice.AttrBackupMethod: m.Method, rdsservice.AttrBackupStrategy: m.Strategy, rdsservice.AttrBackupDBNames: m.DBNames,
		}),
	}
}

// fill sets the computed attributes from the set.
func (m *backupModel) fill(set *rdsapi.Backup) {
	m.BackupID = types.StringValue(string(set.BackupID))
	m.ID = types.StringValue(m.InstanceID.ValueString() + ":" + string(set.BackupID))
	m.BackupStartTime = types.StringValue(set.BackupStartTime)
	m.BackupEndTime = types.StringValue(set.BackupEndTime)
	m.BackupSize = types.Int64Value(int64(set.BackupSize))
	m.StoreStatus = types.StringValue(set.StoreStatus)
}
