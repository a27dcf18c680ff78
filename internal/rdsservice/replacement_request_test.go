package rdsservice

import (
	"slices"
	"testing"
)

func TestReplaceInputOfReadsTheTableAttributes(t *testing.T) {
	restore := func(source string, at AttrValue) AttrValue {
		return ObjectAttr(map[string]AttrValue{"source_instance_id": StringAttr(source), "restore_time": at})
	}
	state := ObjectAttr(map[string]AttrValue{"id": StringAttr("rm-1"), AttrEngine: StringAttr("MySQL"), AttrEngineVersion: StringAttr("5.7"),
		AttrZoneID: StringAttr("cn-hangzhou-h"), "vpc_id": StringAttr("vpc-1"), AttrRestoreFrom: restore("rm-0", StringAttr("t"))})
	plan := ObjectAttr(map[string]AttrValue{"id": StringAttr("rm-1"), AttrEngine: StringAttr("MySQL"), AttrEngineVersion: StringAttr("8.0"),
		AttrZoneID: UnknownAttr(), "vpc_id": StringAttr("vpc-2"), AttrRestoreFrom: restore("rm-0", UnknownAttr())})
	config := ObjectAttr(map[string]AttrValue{AttrEngineVersion: StringAttr("8.0"), "vpc_id": NullAttr(), AttrZoneID: UnknownAttr()})
	in := ReplaceInputOf(ResourceInstance, plan, state, config, &SpecValues{EngineVersion: "5.6", Category: "Basic"})
	if in.ID != "rm-1" || in.Engine != "MySQL" || in.RunningVersion != "5.6" || in.RunningCategory != "Basic" {
		t.Fatalf("ReplaceInputOf = %+v", in)
	}
	if v := in.Values[AttrEngineVersion]; !v.Prior.Is("5.7") || !v.Planned.Is("8.0") || !v.Configured {
		t.Errorf("engine_version = %+v, want 5.7 -> 8.0, configured", v)
	}
	if v := in.Values["vpc_id"]; v.Configured || !v.changed() {
		t.Errorf("vpc_id = %+v, want changed, not configured", v)
	}
	if v := in.Values[AttrZoneID]; !v.Planned.IsUnknown() || !v.Configured {
		t.Errorf("zone_id = %+v, want unknown planned, configured (known at apply)", v)
	}
	if v := in.Values[AttrCategory]; !v.Prior.IsNull() || !v.Planned.IsNull() || v.changed() {
		t.Errorf("category = %+v, want null and unchanged", v)
	}
	if v := in.Values[AttrRestoreFrom]; !v.changed() {
		t.Errorf("restore_from with an unknown part = %+v, want changed", v)
	}
	if v := ReplaceInputOf(ResourceInstance, state, state, config, nil).Values[AttrRestoreFrom]; v.changed() || !v.Prior.IsKnown() {
		t.Errorf("restore_from unchanged = %+v, want known and unchanged", v)
	}
	replace, problems := Replaced(ReplaceInputOf(ResourceInstance, plan, state, config, nil))
	if !slices.Equal(replace, []string{AttrRestoreFrom, AttrZoneID}) || len(problems) != 0 {
		t.Errorf("Replaced = %v, %v; want [restore_from zone_id] (vpc_id unset, 5.7 -> 8.0 in place)", replace, problems)
	}
}
