package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// monitoring_period on rds_instance (issue 45 §3): sent with ModifyDBInstanceMonitor (a program
// operation) and read back with DescribeDBInstanceMonitor only where it is configured, so a change
// made outside Terraform shows as drift and an instance without it costs no call (M1-M3 in
// rdsservice/monitoring_rules.go).

func monitoringPeriodAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)},
		MarkdownDescription: "Seconds between two samples of the instance's metrics: 5, 10, 60 or 300 " +
			"(`ModifyDBInstanceMonitor`, read back with `DescribeDBInstanceMonitor`). A Basic-edition instance offers 300 only. " +
			"**5 and 10 seconds are billed**, and the plan says so. Left out, the provider neither changes nor reads it."}
}

// refreshMonitoring reads monitoring_period back where it is managed.
func refreshMonitoring(ctx context.Context, api rdsapi.API, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	if !isKnown(requested.MonitoringPeriod) {
		return
	}
	period, err := api.DescribeDBInstanceMonitor(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading monitoring_period", fmt.Sprintf("Instance %s: DescribeDBInstanceMonitor: %v", state.ID.ValueString(), err))
		return
	}
	state.MonitoringPeriod = types.Int64Value(period)
}
