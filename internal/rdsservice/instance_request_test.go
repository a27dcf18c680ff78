package rdsservice

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// obj is an object of the attributes given; the rest read as null.
func obj(attrs map[string]AttrValue) AttrValue { return ObjectAttr(attrs) }

func TestAttrValueReadsEachState(t *testing.T) {
	v := obj(map[string]AttrValue{"name": StringAttr("a"), "size": IntAttr(20), "on": BoolAttr(true), "later": UnknownAttr()})
	if !v.Get("missing").IsNull() || !v.Get("later").IsUnknown() || !v.Get("name").IsKnown() {
		t.Fatal("an absent attribute reads null, an unknown one unknown, a set one known")
	}
	if v.Get("name").Str() != Known("a") || v.Get("size").Int() != Known[int64](20) || v.Get("on").Bool() != Known(true) {
		t.Errorf("known values: %v %v %v", v.Get("name").Str(), v.Get("size").Int(), v.Get("on").Bool())
	}
	if !v.Get("later").Str().IsUnknown() || !v.Get("missing").Int().IsNull() || v.Get("later").String() != "" {
		t.Error("unknown and null keep their state; String of unknown is empty")
	}
	if v.WhollyKnown() || !obj(map[string]AttrValue{"n": NullAttr()}).WhollyKnown() {
		t.Error("an unknown attribute makes the object not wholly known; a null one does not")
	}
	set := ListAttr(StringAttr("b"), StringAttr("a"))
	if got := sortedStrings(set); !reflect.DeepEqual(got, []string{"a", "b"}) || sortedStrings(NullAttr()) != nil {
		t.Errorf("a set's strings are sorted, a null set has none: %v", got)
	}
}

func TestAttrValueEqual(t *testing.T) {
	m := func(kv ...string) AttrValue {
		out := map[string]AttrValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = StringAttr(kv[i+1])
		}
		return ObjectAttr(out)
	}
	if !m("a", "1", "b", "2").Equal(m("b", "2", "a", "1")) || !NullAttr().Equal(NullAttr()) {
		t.Error("equal maps (in any order) and two nulls are equal")
	}
	for _, other := range []AttrValue{m("a", "1"), m("a", "1", "b", "3"), m("a", "1", "c", "2"), NullAttr(), UnknownAttr()} {
		if m("a", "1", "b", "2").Equal(other) {
			t.Errorf("%v equals %v", m("a", "1", "b", "2"), other)
		}
	}
	if ListAttr(StringAttr("a")).Equal(ListAttr(StringAttr("b"))) || IntAttr(1).Equal(IntAttr(2)) || BoolAttr(true).Equal(BoolAttr(false)) {
		t.Error("different elements, numbers and bools differ")
	}
}

func primaryState() map[string]AttrValue {
	return map[string]AttrValue{"id": StringAttr("rm-1"), "instance_name": StringAttr("db"), "engine": StringAttr("MySQL"),
		"engine_version": StringAttr("5.7"), "category": StringAttr("HighAvailability"), "storage": IntAttr(20), "storage_actual": IntAttr(40),
		"purchase_time": StringAttr(""), "creation_time": StringAttr("2026-01-02T03:04:05Z"),
		"storage_auto_scale": obj(map[string]AttrValue{"threshold": IntAttr(50), "upper_bound": IntAttr(100)}),
		"parameters":         obj(map[string]AttrValue{"wait_timeout": StringAttr("60")}), "parameters_pending": obj(nil),
		"security_ip_groups": obj(map[string]AttrValue{"app": ListAttr(StringAttr("10.0.0.1"))})}
}

func TestPrimaryRequestOfAnExistingInstance(t *testing.T) {
	plan := primaryState()
	plan["engine_version"] = StringAttr("8.0")
	config := obj(map[string]AttrValue{"parameters": obj(map[string]AttrValue{"wait_timeout": StringAttr("60")})})
	req := PrimaryRequest(context.Background(), nil, ModelRequest{Config: config, Plan: obj(plan), State: obj(primaryState())})
	in := req.Input
	if in.Prior == nil || in.Label != "rm-1 (db)" || req.ID != "rm-1" {
		t.Fatalf("the prior instance is labelled by id and name: %+v", in.Prior)
	}
	if want := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC); !in.Prior.CreationTime.Equal(want) {
		t.Errorf("an empty purchase_time falls back to creation_time: %v", in.Prior.CreationTime)
	}
	if in.Prior.Storage != 40 || in.Desired.AutoScale.PriorStorage != 20 {
		t.Errorf("while autoscaling is on the prior storage is the actual size: %d (floor %d)", in.Prior.Storage, in.Desired.AutoScale.PriorStorage)
	}
	if req.Parameters.Version != "8.0" || req.Parameters.InstanceID != "rm-1" || !req.Parameters.StateKnown {
		t.Errorf("an upgrade's parameters are checked against the new version: %+v", req.Parameters)
	}
	if !in.Desired.Parameters.Recorded || in.Desired.IPGroups.Prior["app"] == nil {
		t.Errorf("the state holds the configured parameters and the prior IP groups: %+v", in.Desired)
	}
	replaced := PrimaryRequest(context.Background(), nil, ModelRequest{Config: config, Plan: obj(plan), State: obj(primaryState()), Replace: []string{"zone_id"}})
	if replaced.Parameters.InstanceID != "" || replaced.Input.Desired.IPGroups.Prior != nil || replaced.Input.Desired.Parameters.Recorded {
		t.Errorf("a replacement reads no prior parameters or access lists: %+v", replaced.Parameters)
	}
}

func TestPrimaryRequestKeepsTheVersionWithoutAnUpgrade(t *testing.T) {
	plan := primaryState()
	plan["engine_version"] = UnknownAttr()
	req := PrimaryRequest(context.Background(), nil, ModelRequest{Config: obj(nil), Plan: obj(plan), State: obj(primaryState())})
	if req.Parameters.Version != "5.7" {
		t.Errorf("a version known only at apply checks parameters against the running one: %s", req.Parameters.Version)
	}
}

func TestPrimaryRequestOfANewClone(t *testing.T) {
	restore := map[string]AttrValue{"source_instance_id": StringAttr("rm-src"), "restore_time": StringAttr("2026-01-01T00:00:00Z"),
		"cross_region_backup_id": StringAttr("c-1"), "source_region": UnknownAttr()}
	plan := obj(map[string]AttrValue{"instance_name": StringAttr("copy"), "restore_from": obj(restore), "tags_all": obj(nil)})
	config := obj(map[string]AttrValue{"zone_id": StringAttr("cn-a"), "vswitch_id": UnknownAttr(), "restore_from": obj(restore)})
	req := PrimaryRequest(context.Background(), nil, ModelRequest{Config: config, Plan: plan, State: NullAttr()})
	in := req.Input
	if in.Role != RoleClone || req.CloneSource != "rm-src" || in.Label != `the new instance "copy"` {
		t.Fatalf("a restore_from plans a clone of its source: %v %q %q", in.Role, req.CloneSource, in.Label)
	}
	if req.CrossRestore != nil {
		t.Error("a cross-region restore whose region is known only at apply waits")
	}
	if in.Desired.Tags.CreateCarriesTags || !req.Proposed.RestoreFrom {
		t.Error("a clone's tags are sent after it exists")
	}
	if in.Desired.Placement != (Placement{Zone: "cn-a"}) {
		t.Errorf("the configured placement, unknown parts left out: %+v", in.Desired.Placement)
	}
	restore["source_region"] = StringAttr("cn-beijing")
	req = PrimaryRequest(context.Background(), nil, ModelRequest{Config: config, Plan: obj(map[string]AttrValue{"restore_from": obj(restore)}), State: NullAttr()})
	if req.CrossRestore == nil || *req.CrossRestore != (CrossRestore{SourceID: "rm-src", SourceRegion: "cn-beijing", CopyID: "c-1"}) {
		t.Errorf("a known cross-region restore: %+v", req.CrossRestore)
	}
	fresh := PrimaryRequest(context.Background(), nil, ModelRequest{Config: obj(nil), Plan: obj(nil), State: NullAttr()})
	if !fresh.Input.Desired.Tags.CreateCarriesTags || fresh.Input.Label != "the new instance" || fresh.Input.Role != RolePrimary {
		t.Errorf("a new primary's create call carries its tags: %+v", fresh.Input)
	}
}

func TestReadOnlyRequestInheritsWhatIsNotConfigured(t *testing.T) {
	plan := obj(map[string]AttrValue{"engine_version": StringAttr("8.0"), "storage_type": StringAttr("cloud_essd"), "master_instance_id": StringAttr("rm-p"),
		"instance_name": StringAttr("ro")})
	config := obj(map[string]AttrValue{"storage_type": StringAttr("cloud_essd")})
	req := ReadOnlyRequest(context.Background(), nil, ModelRequest{Config: config, Plan: plan, State: NullAttr()}, Null[string]())
	d := req.Input.Desired
	if !d.EngineVersion.IsNull() || d.StorageType != Known("cloud_essd") || req.ReadOnly.Primary != "rm-p" {
		t.Errorf("a new read-only instance inherits the unset version from its primary: %+v", d)
	}
	if req.Input.Label != `the new read-only instance "ro"` || req.Input.Role != RoleReadOnly {
		t.Errorf("label %q", req.Input.Label)
	}
	state := obj(map[string]AttrValue{"id": StringAttr("rr-1"), "master_instance_id": StringAttr("rm-p"), "engine_version": StringAttr("8.0"),
		"minor_version": StringAttr("rds_20250101"), "parameters": NullAttr(), "parameters_pending": NullAttr()})
	req = ReadOnlyRequest(context.Background(), nil, ModelRequest{Config: config, Plan: plan, State: state}, Known("mysql.x2"))
	if req.Input.Desired.EngineVersion != Known("8.0") || req.ReadOnly.PriorPrimary != "rm-p" || req.ReadOnly.PriorMinor != "rds_20250101" {
		t.Errorf("an existing read-only instance plans its state's version: %+v", req.ReadOnly)
	}
	if req.Input.Label != "rr-1" || req.Parameters.InstanceID != "rr-1" || req.ReadOnly.StateClass != Known("mysql.x2") || req.Parameters.StateKnown {
		t.Errorf("label %q, parameters %+v", req.Input.Label, req.Parameters)
	}
}

func TestNestedAttributesReadAsThePlannerTakesThem(t *testing.T) {
	billing := map[string]AttrValue{"pay_type": StringAttr("Prepaid"), "period": StringAttr("Month"), "used_time": IntAttr(1), "auto_renew": UnknownAttr()}
	if BillingOf(obj(billing)) != nil {
		t.Error("a billing with a part known only at apply is not set yet")
	}
	billing["auto_renew"] = BoolAttr(true)
	if b := BillingOf(obj(billing)); b == nil || *b != (Billing{PayType: "Prepaid", Period: "Month", UsedTime: 1, AutoRenew: true}) {
		t.Errorf("billing %+v", b)
	}
	if cfg, configured, unknown := SQLAuditOf(obj(map[string]AttrValue{"enabled": BoolAttr(false), "retention_days": IntAttr(30)})); cfg.Enabled || !configured || unknown {
		t.Errorf("sql_audit switched off is configured and off: %+v", cfg)
	}
	if _, unknown := ipGroupsOf(obj(map[string]AttrValue{"app": ListAttr(UnknownAttr())})); !unknown {
		t.Error("an IP group with an element known only at apply is unknown")
	}
	if ids, unknown := idsOf(ListAttr()); ids == nil || unknown {
		t.Error("an empty set of security groups is set, not left out")
	}
	if e, unknown := publicEndpointOf(obj(map[string]AttrValue{AttrConnectionPrefix: StringAttr("pub"), AttrPort: UnknownAttr()})); e != nil || !unknown {
		t.Error("a public endpoint whose port is known only at apply is unknown")
	}
	if cfg, unknown := AutoScaleOf(obj(map[string]AttrValue{"threshold": IntAttr(50), "upper_bound": IntAttr(100)})); !cfg.Enabled || unknown || cfg.UpperBound != 100 {
		t.Errorf("storage_auto_scale %+v", cfg)
	}
	pending := PendingOf(obj(map[string]AttrValue{"task_id": StringAttr("t-1"), "changes": ListAttr(StringAttr("b"), StringAttr("a"))}))
	if pending == nil || pending.TaskID != "t-1" || !reflect.DeepEqual(pending.Changes, []string{"b", "a"}) {
		t.Errorf("scheduled_change keeps its changes in order: %+v", pending)
	}
	params := DesiredParametersOf(obj(map[string]AttrValue{"a": StringAttr("1"), "b": UnknownAttr(), "c": NullAttr()}))
	if params.Values["a"] != "1" || !params.UnknownValues["b"] || !reflect.DeepEqual(params.NullValues, []string{"c"}) || !params.Set {
		t.Errorf("parameters %+v", params)
	}
}
