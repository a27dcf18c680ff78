package rdsservice

import (
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The planned attributes by name: a new rds_instance gets the default allow-list where none is
// configured and no scheduled_change; an existing one keeps its recorded scheduled_change while
// its task waits and the plan asks for the spec it makes; a new read-only instance takes its zone
// from its primary; values the decision does not know yet are unknown, not null.
func TestPlannedAttrsByName(t *testing.T) {
	obj := func(a map[string]AttrValue) AttrValue { return ObjectAttr(a) }
	plan := obj(map[string]AttrValue{AttrInstanceType: StringAttr("small"), "storage": IntAttr(20), AttrZoneID: UnknownAttr(),
		AttrCategory: StringAttr("HighAvailability"), "parameter_group_id": NullAttr()})
	create := ModelRequest{Config: obj(map[string]AttrValue{"security_ips": NullAttr()}), Plan: plan, State: NullAttr()}
	got := PlannedAttrs(ResourceInstance, create, InstancePlan{Decision: Decision{AtomicWrite: Known(true)}})
	if ips := got["security_ips"].Strings(); len(ips) != 1 || ips[0] != DefaultSecurityIP || got["read_only_instance_ids"].Strings() == nil {
		t.Errorf("new instance: security_ips %+v, read_only_instance_ids %+v; want the default allow-list and no read-only instance", got["security_ips"],
			got["read_only_instance_ids"])
	}
	if _, ok := got[AttrScheduledChange]; ok || !got["atomic_write_16k"].Equal(BoolAttr(true)) || !got["status"].IsUnknown() ||
		!got["parameter_group_values"].IsNull() {
		t.Errorf("new instance: %+v; want no scheduled_change, the decided flag, status unknown, no group values", got)
	}

	recorded := obj(map[string]AttrValue{"task_id": StringAttr("t-1"), "changes": ListAttr(StringAttr("instance_type"))})
	state := obj(map[string]AttrValue{AttrInstanceType: StringAttr("small"), "storage": IntAttr(20), AttrScheduledChange: recorded,
		AttrCategory: StringAttr("HighAvailability")}) // the class asked for; the instance runs from's until the window
	from := &SpecValues{InstanceType: "large", Storage: 20}
	waiting := ModelRequest{Config: obj(nil), Plan: plan, State: state}.Running(from)
	if got := PlannedAttrs(ResourceInstance, waiting, InstancePlan{Values: PlannedValues{ScheduledChange: ScheduledKept}}); !got[AttrScheduledChange].Equal(recorded) {
		t.Errorf("task waiting: scheduled_change %+v, want the recorded one", got[AttrScheduledChange])
	}
	back := ModelRequest{Config: obj(nil), Plan: plan, State: state}.Running(from)
	back.Plan = obj(map[string]AttrValue{AttrInstanceType: StringAttr("large"), "storage": IntAttr(20), AttrCategory: StringAttr("HighAvailability")})
	if got := PlannedAttrs(ResourceReadOnlyInstance, back, InstancePlan{}); !got[AttrScheduledChange].IsNull() {
		t.Errorf("read-only instance set back to the spec it runs: scheduled_change %+v, want null (cancelled)", got[AttrScheduledChange])
	}
	if s := back.scheduledInputs(false); s.Requested.Category != "" || back.scheduledInputs(true).Requested.Category != "HighAvailability" {
		t.Errorf("requested edition: read-only %q; want none (a read-only instance has no edition of its own)", s.Requested.Category)
	}

	readonly := ModelRequest{Config: obj(nil), Plan: plan, State: NullAttr()}
	got = PlannedAttrs(ResourceReadOnlyInstance, readonly, InstancePlan{Primary: &rdsapi.DBInstanceAttribute{ZoneID: "z-p"}})
	if !got[AttrZoneID].Equal(StringAttr("z-p")) || !got["lock_mode"].IsUnknown() {
		t.Errorf("new read-only instance: zone %+v, lock_mode %+v; want the primary's zone, lock_mode unknown", got[AttrZoneID], got["lock_mode"])
	}
	if _, ok := got["security_ips"]; ok {
		t.Error("a read-only instance got rds_instance's default allow-list")
	}
}

// RunningSpec is the spec the instance runs while a change waits: the private state's record, with
// the state's version where the record has none; rds_instance's edition only.
func TestRunningSpecIsTheRecordOverTheState(t *testing.T) {
	state := ObjectAttr(map[string]AttrValue{AttrInstanceType: StringAttr("small"), "storage": IntAttr(50), AttrEngineVersion: StringAttr("8.0"),
		AttrCategory: StringAttr("HighAvailability"), "buffer_pool_extension": BoolAttr(true)})
	m := ModelRequest{State: state}.Running(&SpecValues{InstanceType: "large", Storage: 20})
	if got := m.RunningSpec(true); got != (SpecValues{InstanceType: "large", Storage: 20, EngineVersion: "8.0", Category: "HighAvailability"}) {
		t.Errorf("RunningSpec = %+v", got)
	}
	if got := (ModelRequest{State: state}).RunningSpec(false); got != (SpecValues{InstanceType: "small", Storage: 50, EngineVersion: "8.0", BufferPoolExtension: true}) {
		t.Errorf("nothing waiting, no edition of its own: RunningSpec = %+v", got)
	}
}
