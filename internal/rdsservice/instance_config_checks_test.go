package rdsservice

import (
	"reflect"
	"testing"
	"time"
)

func TestCheckInstanceConfigReportsEveryRefusal(t *testing.T) {
	config := obj(map[string]AttrValue{AttrBufferPoolExtension: BoolAttr(true), AttrMaintenanceWindow: StringAttr("tomorrow"),
		"restore_from": obj(map[string]AttrValue{"backup_id": StringAttr("b-1"), "restore_time": StringAttr("2026-01-01T00:00:00Z")}),
		"tde_role_arn": StringAttr("acs:ram::1:role/x"), AttrTargetMinorVersion: StringAttr("latest!")})
	got := rules(CheckInstanceConfig(config))
	want := []RuleID{RuleMaintenanceWindowFormat, RuleBPEStorageType, RuleRestoreFromExactlyOne, RuleTDEKeyAlone, RuleMinorVersionFormat}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("an unset storage_type is the default (cloud_essd), and every refusal is named:\n got %v\nwant %v", got, want)
	}
	quiet := obj(map[string]AttrValue{AttrBufferPoolExtension: BoolAttr(true), AttrStorageType: UnknownAttr(), "restore_from": UnknownAttr()})
	if got := CheckInstanceConfig(quiet); len(got) != 0 {
		t.Errorf("values known only at apply wait: %v", rules(got))
	}
}

func TestCheckReadOnlyConfig(t *testing.T) {
	got := rules(CheckReadOnlyConfig(obj(map[string]AttrValue{AttrInstanceType: StringAttr("large"), AttrMaintenanceWindow: StringAttr("x")})))
	if !reflect.DeepEqual(got, []RuleID{RuleReadOnlyClassShape, RuleMaintenanceWindowFormat}) {
		t.Errorf("got %v", got)
	}
	if got := CheckReadOnlyConfig(obj(map[string]AttrValue{AttrInstanceType: UnknownAttr()})); len(got) != 0 {
		t.Errorf("a class known only at apply waits: %v", rules(got))
	}
}

func TestCheckReleasedKeepDatesTheInstance(t *testing.T) {
	plan := obj(map[string]AttrValue{AttrReleasedKeepPolicy: StringAttr("None"), AttrStorageType: StringAttr("cloud_essd")})
	now := ReleasedKeepCutoff.Add(24 * time.Hour)
	if got := rules(CheckReleasedKeep(plan, NullAttr(), now)); !reflect.DeepEqual(got, []RuleID{RuleReleasedKeepForced}) {
		t.Errorf("a new instance on cloud disks keeps the latest set: %v", got)
	}
	old := obj(map[string]AttrValue{"creation_time": StringAttr("2023-05-01T00:00:00Z")})
	if got := CheckReleasedKeep(plan, old, now); len(got) != 0 {
		t.Errorf("an instance created before the cutoff may keep none: %v", rules(got))
	}
	unknown := obj(map[string]AttrValue{AttrReleasedKeepPolicy: StringAttr("Bogus"), AttrStorageType: UnknownAttr()})
	if got := CheckReleasedKeep(unknown, NullAttr(), now); len(got) != 0 {
		t.Errorf("a policy waits for a storage type known only at apply (which decides the values allowed): %v", rules(got))
	}
}
