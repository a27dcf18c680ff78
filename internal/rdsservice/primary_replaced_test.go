package rdsservice

import "testing"

// A read-only instance replaced with its primary is checked at plan against the storage the
// primary's replacement is planned with (it was refused only by the apply's final check).
func TestPlanReadOnlyStorageAgainstReplacedPrimary(t *testing.T) {
	prior := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning}
	desired := Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)), AtomicWrite: Null[bool](),
		ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known("02:00Z-03:00Z")}
	for _, tc := range []struct {
		name    string
		primary Val[int64]
		refused bool
		// named: the refusal named as possible (the primary's storage known only at apply, issue 39 §3).
		named bool
	}{
		{"primary grows beyond it", Known(int64(150)), true, false},
		{"primary keeps its storage", Known(int64(100)), false, false},
		{"primary's storage known only at apply", Unknown[int64](), false, true},
	} {
		in := PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &prior, Desired: desired, Replace: []string{AttrMasterInstanceID},
			Facts: Facts{PrimaryReplaced: &ReplacedPrimary{ID: "rm-1", Storage: tc.primary}}}
		d := Plan(in)
		refused := false
		for _, p := range d.Errors() {
			refused = refused || p.Rule == RuleStorageReadOnlyBelow
		}
		named := false
		for _, p := range d.Warnings() {
			named = named || p.Rule == RuleStorageReadOnlyBelowUnknown
		}
		if refused != tc.refused || named != tc.named {
			t.Errorf("%s: refused %t, named as possible %t, want %t and %t (problems %v)", tc.name, refused, named, tc.refused, tc.named, d.Problems)
		}
	}
	// A new read-only instance planned with the replacement: the same check.
	in := PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: desired,
		Facts: Facts{PrimaryReplaced: &ReplacedPrimary{ID: "rm-1", Storage: Known(int64(150))}}}
	if d := Plan(in); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleStorageReadOnlyBelow {
		t.Errorf("new read-only instance: errors %v, want one %s", d.Errors(), RuleStorageReadOnlyBelow)
	}
}
