package rdsservice

import (
	"reflect"
	"testing"
)

func TestUnchangedOfTellsTheRoleByTheSchema(t *testing.T) {
	primary := obj(map[string]AttrValue{"id": StringAttr("rm-1"), "lock_mode": StringAttr("Unlock"), "parameter_group_id": StringAttr("rpg-1"),
		AttrPreventRestart: BoolAttr(true), AttrScheduledChange: obj(map[string]AttrValue{"task_id": StringAttr("t-1"), "changes": ListAttr()})})
	u := UnchangedOf(primary)
	if u.Role != RolePrimary || u.ID != "rm-1" || u.LockMode != "Unlock" || u.ParameterGroup != "rpg-1" || !u.PreventRestart || u.Pending == nil {
		t.Errorf("a primary's unchanged plan: %+v", u)
	}
	ro := obj(map[string]AttrValue{"id": StringAttr("rr-1"), "master_instance_id": NullAttr(), AttrAtomicWrite: BoolAttr(true),
		"atomic_write_16k_supported": BoolAttr(true), AttrScheduledChange: NullAttr()})
	u = UnchangedOf(ro)
	if u.Role != RoleReadOnly || !u.AtomicWrite || !u.AtomicWriteSupported || u.Pending != nil {
		t.Errorf("a state with master_instance_id (even null) is a read-only instance's: %+v", u)
	}
}

func TestDestroyRequestOfReadsTheState(t *testing.T) {
	state := obj(map[string]AttrValue{"id": StringAttr("rm-1"), AttrDeletionProtection: BoolAttr(true), AttrPrepaidOnDestroy: StringAttr("abandon"),
		AttrReleasedKeepPolicy: StringAttr("Lastest"), AttrStorageType: StringAttr("cloud_essd"), AttrPreventDataLoss: BoolAttr(true),
		AttrBilling: obj(map[string]AttrValue{"pay_type": StringAttr(PayTypePrepaid)}), "read_only_instance_ids": ListAttr(StringAttr("rr-2"), StringAttr("rr-1"))})
	req := DestroyRequestOf(state)
	want := DestroyRequest{InstanceID: "rm-1", DeletionProtection: true, Prepaid: true, OnDestroy: "abandon", KeepPolicy: "Lastest",
		StorageType: "cloud_essd", PreventDataLoss: true, ReadOnlyInstances: []string{"rr-2", "rr-1"}}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("destroy request\n got %+v\nwant %+v", req, want)
	}
	ro := DestroyRequestOf(obj(map[string]AttrValue{"id": StringAttr("rr-1"), "master_instance_id": StringAttr("rm-1"), "expire_time": StringAttr("2027-01-01T00:00:00Z")}))
	if !ro.ReadOnly || ro.MasterID != "rm-1" || ro.Prepaid {
		t.Errorf("a read-only instance (no billing attribute) is released as one: %+v", ro)
	}
}

func TestCheckTimeoutsRefusesWhatIsNotPositive(t *testing.T) {
	problems := CheckTimeouts(obj(map[string]AttrValue{"create": StringAttr("30m"), "update": StringAttr("0s"), "delete": StringAttr("-1m")}))
	if len(problems) != 2 || problems[0].Attribute != "timeouts.update" || problems[1].Attribute != "timeouts.delete" {
		t.Fatalf("0s and a negative timeout are refused, each at its attribute: %+v", problems)
	}
	if got := CheckTimeouts(obj(map[string]AttrValue{"update": UnknownAttr(), "delete": StringAttr("soon")})); got != nil {
		t.Errorf("an unknown or unparsable timeout is left to the framework: %+v", got)
	}
}

func TestTagRequestOf(t *testing.T) {
	config := obj(map[string]AttrValue{"tags": obj(map[string]AttrValue{"team": StringAttr("db")}), "resource_group_id": StringAttr("rg-2")})
	state := obj(map[string]AttrValue{"resource_group_id": StringAttr("rg-1")})
	got := TagRequestOf(config, state, 1)
	want := TagRequest{Own: map[string]string{"team": "db"}, Group: "rg-2", PriorGroup: "rg-1", HasPrior: true, OwnTagCount: 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
	later := TagRequestOf(obj(map[string]AttrValue{"tags": obj(map[string]AttrValue{"team": UnknownAttr()}), "resource_group_id": UnknownAttr()}), NullAttr(), 0)
	if !later.OwnUnknown || later.Own != nil || later.Group != "" || later.HasPrior {
		t.Errorf("a tag known only at apply makes the tags unknown; a create has no prior: %+v", later)
	}
	if none := TagRequestOf(obj(nil), NullAttr(), 0); !none.OwnNull || none.OwnUnknown || len(none.Own) != 0 {
		t.Errorf("no tags configured: %+v", none)
	}
}
