package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Day-2 changes the cloud makes in place (issue 25): a MySQL major version upgrade is an
// operation of the plan's program (rdsservice/upgrade_rules.go); only what the cloud cannot do in
// place (a lower version, another engine's version change) still replaces the instance.

// engineVersionEffect is what engine_version's documentation says about a change, for both
// instance resources.
const engineVersionEffect = "A later MySQL major version (5.5 -> 5.6 -> 5.7 -> 8.0 -> 8.4, one step per apply) is an upgrade " +
	"in place (`UpgradeDBInstanceEngineVersion`): the data, id and endpoint stay, and the instance is out of service once " +
	"(a switchover to the upgraded standby for High-availability and Cluster editions, a restart of the single node for " +
	"Basic edition and read-only instances), which the plan announces and `prevent_restart` refuses; with " +
	"`apply_restarts = \"in_maintenance_window\"` it happens in the maintenance window. The plan refuses an upgrade that " +
	"skips a version, of an edition or storage type the cloud cannot upgrade (only High-availability on `local_ssd`, and " +
	"Basic, High-availability and Cluster on ESSD), of a primary whose read-only instances are not on the new version yet " +
	"(upgrade them first), or together with other changes. Parameters the new version does not have are dropped by the " +
	"cloud. A lower version, or a version change of another engine, creates a new instance (the data is not copied)."

// engineVersionAttribute is rds_instance's engine_version.
func engineVersionAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Engine version, e.g. `8.0` or `5.7` for MySQL (16K atomic write needs one of those two). " + engineVersionEffect,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}
