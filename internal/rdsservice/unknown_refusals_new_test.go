package rdsservice

import (
	"testing"
	"time"
)

// atomic_write_16k known only at apply on a new instance, or on the one replacing an instance (issue 39 §3,
// the mechanism "16K known at apply" beside replace = engine_version on cloud_ssd): true is refused by the
// apply's final plan on a storage type without 16K, so the plan names that refusal; an eligible storage
// type, or a known false, names none.
func TestPlan16KKnownAtApplyOnANewInstanceNamesPossibleRefusal(t *testing.T) {
	old := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "5.7", StorageType: "cloud_ssd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Status: StatusRunning, CreationTime: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}
	for _, c := range []struct {
		name    string
		prior   *ExistingInstance
		replace []string
		storage string
		flag    Val[bool]
		want    bool
	}{
		{"created on cloud_ssd, known only at apply", nil, nil, "cloud_ssd", Unknown[bool](), true},
		{"created on cloud_ssd, false", nil, nil, "cloud_ssd", Known(false), false},
		{"created on cloud_essd, known only at apply", nil, nil, "cloud_essd", Unknown[bool](), false},
		{"replaced on cloud_ssd, known only at apply", &old, []string{AttrEngineVersion}, "cloud_ssd", Unknown[bool](), true},
		{"replaced on cloud_ssd, false", &old, []string{AttrEngineVersion}, "cloud_ssd", Known(false), false},
	} {
		d := Plan(PlanInput{Role: RolePrimary, Label: "rm-1", Prior: c.prior, Replace: c.replace, Desired: Desired{Engine: Known("MySQL"),
			EngineVersion: Known("8.0"), InstanceClass: Known(old.InstanceClass), StorageType: Known(c.storage), Category: Known(old.Category),
			Storage: Known(old.Storage), AtomicWrite: c.flag, BufferPoolExtension: Null[bool](), MaintenanceWindow: Known("02:00Z-03:00Z")},
			Facts: Facts{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}})
		named := false
		for _, w := range d.Warnings() {
			named = named || w.Rule == Rule16KRefusalPossibleUnknown
		}
		if named != c.want || d.HasErrors() {
			t.Errorf("%s: possible refusal named %t, want %t (problems %+v)", c.name, named, c.want, d.Problems)
		}
	}
}

// A read-only instance created in a run where its primary's storage is known only at apply (the storage
// known at apply level, seed 20261202, a read-only instance added beside its primary's growth): the apply's
// final plan refuses it below the primary's storage there, so the plan names that refusal as possible.
func TestPlanNewReadOnlyPrimaryStorageKnownAtApply(t *testing.T) {
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		Storage: 100, Status: StatusRunning}
	for _, c := range []struct {
		name    string
		storage Val[int64]
		want    bool
	}{
		{"known only at apply", Unknown[int64](), true},
		{"known, not above the read-only instance's", Known(int64(100)), false},
	} {
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: Desired{InstanceClass: Known("mysqlro.n2.medium.1c"),
			Storage: Known(int64(100)), AtomicWrite: Null[bool]()}, Facts: Facts{Primary: &primary, PrimaryStorage: c.storage}})
		named := false
		for _, w := range d.Warnings() {
			named = named || w.Rule == RuleStorageReadOnlyBelowUnknown
		}
		if named != c.want || d.HasErrors() {
			t.Errorf("%s: possible refusal named %t, want %t (problems %+v)", c.name, named, c.want, d.Problems)
		}
	}
}
