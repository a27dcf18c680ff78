package rdsservice

import (
	"slices"
	"testing"
)

// The plan names only the replacements the planner decides; the schema's modifiers name those
// that always replace.
func TestSetOnPlanNamesOnlyThePlannersReplacements(t *testing.T) {
	got := SetOnPlan(ResourceInstance, []string{AttrEngine, AttrEngineVersion, AttrZoneID, "vpc_id"})
	if want := []string{AttrEngineVersion, AttrZoneID}; !slices.Equal(got, want) {
		t.Errorf("rds_instance: %v, want %v", got, want)
	}
	if got := SetOnPlan(ResourceReadOnlyInstance, []string{AttrZoneID, AttrMasterInstanceID}); got != nil {
		t.Errorf("rds_readonly_instance: %v, want none (its zone always replaces)", got)
	}
}
