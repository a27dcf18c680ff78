package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func minorInput(running, target string) PlanInput {
	prior := programPrior()
	prior.MinorVersion, prior.LatestMinorVersion, prior.AutoUpgradeMinorVersion = running, "rds_20250630", "Auto"
	desired := programDesired()
	desired.Minor.Target = Known(target)
	return PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}}
}

// A later target is one UpgradeDBInstanceKernelVersion with its switchover, named at plan; the
// read-only instances restart with it; prevent_restart refuses it.
func TestMinorUpgradeIsAnOperationWithSwitchover(t *testing.T) {
	in := minorInput("rds_20201031", "rds_20230630")
	in.Facts.ReadOnly = []ExistingInstance{{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", Status: StatusRunning}}
	d := Plan(in)
	if d.HasErrors() || d.Minor.Upgrade == nil || d.Minor.Upgrade.To != "rds_20230630" || d.Action != ActionUpdateWithRestart {
		t.Fatalf("decision %+v problems %+v", d.Minor, d.Problems)
	}
	want := []step{
		{OpUpgradeKernelVersion, "rm-1", WhenNow, EffectSwitchover},
		{OpWaitMinorFollower, "rr-1", WhenNow, EffectRestart},
		{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone},
		{OpModifySettings, "rm-1", WhenNow, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || w[0].Attribute != AttrTargetMinorVersion ||
		!strings.Contains(w[0].Detail, "target_minor_version changes from rds_20201031 to rds_20230630") || !strings.Contains(w[0].Detail, "rr-1") {
		t.Fatalf("warning %+v", w)
	}
	in.Desired.PreventRestart = true
	if d := Plan(in); !reflect.DeepEqual(rules(d.Errors()), []RuleID{RuleRestartRefused}) {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}
}

// A target at or below the running version (the cloud upgraded it automatically) plans nothing.
func TestMinorTargetBehindPlansNoDowngrade(t *testing.T) {
	for _, target := range []string{"rds_20201031", "rds_20200229"} {
		d := Plan(minorInput("rds_20201031", target))
		if d.Minor.Upgrade != nil || len(d.Problems) != 0 || len(d.Program.Restarts()) != 0 {
			t.Fatalf("target %s: %+v %+v", target, d.Minor, d.Problems)
		}
	}
	if p := MinorVersionBehind("rm-1", "rds_20201031", "rds_20201031", "rds_20250630"); !reflect.DeepEqual(rules(p), []RuleID{RuleMinorVersionBehind}) {
		t.Fatalf("the refresh that first sees the automatic upgrade warns: %+v", p)
	}
	if p := MinorVersionBehind("rm-1", "rds_20201031", "rds_20250630", "rds_20250630"); len(p) != 0 {
		t.Fatalf("the next refreshes do not warn again: %+v", p)
	}
}

func TestMinorUpgradeRulesAtPlan(t *testing.T) {
	if got := rules(CheckMinorVersionConfig(Known("20200229"))); !reflect.DeepEqual(got, []RuleID{RuleMinorVersionFormat}) {
		t.Fatalf("format: %v", got)
	}
	if got := rules(Plan(minorInput("rds_20201031", "rds_20990101")).Errors()); !reflect.DeepEqual(got, []RuleID{RuleMinorVersionNotOffered}) {
		t.Fatalf("later than the latest: %v", got)
	}
	withMajor := minorInput("rds_20201031", "rds_20230630")
	withMajor.Prior.EngineVersion = "5.7"
	withMajor.Desired.EngineVersion = Known("8.0")
	if got := rules(Plan(withMajor).Errors()); !reflect.DeepEqual(got, []RuleID{RuleMinorVersionAlone}) {
		t.Fatalf("with a major upgrade: %v", got)
	}
	unknown := minorInput("rds_20201031", "")
	unknown.Desired.Minor.Target = Unknown[string]()
	if d := Plan(unknown); d.Minor.Upgrade != nil || !strings.Contains(strings.Join(d.MayRestart, ","), AttrTargetMinorVersion) {
		t.Fatalf("unknown target: %+v may %v", d.Minor, d.MayRestart)
	}
}

// apply_restarts = "in_maintenance_window" defers the upgrade; once scheduled, the same target
// plans only the pending task, and another target is refused.
func TestMinorUpgradeDeferredToWindow(t *testing.T) {
	in := minorInput("rds_20201031", "rds_20230630")
	in.Desired.ApplyRestarts = ApplyRestartsInWindow
	d := Plan(in)
	if !d.Deferred || d.HasErrors() || d.Program.Operations[0].Action != OpUpgradeKernelVersion || d.Program.Operations[0].When != WhenInWindow {
		t.Fatalf("deferred %t ops %+v problems %+v", d.Deferred, d.Program.Operations, d.Problems)
	}
	in.Facts.Pending = &PendingChange{TaskID: "1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-01T02:00:00Z", Changes: d.Program.Restarts()[0].Reasons}
	again := Plan(in)
	if again.Minor.Upgrade != nil || again.HasErrors() {
		t.Fatalf("the scheduled upgrade is not ordered again: %+v %+v", again.Minor, again.Problems)
	}
	in.Desired.Minor.Target = Known("rds_20250630")
	if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, []RuleID{RuleMinorVersionPending}) {
		t.Fatalf("another target while one waits: %v", got)
	}
	in.Facts.Pending.Changes = []string{"instance_type changes from mysql.n2.medium.2c to mysql.n2.large.2c"}
	if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, []RuleID{RuleMinorVersionAlone}) {
		t.Fatalf("beside a spec change waiting for the window: %v", got)
	}
}

func TestAutoUpgradeMinorSetting(t *testing.T) {
	in := minorInput("rds_20201031", "rds_20201031")
	in.Desired.Minor.AutoUpgrade = Known("Manual")
	d := Plan(in)
	if d.HasErrors() || d.Minor.AutoUpgrade == nil || len(d.Program.Restarts()) != 0 || d.Program.Operations[0].Action != OpModifyAutoUpgradeMinor {
		t.Fatalf("Auto -> Manual: %+v %+v", d.Program.Operations, d.Problems)
	}
	in.Prior.AutoUpgradeMinorVersion = "Manual"
	if d := Plan(in); d.Minor.AutoUpgrade != nil {
		t.Fatal("unchanged setting sent")
	}
}

// TDE on MySQL 5.6 needs minor version 20191015: planned first in the same apply, or refused.
func TestTDEOn56NeedsMinorVersion(t *testing.T) {
	in := minorInput("rds_20190815", "")
	in.Prior.EngineVersion, in.Desired.EngineVersion = "5.6", Known("5.6")
	in.Desired.Minor.Target = Null[string]()
	in.Desired.Security.TDE = Known(true)
	errs := Plan(in).Errors()
	if !reflect.DeepEqual(rules(errs), []RuleID{RuleTDEMinorVersion}) || !strings.Contains(errs[0].Detail, "rds_20190815") || !strings.Contains(errs[0].Detail, `target_minor_version = "rds_20191015"`) {
		t.Fatalf("TDE on rds_20190815: %+v", errs)
	}
	in.Prior.LatestMinorVersion = "rds_20230630"
	in.Desired.Minor.Target = Known("rds_20191015")
	d := Plan(in)
	if d.HasErrors() || d.Program.Operations[0].Action != OpUpgradeKernelVersion || d.Program.Operations[1].Action != OpModifyTDE {
		t.Fatalf("the upgrade goes first: %+v %+v", d.Program.Operations, d.Problems)
	}
	in.Desired.ApplyRestarts = ApplyRestartsInWindow
	if !reflect.DeepEqual(rules(Plan(in).Errors()), []RuleID{RuleTDEMinorVersion}) {
		t.Fatal("a deferred upgrade cannot go before TDE")
	}
}

// A read-only instance's own plan names its restart when its primary's plan upgrades the minor
// version (so its prevent_restart refuses it); it plans nothing when it already runs that version.
func TestReadOnlyFollowsPrimaryMinorUpgrade(t *testing.T) {
	primary := Plan(minorInput("rds_20201031", "rds_20230630"))
	follow := PlannedMinorFollow(primary, "rm-1")
	if follow == nil || follow.To != "rds_20230630" || follow.When != "" {
		t.Fatalf("follow %+v", follow)
	}
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 20, Status: StatusRunning, MinorVersion: "rds_20201031"}
	in := PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: Desired{InstanceClass: Known(ro.InstanceClass), Storage: Known(int64(20)), ApplyRestarts: ApplyRestartsImmediately},
		Facts: Facts{PrimaryMinor: follow, Primary: &ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", Category: "HighAvailability"}}}
	d := Plan(in)
	if d.HasErrors() || len(d.Program.Restarts()) != 1 || d.Program.Operations[0].Action != OpWaitMinorFollower {
		t.Fatalf("program %+v problems %+v", d.Program.Operations, d.Problems)
	}
	in.Desired.PreventRestart = true
	if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, []RuleID{RuleRestartRefused}) {
		t.Fatalf("prevent_restart on the read-only instance: %v", got)
	}
	ro.MinorVersion = "rds_20230630"
	in.Desired.PreventRestart = false
	if d := Plan(in); len(d.Program.Restarts()) != 0 {
		t.Fatalf("already on the version: %+v", d.Program.Restarts())
	}
}
