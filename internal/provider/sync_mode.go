package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// sync_mode on rds_instance (issue 45 §3): sent with ModifyDBInstanceHAConfig (a program
// operation, HAMode unchanged) and read back with DescribeDBInstanceHAConfig only where it is
// configured (S1-S3 in rdsservice/sync_mode_rules.go).

func syncModeAttribute() schema.StringAttribute {
	return schema.StringAttribute{Optional: true,
		MarkdownDescription: "How the primary replicates to its secondary: `Semi-sync` or `Async` on the High-availability and cluster " +
			"editions (`ModifyDBInstanceHAConfig`, read back with `DescribeDBInstanceHAConfig`); not offered on the Basic edition. " +
			"The plan names a change; with `Async` a failover can lose the transactions the secondary had not received. " +
			"Left out, the provider neither changes nor reads it."}
}

// refreshSyncMode reads sync_mode back where it is managed.
func refreshSyncMode(ctx context.Context, api rdsapi.API, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	if !isKnown(requested.SyncMode) {
		return
	}
	cfg, err := api.DescribeDBInstanceHAConfig(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading sync_mode", fmt.Sprintf("Instance %s: DescribeDBInstanceHAConfig: %v", state.ID.ValueString(), err))
		return
	}
	state.SyncMode = types.StringValue(cfg.SyncMode)
}
