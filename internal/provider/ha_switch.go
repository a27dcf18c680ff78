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

// ha_config on rds_instance (issue 45 §3): sent with ModifyHASwitchConfig (a program operation)
// and read back with DescribeHASwitchConfig only where it is configured; a Manual mode the cloud
// turned back to Auto at manual_until stays in state as configured (H1-H4 in
// rdsservice/ha_switch_rules.go).

var haSwitchAttrTypes = map[string]attr.Type{"mode": types.StringType, "manual_until": types.StringType}

func haConfigAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Automatic primary/secondary switchover (`ModifyHASwitchConfig`, read back with `DescribeHASwitchConfig`). " +
			"Not offered on the Basic edition. Left out, the provider neither changes nor reads it. A `Manual` mode lasts until " +
			"`manual_until`, when the cloud switches over automatically again: the plan says when, and the configuration stays " +
			"in state after that time, so the plan stays empty.",
		Attributes: map[string]schema.Attribute{
			"mode": schema.StringAttribute{Required: true, MarkdownDescription: "`Auto` (switch over on a failure) or `Manual`."},
			"manual_until": schema.StringAttribute{Optional: true, MarkdownDescription: "With `Manual`: the UTC time " +
				"(`yyyy-MM-ddTHH:mm:ssZ`) automatic switchover comes back, at most 23:59:59 of the seventh day ahead."},
		}}
}

func haSwitchObject(cfg rdsapi.HASwitch) types.Object {
	until := types.StringNull()
	if cfg.ManualHATime != "" {
		until = types.StringValue(cfg.ManualHATime)
	}
	return types.ObjectValueMust(haSwitchAttrTypes, map[string]attr.Value{"mode": types.StringValue(cfg.HAConfig), "manual_until": until})
}

// refreshHASwitch reads ha_config back where it is managed.
func (p *ProviderData) refreshHASwitch(ctx context.Context, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	prior, configured, unknown := rdsservice.HASwitchOf(serviceValue(ctx, requested.HAConfig))
	if !configured || unknown {
		return
	}
	read, err := p.API.DescribeHASwitchConfig(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading ha_config", fmt.Sprintf("Instance %s: DescribeHASwitchConfig: %v", state.ID.ValueString(), err))
		return
	}
	state.HAConfig = haSwitchObject(rdsservice.HASwitchRead(&prior, *read, p.cloudNow()))
}
