package rdsservice

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Minor engine versions (issue 25 §2; simulator README "Minor versions"): target_minor_version is
// upgraded to in place by UpgradeDBInstanceKernelVersion, an operation of the program with its
// restart (a switchover on High-availability); the running version is read back as
// minor_version. A target at or below the running version plans nothing: after the cloud's
// automatic upgrade, the configured older version is never planned as a downgrade.

// Attributes of the minor version.
const (
	AttrTargetMinorVersion = "target_minor_version"
	AttrMinorVersion       = "minor_version"
	AttrAutoUpgradeMinor   = "auto_upgrade_minor_version"
)

// Rule ids of the minor version.
const (
	RuleMinorVersionFormat      RuleID = "minor-version-format"
	RuleMinorVersionEngine      RuleID = "minor-version-engine"
	RuleMinorVersionNotOffered  RuleID = "minor-version-not-offered"
	RuleMinorVersionNotReleased RuleID = "minor-version-not-released"
	RuleMinorVersionBehind      RuleID = "minor-version-behind"
	RuleMinorVersionAlone       RuleID = "minor-version-alone"
	RuleMinorVersionPending     RuleID = "minor-version-pending"
	RuleTDEMinorVersion         RuleID = "tde-minor-version"
)

// Operation kinds of the minor version.
const (
	OpUpgradeKernelVersion   = "UpgradeDBInstanceKernelVersion"
	OpWaitMinorFollower      = "wait: read-only instance runs its primary's new minor version"
	OpModifyAutoUpgradeMinor = "ModifyDBInstanceAutoUpgradeMinorVersion"
)

// TDEMinMinorVersion56 is the first minor version of MySQL 5.6 that offers TDE (Alibaba, "Configure TDE").
const TDEMinMinorVersion56 = "rds_20191015"

var minorVersionPattern = regexp.MustCompile(`^rds_[0-9]{8}$`)

// DesiredMinor is target_minor_version and auto_upgrade_minor_version as configured.
type DesiredMinor struct {
	Target, AutoUpgrade Val[string]
}

// MinorDecision is what the apply sends: Upgrade (From and To are minor versions) with the
// read-only instances the cloud upgrades with their primary (Followers), and the upgrade setting;
// Follows is a read-only instance's own restart when its primary is upgraded.
type MinorDecision struct {
	Upgrade     *EngineUpgrade
	Followers   []string
	AutoUpgrade *string
	Follows     *MinorFollow
}

// MinorFollow is a primary's planned minor version upgrade as its read-only instances follow it:
// the version, and when (the primary's restart's When: empty for during the apply).
type MinorFollow struct {
	Primary, To, When string
}

// PlannedMinorFollow is what the plan of a primary tells its read-only instances' plans: the
// upgrade it makes, or the one waiting for its window; nil when none.
func PlannedMinorFollow(d Decision, primaryID string) *MinorFollow {
	if d.HasErrors() {
		return nil
	}
	for _, r := range d.Restarts {
		if r.Op == OpUpgradeKernelVersion && d.Minor.Upgrade != nil {
			return &MinorFollow{Primary: primaryID, To: d.Minor.Upgrade.To, When: r.When}
		}
	}
	return pendingMinorFollow(d, primaryID)
}

// CheckMinorVersionConfig is what the configuration alone decides: the version's form.
func CheckMinorVersionConfig(target Val[string]) []Problem {
	if !target.IsKnown() || minorVersionPattern.MatchString(target.Value()) {
		return nil
	}
	return []Problem{problem(RuleMinorVersionFormat, target.Value(), target.Value()).At(AttrTargetMinorVersion)}
}

// MinorVersionBehind is the warning a refresh gives once, when it first sees the instance run a
// later minor version than the configured one (the cloud's automatic upgrade): no downgrade follows.
func MinorVersionBehind(instance, configured, before, running string) []Problem {
	if !minorVersionPattern.MatchString(configured) || running <= configured || before == running || before > configured {
		return nil
	}
	return []Problem{problem(RuleMinorVersionBehind, configured, instance, running, configured)}
}

// planMinorVersion decides the upgrade setting and the minor version upgrade with its restarts.
func planMinorVersion(in PlanInput, d *Decision) {
	want := in.Desired.Minor
	if in.Role == RoleReadOnly {
		planFollowMinor(in, d)
		return
	}
	if in.Prior == nil {
		if want.AutoUpgrade.Is("Manual") {
			d.Minor.AutoUpgrade = want.AutoUpgrade.Ptr()
		}
		return
	}
	cur := *in.Prior
	if want.AutoUpgrade.IsKnown() && cur.AutoUpgradeMinorVersion != "" && want.AutoUpgrade.Value() != cur.AutoUpgradeMinorVersion {
		d.Minor.AutoUpgrade = want.AutoUpgrade.Ptr()
		d.Action = maxAction(d.Action, ActionUpdate)
	}
	if want.Target.IsUnknown() {
		d.MayRestart = append(d.MayRestart, AttrTargetMinorVersion)
		return
	}
	target := want.Target.Or("")
	if p := in.Facts.Pending; p != nil && pendingMinorAny(p) && minorVersionPattern.MatchString(target) && !pendingMinor(p, target) {
		// Set back (or elsewhere) while the upgrade waits: no API call withdraws it (PendingBehaviours).
		d.add(problem(RuleMinorVersionPending, target, in.Label, strings.Join(p.Changes, "; "), target))
		return
	}
	if !minorVersionPattern.MatchString(target) || cur.MinorVersion == "" || target <= cur.MinorVersion || pendingMinor(in.Facts.Pending, target) {
		return // nothing to upgrade: never a downgrade; or the same upgrade already waits for the window
	}
	d.Minor.Upgrade = &EngineUpgrade{From: cur.MinorVersion, To: target}
	checkMinorUpgrade(in, d, target)
	addMinorRestarts(in, d)
}

// checkMinorUpgrade: MySQL only, a version the cloud offers, and alone where its task would meet
// another one (a major upgrade, or another restart-needing change waiting for the window).
func checkMinorUpgrade(in PlanInput, d *Decision, target string) {
	cur := *in.Prior
	switch {
	case !IsMySQL(cur.Engine):
		d.add(problem(RuleMinorVersionEngine, target, cur.Engine))
	case cur.LatestMinorVersion != "" && target > cur.LatestMinorVersion:
		d.add(problem(RuleMinorVersionNotOffered, target, target, cur.EngineVersion, cur.LatestMinorVersion))
	case cur.ReleasedMinorVersions != nil && !slices.Contains(cur.ReleasedMinorVersions, target):
		d.add(problem(RuleMinorVersionNotReleased, target, target, cur.EngineVersion, laterThan(cur.ReleasedMinorVersions, cur.MinorVersion)))
	}
	p := in.Facts.Pending
	var others []string
	if d.Upgrade != nil {
		others = append(others, AttrEngineVersion)
	}
	if in.Desired.ApplyRestarts == ApplyRestartsInWindow {
		if o := otherChanges(d); o != "" {
			others = append(others, o)
		}
		if p != nil && len(p.Changes) > 0 && !pendingMinorAny(p) {
			others = append(others, "the change already scheduled for the window (scheduled_change)")
		}
	}
	if len(others) > 0 {
		d.add(problem(RuleMinorVersionAlone, target, in.Label, strings.Join(others, ", ")))
	}
}

// laterThan lists the released versions later than running, for the refusal's fix.
func laterThan(released []string, running string) string {
	var later []string
	for _, v := range released {
		if v > running {
			later = append(later, v)
		}
	}
	if len(later) == 0 {
		return "none"
	}
	return strings.Join(later, ", ")
}

// addMinorRestarts names the upgrade's restart of the instance and of each read-only instance the
// cloud upgrades with it.
func addMinorRestarts(in PlanInput, d *Decision) {
	cur, up := *in.Prior, *d.Minor.Upgrade
	reason := fmt.Sprintf("%s changes from %s to %s (minor version upgrade: %s)", AttrTargetMinorVersion, up.From, up.To, upgradeEffect(cur.Category, false))
	restart := Restart{InstanceID: in.Label, Reasons: []string{reason}, Downtime: ExpectedDowntime(cur.Category, false), Op: OpUpgradeKernelVersion}
	applyPending(in, d, &restart)
	d.Restarts = append(d.Restarts, restart)
	for _, ro := range in.Facts.ReadOnly {
		d.Minor.Followers = append(d.Minor.Followers, ro.ID)
		d.Restarts = append(d.Restarts, Restart{InstanceID: ro.ID + " (read-only instance)", Downtime: ExpectedDowntime(cur.Category, true), Op: OpWaitMinorFollower,
			Reasons: []string{fmt.Sprintf("runs the minor version of its primary %s, upgraded to %s with it (assumption: the cloud restarts it)", cur.ID, up.To)}})
	}
	if in.Facts.ReadOnlyError != "" {
		d.MayRestart = append(d.MayRestart, "the read-only instances of "+in.Label+" (not read: "+in.Facts.ReadOnlyError+")")
	}
	if d.RestartAttribute == "" {
		d.RestartAttribute = AttrTargetMinorVersion
	}
	d.Action = maxAction(d.Action, ActionUpdateWithRestart)
}

// planFollowMinor names a read-only instance's restart when this run's plan of its primary
// upgrades the minor version it runs, or names the upgrade waiting for the primary's window, so
// that its own prevent_restart refuses it and its plan reads the new version back. A read-only
// instance created in this run follows an upgrade that waits for the window (it is created on the
// running version), not one made during the apply (its primary is upgraded before it is created).
func planFollowMinor(in PlanInput, d *Decision) {
	f := in.Facts.PrimaryMinor
	if f == nil || (in.Prior == nil && f.When == "") || (in.Prior != nil && in.Prior.MinorVersion != "" && in.Prior.MinorVersion >= f.To) {
		return
	}
	d.Minor.Follows = f
	d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, When: f.When, Downtime: ExpectedDowntime("", true), Op: OpWaitMinorFollower,
		Reasons: []string{fmt.Sprintf("runs the minor version of its primary %s, upgraded to %s with it (assumption: the cloud restarts it)", f.Primary, f.To)}})
	d.Action = maxAction(d.Action, ActionUpdateWithRestart)
	if d.RestartAttribute == "" {
		d.RestartAttribute = AttrMinorVersion
	}
}

// minorReasonPrefix starts the reason of a minor version upgrade's restart, which a deferred one
// keeps in scheduled_change.changes.
const minorReasonPrefix = AttrTargetMinorVersion + " changes from "

// pendingMinor: the upgrade to target already waits for the window (scheduled by an earlier apply).
func pendingMinor(p *PendingChange, target string) bool {
	if p == nil {
		return false
	}
	for _, c := range p.Changes {
		if strings.HasPrefix(c, minorReasonPrefix) && strings.Contains(c, " to "+target+" ") {
			return true
		}
	}
	return false
}

func pendingMinorAny(p *PendingChange) bool {
	for _, c := range p.Changes {
		if strings.HasPrefix(c, minorReasonPrefix) {
			return true
		}
	}
	return false
}

// restartDeferrable: apply_restarts = "in_maintenance_window" defers the spec order's and the
// parameters' restarts (Op empty) and the minor version upgrade's; SSL and TDE cannot wait.
func restartDeferrable(op string) bool {
	return op == "" || op == OpUpgradeKernelVersion || op == OpWaitMinorFollower
}

// tdeMinorProblems: TDE on MySQL 5.6 needs minor version 20191015 or later, running or upgraded
// to earlier in the same apply (the program runs the minor version upgrade first; it cannot when
// the upgrade waits for the window, since TDE cannot).
func tdeMinorProblems(in PlanInput, d Decision) []Problem {
	version, _ := editionOf(in)
	if version != "5.6" {
		return nil
	}
	if in.Prior == nil {
		if t := in.Desired.Minor.Target.Or(""); t != "" && t < TDEMinMinorVersion56 {
			return []Problem{problem(RuleTDEMinorVersion, "true", in.Label, t, TDEMinMinorVersion56)}
		}
		return nil
	}
	running := in.Prior.MinorVersion
	if running == "" || running >= TDEMinMinorVersion56 {
		return nil
	}
	if up := d.Minor.Upgrade; up != nil && up.To >= TDEMinMinorVersion56 && in.Desired.ApplyRestarts != ApplyRestartsInWindow {
		return nil
	}
	return []Problem{problem(RuleTDEMinorVersion, "true", in.Label, running, TDEMinMinorVersion56)}
}
