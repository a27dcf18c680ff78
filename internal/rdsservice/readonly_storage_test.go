package rdsservice

import (
	"strings"
	"testing"
)

// A read-only instance's spec order carries its storage, so it is refused at plan whenever that
// storage is below its primary's, now or as this run's plan of the primary grows it; with no spec
// order the read-only instance may keep less storage (the primary's plan only warns).
func TestPlanReadOnlySpecOrderBelowPrimaryStorage(t *testing.T) {
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	desired := func(class string) Desired {
		return Desired{InstanceClass: Known(class), Storage: Known(int64(100)), AtomicWrite: Null[bool](),
			ApplyRestarts: ApplyRestartsInWindow, MaintenanceWindow: Known("02:00Z-03:00Z")}
	}
	for _, tc := range []struct {
		name           string
		class          string
		primaryNow     int64
		primaryPlanned Val[int64]
		refusedBy      string
	}{
		{"class change while the primary grows in this apply", "mysqlro.n2.large.1c", 100, Known(int64(150)), "rm-1 (as this apply grows it)"},
		{"class change below the primary's storage now", "mysqlro.n2.large.1c", 150, Null[int64](), "rm-1"},
		{"class change, primary's planned storage known only at apply", "mysqlro.n2.large.1c", 100, Unknown[int64](), ""},
		{"class change, primary keeps its storage", "mysqlro.n2.large.1c", 100, Known(int64(100)), ""},
		{"no spec order while the primary grows", "mysqlro.n2.medium.1c", 100, Known(int64(150)), ""},
	} {
		primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: tc.primaryNow, Status: StatusRunning}
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: desired(tc.class),
			Facts: Facts{Primary: &primary, PrimaryStorage: tc.primaryPlanned}})
		var refusal *Problem
		for _, p := range d.Errors() {
			if p.Rule == RuleStorageReadOnlyBelow {
				refusal = &p
			}
		}
		switch {
		case tc.refusedBy == "" && refusal != nil:
			t.Errorf("%s: refused: %+v", tc.name, *refusal)
		case tc.refusedBy != "" && refusal == nil:
			t.Errorf("%s: not refused (problems %+v)", tc.name, d.Problems)
		case refusal != nil && !strings.Contains(refusal.Detail, "its primary "+tc.refusedBy+" has 150 GB"):
			t.Errorf("%s: detail %q does not name %q with 150 GB", tc.name, refusal.Detail, tc.refusedBy)
		}
	}
}

// The primary's storage known only at apply: the read-only instance's spec order may be refused
// there, so its plan names that possibility (issue 39 §3); with no spec order nothing is named.
func TestPlanReadOnlySpecOrderPrimaryStorageKnownAtApply(t *testing.T) {
	ro := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: 100, Status: StatusRunning}
	for class, want := range map[string]bool{"mysqlro.n2.large.1c": true, "mysqlro.n2.medium.1c": false} {
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro,
			Desired: Desired{InstanceClass: Known(class), Storage: Known(int64(100)), AtomicWrite: Null[bool]()},
			Facts:   Facts{Primary: &primary, PrimaryStorage: Unknown[int64]()}})
		named := false
		for _, w := range d.Warnings() {
			named = named || w.Rule == RuleStorageReadOnlyBelowUnknown && strings.Contains(w.Detail, "storage of its primary rm-1 is known only at apply")
		}
		if named != want || d.HasErrors() {
			t.Errorf("instance_type %s: possible refusal named %t, want %t (problems %+v)", class, named, want, d.Problems)
		}
	}
}

// A read-only instance created in the run that grows its primary is created after the growth:
// below the grown storage it is refused at plan, naming the primary as this apply grows it (found
// by the oracle's proxy factor, a read-only instance added and weighted: the plan passed and the
// apply refused it).
func TestPlanNewReadOnlyBelowPrimaryGrowth(t *testing.T) {
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	for _, tc := range []struct {
		name    string
		planned Val[int64]
		refused bool
	}{
		{"primary grows to 150 in this apply", Known(int64(150)), true},
		{"primary keeps 100", Known(int64(100)), false},
		{"primary not planned in this run", Null[int64](), false},
	} {
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: Desired{InstanceClass: Known("mysqlro.n2.medium.1c"),
			Storage: Known(int64(100))}, Facts: Facts{Primary: &primary, PrimaryStorage: tc.planned}})
		var refusal *Problem
		for _, p := range d.Errors() {
			if p.Rule == RuleStorageReadOnlyBelow {
				refusal = &p
			}
		}
		if (refusal != nil) != tc.refused || (refusal != nil && !strings.Contains(refusal.Detail, "its primary rm-1 (as this apply grows it) has 150 GB")) {
			t.Errorf("%s: refusal %+v (problems %+v)", tc.name, refusal, d.Problems)
		}
	}
}
