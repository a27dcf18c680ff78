package rdsservice

import (
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A new read-only instance takes the planner's engine version and storage type, and its primary's
// zone, vSwitch, engine and edition only where the plan has no value yet; a configured value stays.
func TestPlannedInherited(t *testing.T) {
	primary := &rdsapi.DBInstanceAttribute{ZoneID: "cn-hangzhou-j", VSwitchID: "vsw-p", Engine: "MySQL", Category: "HighAvailability"}
	proposed := Inherited{EngineVersion: Unknown[string](), StorageType: Unknown[string](), Zone: Known("cn-hangzhou-i"),
		VSwitch: Unknown[string](), Engine: Unknown[string](), Category: Null[string]()}
	dec := Decision{EngineVersion: Known("8.0"), StorageType: Unknown[string]()}
	got := PlannedInherited(dec, primary, proposed)
	want := Inherited{EngineVersion: Known("8.0"), StorageType: Unknown[string](), Zone: Known("cn-hangzhou-i"), VSwitch: Known("vsw-p"),
		Engine: Known("MySQL"), Category: Null[string]()}
	if got != want {
		t.Fatalf("planned %+v, want %+v", got, want)
	}
	if got := PlannedInherited(dec, nil, proposed); got.VSwitch.IsKnown() || got.Engine.IsKnown() || !got.EngineVersion.Is("8.0") {
		t.Fatalf("without the primary read: %+v", got)
	}
}
