package rdsservice

import (
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func TestScheduledFromOfReadsTheRecord(t *testing.T) {
	v, err := ScheduledFromOf([]byte(`{"instance_type":"small","storage":20,"engine_version":"5.7"}`))
	if err != nil || v == nil || v.InstanceType != "small" || v.Storage != 20 || v.EngineVersion != "5.7" {
		t.Errorf("ScheduledFromOf = %+v, %v", v, err)
	}
	if v, err := ScheduledFromOf(nil); v != nil || err != nil {
		t.Errorf("nothing recorded: %+v, %v", v, err)
	}
	if v, err := ScheduledFromOf([]byte("{")); v != nil || err == nil {
		t.Errorf("unreadable record: %+v, %v, want an error", v, err)
	}
}

func TestRunningComparesWithTheInstancesSpec(t *testing.T) {
	state := ObjectAttr(map[string]AttrValue{"id": StringAttr("rm-1"), AttrInstanceType: StringAttr("large"), "storage": IntAttr(100),
		"storage_type": StringAttr("cloud_essd"), "atomic_write_16k": BoolAttr(true), "atomic_write_16k_supported": BoolAttr(true),
		"buffer_pool_extension": BoolAttr(true), AttrEngineVersion: StringAttr("8.0"), AttrCategory: StringAttr("HighAvailability"),
		"instruction_set_arch": StringAttr("arm")})
	running := &SpecValues{InstanceType: "small", Storage: 20, StorageType: "cloud_ssd", EngineVersion: "5.7", Category: "Basic", Architecture: "x86"}
	m := ModelRequest{State: state, Plan: state}.Running(running)
	want := map[string]AttrValue{AttrInstanceType: StringAttr("small"), "storage": IntAttr(20), "storage_type": StringAttr("cloud_ssd"),
		"atomic_write_16k": BoolAttr(false), "atomic_write_16k_supported": BoolAttr(false), "buffer_pool_extension": BoolAttr(false),
		AttrEngineVersion: StringAttr("5.7"), AttrCategory: StringAttr("Basic"), "instruction_set_arch": StringAttr("x86"), "id": StringAttr("rm-1")}
	for name, v := range want {
		if !m.State.Get(name).Equal(v) {
			t.Errorf("%s = %+v, want %+v", name, m.State.Get(name), v)
		}
	}
	if !m.SpecPending || m.PendingClass != "large" || !m.Plan.Equal(state) || !state.Get(AttrInstanceType).Equal(StringAttr("large")) {
		t.Errorf("want a pending spec of the state's class, the plan and the state given unchanged: %+v", m)
	}
	// A record without version, edition or architecture keeps the state's; a read-only instance has
	// no buffer_pool_extension.
	readonly := ObjectAttr(map[string]AttrValue{AttrInstanceType: StringAttr("large"), AttrEngineVersion: StringAttr("8.0"),
		AttrCategory: StringAttr("HighAvailability")})
	m = ModelRequest{State: readonly}.Running(&SpecValues{InstanceType: "small", BufferPoolExtension: true})
	if !m.State.Get(AttrEngineVersion).Str().Is("8.0") || !m.State.Get(AttrCategory).Str().Is("HighAvailability") || m.State.Has("buffer_pool_extension") {
		t.Errorf("read-only state = %+v", m.State)
	}
	if m := (ModelRequest{State: state}).Running(nil); m.SpecPending || !m.State.Equal(state) {
		t.Errorf("nothing pending: %+v", m)
	}
	if m := (ModelRequest{State: NullAttr()}).Running(running); !m.SpecPending || !m.State.IsNull() {
		t.Errorf("a create: %+v", m)
	}
}

// A waiting spec order or major version upgrade holds the spec in private state; a parameter,
// minor version or zone task does not.
func TestHoldsSpecOnlyForSpecAndVersionTasks(t *testing.T) {
	for typ, want := range map[string]bool{rdsapi.TaskTypeModifySpec: true, rdsapi.TaskTypeUpgradeEngineVersion: true,
		rdsapi.TaskTypeModifyParameter: false, rdsapi.TaskTypeUpgradeKernelVersion: false, rdsapi.TaskTypeMigrateZone: false} {
		if got := HoldsSpec(&rdsapi.HistoryTask{TaskType: typ}); got != want {
			t.Errorf("HoldsSpec(%s) = %t, want %t", typ, got, want)
		}
	}
	if HoldsSpec(nil) {
		t.Error("no task holds a spec")
	}
}
