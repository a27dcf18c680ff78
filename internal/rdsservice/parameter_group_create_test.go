package rdsservice

import (
	"slices"
	"testing"
)

// P8 with a group created in the same run (its parameters known only at apply): a new primary gets
// it with CreateDBInstance's DBParamGroupId and runs its values from the start, so nothing may
// restart it and prevent_restart takes the plan; a new read-only instance gets it with
// ModifyParameter right after creation, which may restart it: named as possible, refused with
// prevent_restart. (The oracle's parameter group factor, seed 1: the primary's plan was refused.)
func TestGroupKnownOnlyAtApplyOnANewInstance(t *testing.T) {
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	group := DesiredParameters{Group: &GroupParameters{ID: ""}, UnknownValues: map[string]bool{}}
	for _, tc := range []struct {
		name    string
		in      PlanInput
		refused bool
	}{
		{"new primary", PlanInput{Role: RolePrimary, Label: "new", Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
			StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(100)),
			Parameters: group}, Facts: Facts{Parameters: planFacts(nil, nil)}}, false},
		{"new read-only instance", PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: Desired{InstanceClass: Known("mysqlro.n2.medium.1c"),
			Storage: Known(int64(100)), Parameters: group}, Facts: Facts{Primary: &primary, Parameters: planFacts(nil, nil)}}, true},
	} {
		for _, prevent := range []bool{false, true} {
			in := tc.in
			in.Desired.PreventRestart = prevent
			d := Plan(in)
			refused := slices.ContainsFunc(d.Errors(), func(p Problem) bool { return p.Rule == RuleMayRestartRefused })
			possible := slices.Contains(d.MayRestart, AttrParameters)
			if want := tc.refused && prevent; refused != want || possible != (tc.refused && !prevent) || len(d.Errors()) > 0 && !want {
				t.Errorf("%s, prevent_restart %t: refused %t, possible restart %t (errors %v), want refused %t", tc.name, prevent, refused, possible, d.Errors(), want)
			}
		}
	}
}
