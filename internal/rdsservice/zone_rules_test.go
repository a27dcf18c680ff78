package rdsservice

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func zoneInput(want Placement) PlanInput {
	prior := programPrior()
	return PlanInput{Label: "rm-1", Prior: &prior, Desired: Desired{Placement: want},
		Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Placement: &PlacementFacts{
			Placement: Placement{Zone: "cn-hangzhou-i", SlaveA: "cn-hangzhou-i", VSwitch: "vsw-i"}, VPC: "vpc-1", KernelVersion: "rds_20250630"}}}
}

func withDesired(in PlanInput) PlanInput {
	p := in.Desired.Placement
	in.Desired = programDesired()
	in.Desired.Placement = p
	return in
}

// A zone move is one MigrateToOtherZone with one switchover, named in the plan's restart warning;
// the secondary zone follows the zone when unset; prevent_restart refuses it.
func TestZoneMoveIsOneOperationWithSwitchover(t *testing.T) {
	d := Plan(withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"})))
	if d.HasErrors() || d.Action != ActionUpdateWithRestart || d.ZoneMove == nil {
		t.Fatalf("decision %v, problems %+v", d.Action, d.Problems)
	}
	want := []step{
		{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone},
		{OpMigrateToOtherZone, "rm-1", WhenNow, EffectSwitchover},
		{OpModifySettings, "rm-1", WhenNow, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	if to := d.ZoneMove.To; to != (Placement{Zone: "cn-hangzhou-j", SlaveA: "cn-hangzhou-j", VSwitch: "vsw-j"}) || d.ZoneMove.VPC != "vpc-1" {
		t.Fatalf("move %+v", d.ZoneMove)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || w[0].Attribute != AttrZoneID || !strings.Contains(w[0].Detail, `zone_id changes from "cn-hangzhou-i" to "cn-hangzhou-j"`) ||
		!strings.Contains(w[0].Detail, "switchover") {
		t.Fatalf("warning %+v", w)
	}
	guarded := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}))
	guarded.Desired.PreventRestart = true
	if d := Plan(guarded); !reflect.DeepEqual(rules(d.Errors()), []RuleID{RuleRestartRefused}) {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}
	same := Plan(withDesired(zoneInput(Placement{Zone: "cn-hangzhou-i", SlaveA: "cn-hangzhou-i"})))
	if same.ZoneMove != nil || same.Action != ActionNoop {
		t.Fatalf("the same placement moves nothing: %+v %v", same.ZoneMove, same.Action)
	}
}

func TestZoneMoveRulesAtPlan(t *testing.T) {
	for _, c := range []struct {
		name   string
		want   Placement
		change func(*PlanInput)
		rules  []RuleID
	}{
		{"vSwitch left in the old zone", Placement{Zone: "cn-hangzhou-j"}, nil, []RuleID{RuleZoneMoveVSwitch}},
		{"secondary zone on Basic", Placement{SlaveA: "cn-hangzhou-k"}, func(in *PlanInput) {
			in.Prior.Category, in.Desired.Category = "Basic", Known("Basic")
		}, []RuleID{RuleZoneMoveBasicSecondary}},
		{"third zone on High-availability", Placement{SlaveB: "cn-hangzhou-k"}, nil, []RuleID{RuleZoneMoveThirdZone}},
		{"cluster edition", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Prior.Category, in.Desired.Category = "cluster", Known("cluster")
		}, []RuleID{RuleZoneMoveEdition}},
		{"old minor version on cloud disks", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Facts.Placement.KernelVersion = "rds_20200630"
		}, []RuleID{RuleZoneMoveMinorVersion}},
		{"read-only instance stopped", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Facts.ReadOnly = []ExistingInstance{{ID: "rr-1", Status: StatusRunning}, {ID: "rr-2", Status: "Stopped"}}
		}, []RuleID{RuleZoneMoveReadOnlyRunning}},
		{"read-only instances unknown", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Facts.ReadOnlyError = "Throttling"
		}, []RuleID{RuleZoneMoveNotKnown}},
		{"with a class change", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Desired.InstanceClass = Known("mysql.n2.large.2c")
		}, []RuleID{RuleZoneMoveAlone}},
		{"with a minor version upgrade", Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}, func(in *PlanInput) {
			in.Prior.MinorVersion, in.Prior.LatestMinorVersion = "rds_20230630", "rds_20250630"
			in.Desired.Minor.Target = Known("rds_20250630")
		}, []RuleID{RuleZoneMoveAlone}},
	} {
		in := withDesired(zoneInput(c.want))
		if c.change != nil {
			c.change(&in)
		}
		if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, c.rules) {
			t.Errorf("%s: %v, want %v (%+v)", c.name, got, c.rules, Plan(in).Errors())
		}
	}
	local := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}))
	local.Prior.StorageType, local.Desired.StorageType, local.Facts.Placement.KernelVersion = "local_ssd", Known("local_ssd"), "rds_20200630"
	if d := Plan(local); d.HasErrors() {
		t.Fatalf("the minor version rule is for cloud disks only: %+v", d.Errors())
	}
}

// apply_restarts = "in_maintenance_window" defers the move to the window.
func TestZoneMoveDeferredToWindow(t *testing.T) {
	in := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}))
	in.Desired.ApplyRestarts = ApplyRestartsInWindow
	d := Plan(in)
	if !d.Deferred || d.HasErrors() {
		t.Fatalf("deferred %t, problems %+v", d.Deferred, d.Problems)
	}
	if op := d.Program.Operations[1]; op.Action != OpMigrateToOtherZone || op.When != WhenInWindow {
		t.Fatalf("operation %+v", op)
	}
	if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleRestartDeferred {
		t.Fatalf("warnings %+v", w)
	}
}

// A new Basic instance has no secondary zone, a new High-availability one no third zone.
func TestZoneRulesAtCreate(t *testing.T) {
	for _, c := range []struct {
		category string
		want     Placement
		rule     RuleID
	}{{"Basic", Placement{SlaveA: "cn-hangzhou-j"}, RuleZoneMoveBasicSecondary}, {"HighAvailability", Placement{SlaveB: "cn-hangzhou-j"}, RuleZoneMoveThirdZone}} {
		desired := programDesired()
		desired.Category, desired.Placement = Known(c.category), c.want
		d := Plan(PlanInput{Label: "the new instance", Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}})
		if got := rules(d.Errors()); !reflect.DeepEqual(got, []RuleID{c.rule}) {
			t.Errorf("%s with %+v: %v", c.category, c.want, got)
		}
	}
}

// A Basic instance's move sends no secondary zone (the cloud refuses one).
func TestZoneMoveOfBasicHasNoSecondaryZone(t *testing.T) {
	in := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}))
	in.Prior.Category, in.Desired.Category = "Basic", Known("Basic")
	in.Facts.Placement.SlaveA = ""
	d := Plan(in)
	if d.HasErrors() || d.ZoneMove == nil || d.ZoneMove.To.SlaveA != "" || len(d.ZoneMove.Slaves()) != 0 {
		t.Fatalf("move %+v, problems %+v", d.ZoneMove, d.Problems)
	}
	if w := d.Warnings(); len(w) != 1 || !strings.Contains(w[0].Detail, "the single node restarts") {
		t.Fatalf("warnings %+v", w)
	}
}

// With Buffer Pool Extension on, the plan says it cannot check the target zone (no API lists the
// zones that support it) and still plans the move; without it, nothing is said.
func TestZoneMoveWithBufferPoolExtensionWarns(t *testing.T) {
	for _, bpe := range []bool{true, false} {
		in := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-k", VSwitch: "vsw-k"}))
		in.Prior.BufferPoolExtension = bpe
		in.Desired.BufferPoolExtension = Known(bpe)
		d := Plan(in)
		if d.HasErrors() || d.ZoneMove == nil {
			t.Fatalf("bpe %t: move %+v, problems %+v", bpe, d.ZoneMove, d.Problems)
		}
		warned := slices.ContainsFunc(d.Warnings(), func(p Problem) bool { return p.Rule == RuleZoneMoveBPEUnchecked })
		if warned != bpe {
			t.Errorf("bpe %t: warned %t (%+v)", bpe, warned, d.Warnings())
		}
	}
}
