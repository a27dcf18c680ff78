package rdsservice

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Major version upgrades in place (UpgradeDBInstanceEngineVersion; simulator README "Major version
// upgrade"): the planner decides every rule the cloud applies, so an upgrade the cloud would refuse
// is a plan error with its fix, never an apply failure. A lower version is not an upgrade: the
// resource marks it as a replacement before the planner runs (IsEngineUpgrade).

// EngineUpgrade is a planned major version upgrade of one instance.
type EngineUpgrade struct {
	From, To string
}

// mysqlMajorVersions in upgrade order: RDS upgrades one major version at a time.
var mysqlMajorVersions = []string{"5.5", "5.6", "5.7", "8.0", "8.4"}

// IsEngineUpgrade reports whether changing engine_version from -> to is an upgrade the cloud makes
// in place: MySQL, both versions known to RDS, to a later one. Anything else (a downgrade, another
// engine) replaces the instance.
func IsEngineUpgrade(engine, from, to string) bool {
	i, j := slices.Index(mysqlMajorVersions, strings.TrimSpace(from)), slices.Index(mysqlMajorVersions, strings.TrimSpace(to))
	return IsMySQL(engine) && i >= 0 && j > i
}

// nextMajorVersion is the version after v; "" for the last one or an unknown one.
func nextMajorVersion(v string) string {
	i := slices.Index(mysqlMajorVersions, strings.TrimSpace(v))
	if i < 0 || i == len(mysqlMajorVersions)-1 {
		return ""
	}
	return mysqlMajorVersions[i+1]
}

// upgradeEditionOK: High-availability on local SSD; Basic, High-availability and Cluster on ESSD.
func upgradeEditionOK(category, storageType string) bool {
	storageType = strings.ToLower(strings.TrimSpace(storageType))
	if storageEligible(storageType) {
		return slices.ContainsFunc([]string{"Basic", "HighAvailability", "cluster"}, func(c string) bool { return strings.EqualFold(c, category) })
	}
	return storageType == "local_ssd" && strings.EqualFold(category, "HighAvailability")
}

// planEngineUpgrade records a planned upgrade and checks its path, edition and read-only
// instances. The 16K atomic write predictions of the later steps see the new version.
func (u *updatePlan) planEngineUpgrade() {
	cur, c, in, d := u.cur, u.c, u.in, u.d
	if !c.EngineVersion.IsKnown() || !IsEngineUpgrade(cur.Engine, cur.EngineVersion, c.EngineVersion.Value()) ||
		pendingEngineUpgradeTo(in.Facts.Pending, c.EngineVersion.Value()) && in.Desired.ApplyRestarts == ApplyRestartsInWindow {
		return // nothing to upgrade, or the same upgrade already waits for the window (it is not sent for the window again)
	}
	to := c.EngineVersion.Value()
	d.Upgrade = &EngineUpgrade{From: cur.EngineVersion, To: to}
	u.change.EngineVersion = to
	u.trigger(AttrEngineVersion)
	if next := nextMajorVersion(cur.EngineVersion); next != to {
		d.add(problem(RuleUpgradePath, to, in.Label, cur.EngineVersion, to, next))
	}
	if !upgradeEditionOK(cur.Category, cur.StorageType) {
		d.add(problem(RuleUpgradeEdition, to, in.Label, cur.Category, cur.StorageType))
	}
	if u.readOnly {
		return
	}
	if in.Facts.ReadOnlyError != "" {
		d.add(problem(RuleUpgradeReadOnlyNotKnown, to, in.Label, in.Facts.ReadOnlyError))
	}
	if behind := readOnlyBehind(in.Facts.ReadOnly, to); len(behind) > 0 {
		d.add(problem(RuleUpgradeReadOnlyFirst, to, in.Label, strings.Join(behind, ", "), to, cur.EngineVersion))
	}
}

// readOnlyBehind lists the read-only instances the cloud wants upgraded to version before their
// primary: those on an earlier version, or not Running.
func readOnlyBehind(readOnly []ExistingInstance, version string) []string {
	var out []string
	for _, ro := range readOnly {
		switch {
		case slices.Index(mysqlMajorVersions, ro.EngineVersion) < slices.Index(mysqlMajorVersions, version) && ro.UpgradeWaiting != "":
			out = append(out, fmt.Sprintf("%s (MySQL %s; its own upgrade to %s waits for its maintenance window: upgrade the primary "+
				"after that window has run it)", ro.ID, ro.EngineVersion, ro.UpgradeWaiting))
		case slices.Index(mysqlMajorVersions, ro.EngineVersion) < slices.Index(mysqlMajorVersions, version):
			out = append(out, fmt.Sprintf("%s (MySQL %s)", ro.ID, ro.EngineVersion))
		case ro.Status != "" && ro.Status != StatusRunning:
			out = append(out, fmt.Sprintf("%s (%s)", ro.ID, ro.Status))
		}
	}
	return out
}

// ReadOnlyUpgradesWaiting sets UpgradeWaiting on the read-only instances whose major version
// upgrade waits for their maintenance window (DescribeHistoryTasks; reads only). An instance whose
// tasks cannot be read keeps none: the refusal then names its version alone.
func ReadOnlyUpgradesWaiting(ctx context.Context, api rdsapi.API, readOnly []ExistingInstance) {
	for i := range readOnly {
		task, err := PendingTask(ctx, api, readOnly[i].ID)
		if err != nil || task == nil || task.TaskType != rdsapi.TaskTypeUpgradeEngineVersion {
			continue
		}
		var detail struct{ EngineVersion string }
		if json.Unmarshal([]byte(task.TaskDetail), &detail) == nil {
			readOnly[i].UpgradeWaiting = detail.EngineVersion
		}
	}
}

// settleEngineUpgrade: the upgrade is one operation with one switchover; it predicts 16K atomic write eligibility on the new version.
func (u *updatePlan) settleEngineUpgrade() {
	cur, in, d := u.cur, u.in, u.d
	up := d.Upgrade
	if up == nil {
		return
	}
	// planRestarts listed the change of engine_version as this instance's restart: say what it is.
	generic := fmt.Sprintf("engine_version changes from %q to %q", up.From, up.To)
	for i, r := range d.Restarts {
		if j := slices.Index(r.Reasons, generic); r.InstanceID == in.Label && j >= 0 {
			d.Restarts[i].Reasons[j] = fmt.Sprintf("engine_version changes from %s to %s (major version upgrade in place: %s)", up.From, up.To, upgradeEffect(cur.Category, u.readOnly))
		}
	}
	if d.Action < ActionUpdate {
		d.Action = ActionUpdate
	}
	if !u.changeKnown {
		return
	}
	supported, known := PredictSupportedAfterKnown(cur, u.change)
	switch {
	case !known:
		d.AtomicWriteSupported = Unknown[bool]()
	case supported && !cur.Supported && d.AtomicWrite.Is(false):
		d.AtomicWriteSupported = Known(true)
		d.add(problem(RuleUpgrade16KAvailable, up.To, in.Label, up.To, cur.StorageType))
	default:
		d.AtomicWriteSupported = Known(supported)
	}
}

// checkUpgradeAlone refuses an upgrade planned with other changes (after the parameters are
// planned).
func checkUpgradeAlone(in PlanInput, d *Decision) {
	if d.Upgrade == nil {
		return
	}
	if others := otherChanges(d); others != "" {
		d.add(problem(RuleUpgradeAlone, d.Upgrade.To, in.Label, others))
	} else {
		aloneMayBeRefused(in, d, problem(RuleUpgradeAlone, d.Upgrade.To, in.Label, "them"), AttrEngineVersion)
	}
}

// otherChanges names the changes planned with an upgrade that UpgradeDBInstanceEngineVersion
// cannot carry.
func otherChanges(d *Decision) string {
	var names []string
	o := d.Order
	for _, c := range []struct {
		set  bool
		name string
	}{{o.InstanceClass != nil, AttrInstanceType}, {o.Storage != nil, AttrStorage}, {o.StorageType != nil, AttrStorageType},
		{o.AtomicWrite != nil, AttrAtomicWrite}, {o.BufferPoolExtension != nil, AttrBufferPoolExtension}, {o.Category != nil, AttrCategory},
		{len(d.Parameters.Send) > 0, AttrParameters}} {
		if c.set {
			names = append(names, c.name)
		}
	}
	return strings.Join(names, ", ")
}

// upgradeEffect is how the upgrade takes the instance out of service: a switchover to the
// upgraded standby for editions with one, a restart of the single node otherwise.
func upgradeEffect(category string, readOnly bool) string {
	if readOnly || strings.EqualFold(strings.TrimSpace(category), "Basic") {
		return "the single node restarts"
	}
	return "a switchover to the upgraded standby"
}
