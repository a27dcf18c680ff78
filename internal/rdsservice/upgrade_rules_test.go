package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func upgradeInput(from, to string) PlanInput {
	prior := programPrior()
	prior.EngineVersion = from
	desired := programDesired()
	desired.EngineVersion = Known(to)
	return PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}}
}

func rules(problems []Problem) []RuleID {
	var out []RuleID
	for _, p := range problems {
		out = append(out, p.Rule)
	}
	return out
}

func TestIsEngineUpgrade(t *testing.T) {
	for _, c := range []struct {
		engine, from, to string
		want             bool
	}{
		{"MySQL", "5.7", "8.0", true}, {"MySQL", "5.6", "8.0", true}, {"mysql", "8.0", "8.4", true},
		{"MySQL", "8.0", "5.7", false}, {"MySQL", "8.0", "8.0", false}, {"MySQL", "5.7", "9.9", false},
		{"PostgreSQL", "14.0", "15.0", false},
	} {
		if got := IsEngineUpgrade(c.engine, c.from, c.to); got != c.want {
			t.Errorf("IsEngineUpgrade(%s, %s, %s) = %t", c.engine, c.from, c.to, got)
		}
	}
}

// An upgrade is one operation with one switchover, named in the plan's restart warning.
func TestUpgradeIsOneOperationWithSwitchover(t *testing.T) {
	d := Plan(upgradeInput("5.7", "8.0"))
	if d.HasErrors() || d.Action != ActionUpdateWithRestart || d.Upgrade == nil || d.Upgrade.To != "8.0" {
		t.Fatalf("decision %+v, problems %+v", d.Action, d.Problems)
	}
	want := []step{
		{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone},
		{OpUpgradeEngineVersion, "rm-1", WhenNow, EffectSwitchover},
		{OpModifySettings, "rm-1", WhenNow, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || w[0].Attribute != AttrEngineVersion || !strings.Contains(w[0].Detail, "engine_version changes from 5.7 to 8.0") ||
		!strings.Contains(w[0].Detail, "switchover") {
		t.Fatalf("warning %+v", w)
	}
	guarded := upgradeInput("5.7", "8.0")
	guarded.Desired.PreventRestart = true
	if d := Plan(guarded); !reflect.DeepEqual(rules(d.Errors()), []RuleID{RuleRestartRefused}) || d.Guard != GuardPreventRestart {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}
}

func TestUpgradeRulesAtPlan(t *testing.T) {
	skip := Plan(upgradeInput("5.6", "8.0"))
	if got := rules(skip.Errors()); !reflect.DeepEqual(got, []RuleID{RuleUpgradePath}) || !strings.Contains(skip.Errors()[0].Detail, `engine_version = "5.7"`) {
		t.Fatalf("5.6 -> 8.0: %+v", skip.Errors())
	}
	ssd := upgradeInput("5.7", "8.0")
	ssd.Prior.StorageType, ssd.Desired.StorageType = "cloud_ssd", Known("cloud_ssd")
	if got := rules(Plan(ssd).Errors()); !reflect.DeepEqual(got, []RuleID{RuleUpgradeEdition}) {
		t.Fatalf("cloud_ssd: %v", got)
	}
	local := upgradeInput("5.7", "8.0")
	local.Prior.StorageType, local.Desired.StorageType = "local_ssd", Known("local_ssd")
	if d := Plan(local); d.HasErrors() {
		t.Fatalf("High-availability on local SSD upgrades in place: %+v", d.Errors())
	}
	withClass := upgradeInput("5.7", "8.0")
	withClass.Desired.InstanceClass = Known("mysql.n2.large.2c")
	if got := rules(Plan(withClass).Errors()); !reflect.DeepEqual(got, []RuleID{RuleUpgradeAlone}) {
		t.Fatalf("with a class change: %v", got)
	}
}

// Read-only instances behind the target are named with the order, at plan.
func TestUpgradeReadOnlyInstancesFirst(t *testing.T) {
	in := upgradeInput("5.7", "8.0")
	ro := func(id, version, status string) ExistingInstance {
		return ExistingInstance{ID: id, MasterID: "rm-1", Engine: "MySQL", EngineVersion: version, StorageType: "cloud_essd", Status: status}
	}
	in.Facts.ReadOnly = []ExistingInstance{ro("rr-1", "5.7", StatusRunning), ro("rr-2", "8.0", StatusRunning), ro("rr-3", "8.0", "EngineVersionUpgrading")}
	errs := Plan(in).Errors()
	if !reflect.DeepEqual(rules(errs), []RuleID{RuleUpgradeReadOnlyFirst}) || !strings.Contains(errs[0].Detail, "rr-1 (MySQL 5.7), rr-3 (EngineVersionUpgrading)") ||
		strings.Contains(errs[0].Detail, "rr-2") || !strings.Contains(errs[0].Detail, `first keep engine_version = "5.7" on rm-1`) {
		t.Fatalf("read-only instances: %+v", errs)
	}
	in.Facts.ReadOnly = []ExistingInstance{ro("rr-2", "8.0", StatusRunning)}
	if d := Plan(in); d.HasErrors() {
		t.Fatalf("read-only instances already upgraded: %+v", d.Errors())
	}
	in.Facts.ReadOnly, in.Facts.ReadOnlyError = nil, "Throttling"
	if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, []RuleID{RuleUpgradeReadOnlyNotKnown}) {
		t.Fatalf("read-only instances unknown: %v", got)
	}
}

// A 5.6 instance on ESSD becomes eligible for 16K atomic write with 5.7: supported is planned
// true, the flag stays off, and the plan says how to turn it on.
func TestUpgrade16KEligibility(t *testing.T) {
	in := upgradeInput("5.6", "5.7")
	in.Prior.Supported, in.Prior.CreationTime = false, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	d := Plan(in)
	if d.HasErrors() || !d.AtomicWriteSupported.Is(true) || !d.AtomicWrite.Is(false) {
		t.Fatalf("supported %+v flag %+v problems %+v", d.AtomicWriteSupported, d.AtomicWrite, d.Problems)
	}
	if !reflect.DeepEqual(rules(d.Warnings()), []RuleID{RuleUpgrade16KAvailable, RuleRestart}) {
		t.Fatalf("warnings %v", rules(d.Warnings()))
	}
	old := upgradeInput("5.6", "5.7")
	old.Prior.Supported, old.Prior.CreationTime = false, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	if d := Plan(old); !d.AtomicWriteSupported.Is(false) {
		t.Fatalf("an x86 instance bought before 2025-05-14 stays ineligible: %+v", d.AtomicWriteSupported)
	}
}

// apply_restarts = "in_maintenance_window" defers the upgrade to the window.
func TestUpgradeDeferredToWindow(t *testing.T) {
	in := upgradeInput("5.7", "8.0")
	in.Desired.ApplyRestarts = ApplyRestartsInWindow
	d := Plan(in)
	if !d.Deferred || d.HasErrors() {
		t.Fatalf("deferred %t, problems %+v", d.Deferred, d.Problems)
	}
	if op := d.Program.Operations[1]; op.Action != OpUpgradeEngineVersion || op.When != WhenInWindow {
		t.Fatalf("operation %+v", op)
	}
	if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleRestartDeferred {
		t.Fatalf("warnings %+v", w)
	}
}
