package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Zone moves in place (issue 25 §3): zone_id, zone_id_slave_a, zone_id_slave_b and vswitch_id of
// rds_instance change with MigrateToOtherZone, an operation of the plan's program
// (rdsservice/zone_rules.go). vpc_id still replaces the instance (the cloud keeps the VPC), and so
// does a read-only instance's zone (MigrateToOtherZone is documented for primary instances).

// zoneMoveEffect is what the zone attributes' documentation says about a change.
const zoneMoveEffect = "A change moves the instance in place (`MigrateToOtherZone`): the data, id and endpoint stay, and the " +
	"instance switches over once to its nodes in the new zones (a Basic-edition instance's single node restarts there), which " +
	"the plan announces and `prevent_restart` refuses; with `apply_restarts = \"in_maintenance_window\"` it happens in the " +
	"maintenance window. The plan refuses a zone the region does not have (`DescribeRegions` lists them), a move of an edition " +
	"other than High-availability or Basic, a move whose vSwitch is " +
	"not in the new zone, a move of a cloud-disk instance on a minor version before `rds_20201031`, a move while a read-only " +
	"instance is not Running, a class the new zone does not offer, or a move together with other changes. A value known only " +
	"at apply replaces the instance."

// zoneAttributes are zone_id, zone_id_slave_a, zone_id_slave_b and vswitch_id of rds_instance.
func zoneAttributes() map[string]schema.Attribute {
	attribute := func(description string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional: true, Computed: true, MarkdownDescription: description + " " + zoneMoveEffect,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		}
	}
	return map[string]schema.Attribute{
		"zone_id": attribute("Zone of the primary node, e.g. `cn-hangzhou-i`; chosen by the cloud when unset."),
		"zone_id_slave_a": attribute("Zone of the secondary node (`ZoneIdSlave1`; alicloud's name); the primary's zone when unset. " +
			"The Basic edition has none."),
		"zone_id_slave_b": attribute("Zone of a third node (`ZoneIdSlave2`), for three-node editions only; empty otherwise."),
		"vswitch_id":      attribute("vSwitch of the instance, in `zone_id` and `vpc_id`."),
	}
}

// secondaryZones writes zone_id_slave_a and zone_id_slave_b from DescribeDBInstanceAttribute's
// SlaveZones ("" where the instance has no such node, as alicloud reads them).
func secondaryZones(a *rdsapi.DBInstanceAttribute, m *instanceModel) {
	zones := a.SlaveZones.Zones()
	m.ZoneIDSlaveA, m.ZoneIDSlaveB = types.StringValue(""), types.StringValue("")
	if len(zones) > 0 {
		m.ZoneIDSlaveA = types.StringValue(zones[0])
	}
	if len(zones) > 1 {
		m.ZoneIDSlaveB = types.StringValue(zones[1])
	}
}

// holdPlacement keeps the requested zones and vSwitch in state while a zone move waits for the
// maintenance window (scheduled_change says so); the cloud moves the instance there in the window.
func holdPlacement(ctx context.Context, data *ProviderData, requested instanceModel, state *instanceModel, diags *diag.Diagnostics) {
	if !isKnown(state.ScheduledChange) {
		return
	}
	task, err := rdsservice.PendingTask(ctx, data.API, state.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading the scheduled change", fmt.Sprintf("DescribeHistoryTasks for %s: %v", state.ID.ValueString(), err))
		return
	}
	if task == nil || task.TaskType != rdsapi.TaskTypeMigrateZone && !rdsservice.PendingOf(serviceValue(ctx, state.ScheduledChange)).Has(rdsservice.PendingZoneMove) {
		return // no move waits (the spec change of the same window is the task recorded beside a move)
	}
	state.ZoneID, state.ZoneIDSlaveA, state.ZoneIDSlaveB, state.VSwitchID = requested.ZoneID, requested.ZoneIDSlaveA, requested.ZoneIDSlaveB, requested.VSwitchID
}
