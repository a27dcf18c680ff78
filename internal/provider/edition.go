package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Editions in place (issue 25 §4): category Basic -> HighAvailability of a MySQL instance is part
// of the plan's one spec order (rdsservice/edition_rules.go); every other change of category
// still replaces the instance.

// categoryEffect is what category's documentation says about a change.
const categoryEffect = "`Basic` -> `HighAvailability` of a MySQL instance is an edition upgrade in place: the one spec change " +
	"(`ModifyDBInstanceSpec`) orders a High-availability `instance_type` with it (set both in the same apply; keeping the Basic " +
	"class is a plan error), the data, id and endpoint stay, the cloud adds a standby node (`zone_id_slave_a` reads the " +
	"primary's zone) and the single node restarts once, which the plan announces and `prevent_restart` refuses; with " +
	"`apply_restarts = \"in_maintenance_window\"` it happens in the maintenance window. 16K atomic write can be turned on in a " +
	"later apply (a Basic-edition instance cannot turn it on, 16K rule 3). Any other change (`HighAvailability` -> `Basic`, to " +
	"or from `cluster`, a PostgreSQL instance) creates a new instance (the data is not copied; `deletion_protection` refuses it)."

// categoryAttribute is rds_instance's category.
func categoryAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		Default:  stringdefault.StaticString(defaultCategory),
		MarkdownDescription: "Edition: `HighAvailability` (default), `Basic` or `cluster`. A Basic-edition instance can get " +
			"16K atomic write only at creation. " + categoryEffect,
		Validators: []validator.String{stringvalidator.OneOf(categories...)},
	}
}
