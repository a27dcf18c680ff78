package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// The minor version of rds_instance (issue 25 §2): the schema attributes, the planner's inputs and
// the read back. The rules, restarts and operations are rdsservice's (minor_version_rules.go).

const minorVersionEffect = "A later version is an upgrade in place (`UpgradeDBInstanceKernelVersion`): the instance is out of " +
	"service once (a switchover to the upgraded standby on High-availability and Cluster editions, a restart on Basic), and " +
	"its read-only instances, which run their primary's minor version, restart with it; the plan names each restart, " +
	"`prevent_restart` refuses them and `apply_restarts = \"in_maintenance_window\"` defers the upgrade to the window " +
	"(`scheduled_change`). A version at or below the running one plans nothing: a minor version is never lowered, so after " +
	"the cloud's automatic upgrade an older `target_minor_version` stays as it is (a refresh warns once)."

func minorVersionAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"target_minor_version": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The minor engine version to run, `rds_YYYYMMDD` (MySQL on Basic and High-availability editions; the " +
				"versions are listed in Alibaba's AliSQL release notes, and by `DescribeDBMiniEngineVersions`: the plan of an upgrade refuses " +
				"a version that was never released, naming the released ones). On a new instance it is the version created (`TargetMinorVersion`). " +
				minorVersionEffect + " " + minorVersionReplaceEffect + " Unset: not managed.",
		},
		"minor_version": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The minor engine version the instance runs (`CurrentKernelVersion`).",
		},
		"auto_upgrade_minor_version": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "`Auto`: the cloud upgrades the minor version in the maintenance window by itself (the default of a new " +
				"instance); `Manual`: only when asked, or when the running version goes offline " +
				"(`ModifyDBInstanceAutoUpgradeMinorVersion`, no restart). Unset: the cloud's value is kept.",
			Validators:    []validator.String{stringvalidator.OneOf(rdsapi.AutoUpgradeMinorAuto, rdsapi.AutoUpgradeMinorManual)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	}
}

// writeMinorVersion copies the running minor version and the upgrade setting from the cloud.
func writeMinorVersion(a *rdsapi.DBInstanceAttribute, m *instanceModel) {
	m.MinorVersion = emptyAsNull(types.StringValue(a.CurrentKernelVersion))
	m.AutoUpgradeMinorVersion = emptyAsNull(types.StringValue(a.AutoUpgradeMinorVersion))
	if !isKnown(m.TargetMinorVersion) {
		m.TargetMinorVersion = types.StringNull()
	}
}

// warnMinorBehind warns, on the refresh that first sees it, that the cloud upgraded the instance
// past target_minor_version (and that no plan lowers it).
func warnMinorBehind(before, after instanceModel, diags *diag.Diagnostics) {
	addProblems(diags, rdsservice.MinorVersionBehind(instanceLabel(after), after.TargetMinorVersion.ValueString(),
		before.MinorVersion.ValueString(), after.MinorVersion.ValueString()))
}

// readonlyMinorVersionAttribute is rds_readonly_instance's minor_version: read-only instances run
// their primary's minor version and are upgraded with it (set target_minor_version on the primary).
func readonlyMinorVersionAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "The minor engine version the instance runs (`CurrentKernelVersion`): its primary's, which upgrades it " +
			"together with itself (set `target_minor_version` on the primary; the read-only instance restarts with it).",
	}
}
