package provider

import (
	"context"
	"fmt"

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

// desiredMinor is the planner's view of the configured minor version settings.
func desiredMinor(config instanceModel) rdsservice.DesiredMinor {
	return rdsservice.DesiredMinor{Target: valString(config.TargetMinorVersion), AutoUpgrade: valString(config.AutoUpgradeMinorVersion)}
}

// upgradesMinor reports whether the configuration asks for a later minor version than the state
// holds: the read-only instances, which restart with the primary, are then read for the planner.
func upgradesMinor(state *instanceModel, config instanceModel) bool {
	return state != nil && isKnown(config.TargetMinorVersion) && isKnown(state.MinorVersion) &&
		config.TargetMinorVersion.ValueString() > state.MinorVersion.ValueString()
}

// minorFacts sets the instance's minor version facts. When an upgrade is asked for, the instance
// is read once for the running and latest versions (the state keeps no latest version).
func (r *instanceResource) minorFacts(ctx context.Context, state *instanceModel, config instanceModel, in *rdsservice.PlanInput, diags *diag.Diagnostics) {
	in.Prior.MinorVersion = state.MinorVersion.ValueString()
	in.Prior.AutoUpgradeMinorVersion = state.AutoUpgradeMinorVersion.ValueString()
	if !upgradesMinor(state, config) {
		return
	}
	attr, err := r.data.API.DescribeDBInstanceAttribute(ctx, state.ID.ValueString())
	if err != nil {
		diags.AddError("Error reading the minor version of RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", state.ID.ValueString(), err))
		return
	}
	in.Prior.MinorVersion, in.Prior.LatestMinorVersion = attr.CurrentKernelVersion, attr.LatestKernelVersion
	released, err := r.data.API.DescribeDBMiniEngineVersions(ctx, state.Engine.ValueString(), state.EngineVersion.ValueString())
	if err != nil {
		diags.AddError("Error reading the released minor versions", fmt.Sprintf("DescribeDBMiniEngineVersions %s %s: %v",
			state.Engine.ValueString(), state.EngineVersion.ValueString(), err))
		return
	}
	in.Prior.ReleasedMinorVersions = []string{}
	for _, item := range released {
		if item.StatusDesc != "Offline" {
			in.Prior.ReleasedMinorVersions = append(in.Prior.ReleasedMinorVersions, item.MinorVersion)
		}
	}
}

// planMinorValues plans minor_version: the target of an upgrade made during this apply (or of a
// create that names one), else the running one; unknown for a new instance without a target and
// across a major version upgrade. The
// upgrade is recorded for the plans of the read-only instances, which restart with it.
func (r *instanceResource) planMinorValues(state *instanceModel, config instanceModel, dec rdsservice.Decision, plan *instanceModel) {
	var follow *rdsservice.MinorFollow
	if state != nil {
		follow = rdsservice.PlannedMinorFollow(dec, state.ID.ValueString())
		r.data.plans.recordMinor(state.ID.ValueString(), follow)
	}
	switch up := dec.Minor.Upgrade; {
	case follow != nil && follow.When == "": // during the apply, a waiting one too when its window is open now
		plan.MinorVersion = types.StringValue(follow.To)
	case up != nil && !dec.Deferred:
		plan.MinorVersion = types.StringValue(up.To)
	case dec.Upgrade != nil:
		plan.MinorVersion = types.StringUnknown() // a new major version comes with its own minor version
	case state != nil:
		plan.MinorVersion = state.MinorVersion
	case isKnown(config.TargetMinorVersion) && config.RestoreFrom.IsNull():
		plan.MinorVersion = config.TargetMinorVersion // a clone runs what CloneDBInstance gives it
	default:
		plan.MinorVersion = types.StringUnknown()
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

func (p *plannedPrimaries) recordMinor(id string, f *rdsservice.MinorFollow) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.minor == nil {
		p.minor = map[string]*rdsservice.MinorFollow{}
	}
	p.minor[id] = f
}

func (p *plannedPrimaries) lookupMinor(id string) *rdsservice.MinorFollow {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.minor[id]
}

// followMinorFacts tells a read-only instance's plan its running minor version and the upgrade
// this run's plan of its primary makes or names waiting for the window (a new one's too).
func followMinorFacts(data *ProviderData, state *readonlyInstanceModel, primaryID string, in *rdsservice.PlanInput) {
	in.Facts.PrimaryMinor = data.plans.lookupMinor(primaryID)
	if state != nil && in.Prior != nil {
		in.Prior.MinorVersion = state.MinorVersion.ValueString()
	}
}

// planFollowMinorValue: a read-only instance upgraded with its primary during this apply reads its
// new minor version back; any other update keeps the version it runs (only its primary's upgrade
// changes it), so that the plan does not show it as unknown.
func planFollowMinorValue(dec rdsservice.Decision, plan *readonlyInstanceModel, state *readonlyInstanceModel) {
	switch f := dec.Minor.Follows; {
	case f != nil && f.When == "":
		plan.MinorVersion = types.StringUnknown()
	case state != nil:
		plan.MinorVersion = state.MinorVersion // only its primary's upgrade changes it
	}
}
