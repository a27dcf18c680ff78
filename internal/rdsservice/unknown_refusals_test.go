package rdsservice

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// atomic_write_16k known only at apply on an instance that cannot have it: the plan names the
// refusal the apply would make (issue 39 §3); a known false, or an eligible instance, names none.
func TestPlan16KKnownAtApplyNamesPossibleRefusal(t *testing.T) {
	old := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "5.7", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Status: StatusRunning, CreationTime: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}
	eligible := old
	eligible.EngineVersion, eligible.Supported = "8.0", true
	for _, c := range []struct {
		name string
		cur  ExistingInstance
		flag Val[bool]
		want bool
	}{
		{"5.7, known only at apply", old, Unknown[bool](), true},
		{"5.7, false", old, Known(false), false},
		{"8.0 eligible, known only at apply", eligible, Unknown[bool](), false},
	} {
		cur := c.cur
		d := Plan(PlanInput{Role: RolePrimary, Label: "rm-1", Prior: &cur, Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known(cur.EngineVersion),
			InstanceClass: Known(cur.InstanceClass), StorageType: Known(cur.StorageType), Category: Known(cur.Category), Storage: Known(cur.Storage),
			AtomicWrite: c.flag, BufferPoolExtension: Null[bool](), MaintenanceWindow: Known("02:00Z-03:00Z")}, Facts: Facts{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}})
		named := false
		for _, w := range d.Warnings() {
			named = named || w.Rule == Rule16KRefusalPossibleUnknown
		}
		if named != c.want {
			t.Errorf("%s: possible refusal named %t, want %t (problems %+v)", c.name, named, c.want, d.Problems)
		}
	}
}

// atomic_write_16k known only at apply beside an edition upgrade (seed 20261206, mechanism "16K known at
// apply"): the possible refusal the plan names is the one the apply makes, edition-upgrade-16k, not the
// Basic edition's "only at creation".
func TestPlan16KKnownAtApplyBesideEditionUpgradeNamesItsRefusal(t *testing.T) {
	in := editionInput()
	in.Prior.Supported, in.Desired.AtomicWrite = true, Unknown[bool]()
	d := Plan(in)
	want := Raise(RuleEditionUpgrade16K, "true", "rm-1").Summary
	for _, w := range d.Warnings() {
		if w.Rule == Rule16KRefusalPossibleUnknown && strings.Contains(w.Detail, want) {
			return
		}
	}
	t.Errorf("no possible refusal naming %q; problems %+v", want, d.Problems)
}

// instance_type known only at apply beside an edition upgrade that turns atomic_write_16k on (seed 20261206,
// mechanism "instance_type known at apply"): refused at plan as the apply refuses it, whatever the class.
func TestPlan16KOnBesideEditionUpgradeRefusedWhateverTheClass(t *testing.T) {
	in := editionInput()
	in.Prior.Supported, in.Desired.AtomicWrite, in.Desired.InstanceClass = true, Known(true), Unknown[string]()
	if got := rules(Plan(in).Errors()); !reflect.DeepEqual(got, []RuleID{RuleEditionUpgrade16K}) {
		t.Errorf("errors %v, want [%s]", got, RuleEditionUpgrade16K)
	}
}

// A primary whose atomic_write_16k is known only at apply, with its change deferred to the window (seed
// 20261206, mechanism "16K known at apply", prevent_restart on the read-only instance): the ledger keeps the
// flag unknown, so the read-only instance's plan names the follow restart as possible and its
// prevent_restart refuses it (it recorded the current value, and the window restarted the read-only
// instance unnamed); a known value deferred is still the current one during this apply.
func TestRecordPrimaryKeepsAnUnknownDeferredFlagUnknown(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", Enabled: false}
	in := PlanInput{Prior: &prior, Desired: Desired{Storage: Known[int64](100)}}
	for _, c := range []struct {
		flag        Val[bool]
		wantUnknown bool
	}{{Unknown[bool](), true}, {Known(true), false}} {
		var l Ledger
		recordPrimary(&l, "rm-1", in, Decision{Deferred: true, AtomicWrite: c.flag})
		if got := l.Primary("rm-1").AtomicWrite; got.IsUnknown() != c.wantUnknown || !c.wantUnknown && !got.Is(false) {
			t.Errorf("deferred flag %v: the ledger records %v", c.flag, got)
		}
	}
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: Desired{InstanceClass: Known(ro.InstanceClass), Storage: Known[int64](100),
		StorageType: Known(ro.StorageType), AtomicWrite: Null[bool](), PreventRestart: true, ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known("02:00Z-03:00Z")},
		Facts: Facts{Primary: &prior, PrimaryPlanned: Unknown[bool]()}})
	if !slices.ContainsFunc(d.Errors(), func(p Problem) bool { return p.Rule == RuleMayRestartRefusedUnknown }) {
		t.Errorf("read-only instance of a primary whose flag is known only at apply: errors %v, want %s", d.Errors(), RuleMayRestartRefusedUnknown)
	}
}

// A zone move beside instance_type known only at apply (seed 20261206, mechanism "instance_type known at apply",
// replace "zone move"): the apply refuses the move if the class changes there, and the plan names that refusal;
// with the class known and unchanged it names none.
func TestPlanZoneMoveBesideClassKnownAtApplyNamesPossibleRefusal(t *testing.T) {
	for _, c := range []struct {
		unknown bool
		want    bool
	}{{true, true}, {false, false}} {
		in := withDesired(zoneInput(Placement{Zone: "cn-hangzhou-j", VSwitch: "vsw-j"}))
		if c.unknown {
			in.Desired.InstanceClass = Unknown[string]()
		}
		d := Plan(in)
		named := false
		for _, w := range d.Warnings() {
			named = named || w.Rule == RuleAloneRefusalPossibleUnknown && strings.Contains(w.Detail, Raise(RuleZoneMoveAlone, "", "rm-1", "").Summary)
		}
		if d.ZoneMove == nil || d.HasErrors() || named != c.want {
			t.Errorf("class unknown %t: zone move %v, possible refusal named %t, want %t (problems %+v)", c.unknown, d.ZoneMove, named, c.want, d.Problems)
		}
	}
}
