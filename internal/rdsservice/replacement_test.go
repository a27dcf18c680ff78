package rdsservice

import (
	"reflect"
	"testing"
)

// change is one attribute's prior and planned string values, configured.
func change(prior, planned string) ReplaceValue {
	return ReplaceValue{Prior: Known(prior), Planned: Known(planned), Configured: true}
}

// Unconditional rows: any change of an always-replacing attribute, a configured one's only when set.
func TestReplacedByTheTable(t *testing.T) {
	unset := change("vpc-1", "vpc-2")
	unset.Configured = false
	for _, c := range []struct {
		name   string
		in     ReplaceInput
		want   []string
		reason string
	}{
		{"engine and vpc_id", ReplaceInput{Resource: ResourceInstance, Values: map[string]ReplaceValue{
			AttrEngine: change("MySQL", "PostgreSQL"), "vpc_id": change("vpc-1", "vpc-2"), AttrStorage: change("20", "40")}},
			[]string{AttrEngine, "vpc_id"}, "storage changes in place"},
		{"vpc_id not configured", ReplaceInput{Resource: ResourceInstance, Values: map[string]ReplaceValue{"vpc_id": unset}}, nil, ""},
		{"unknown restore_from", ReplaceInput{Resource: ResourceInstance, Values: map[string]ReplaceValue{
			AttrRestoreFrom: {Prior: Null[string](), Planned: Unknown[string]()}}}, []string{AttrRestoreFrom}, ""},
		{"unchanged", ReplaceInput{Resource: ResourceInstance, Values: map[string]ReplaceValue{AttrEngine: change("MySQL", "MySQL")}}, nil, ""},
		{"read-only zone", ReplaceInput{Resource: ResourceReadOnlyInstance, Values: map[string]ReplaceValue{
			AttrZoneID: change("cn-hangzhou-i", "cn-hangzhou-j")}}, []string{AttrZoneID}, "a read-only instance does not move"},
		{"account type", ReplaceInput{Resource: "rds_account", Values: map[string]ReplaceValue{
			AttrType: change("Normal", "Super"), AttrDescription: change("a", "b")}}, []string{AttrType}, ""},
	} {
		got, problems := Replaced(c.in)
		if !reflect.DeepEqual(got, c.want) || len(problems) != 0 {
			t.Errorf("%s: replaced by %v (%v), want %v %s", c.name, got, problems, c.want, c.reason)
		}
	}
}

// engine_version replaces exactly when the cloud cannot change it in place; another change while
// an upgrade waits for the window is refused instead.
func TestVersionReplaces(t *testing.T) {
	for _, c := range []struct {
		name, engine, running string
		value                 ReplaceValue
		want                  bool
	}{
		{"upgrade", "MySQL", "", change("5.7", "8.0"), false},
		{"upgrade skipping a version: the planner refuses it", "MySQL", "", change("5.6", "8.0"), false},
		{"downgrade", "MySQL", "", change("8.0", "5.7"), true},
		{"another engine", "PostgreSQL", "", change("14.0", "15.0"), true},
		{"unknown version", "MySQL", "", ReplaceValue{Prior: Known("5.7"), Planned: Unknown[string]()}, true},
		{"read-only instance (no engine)", "", "", change("5.7", "8.0"), false},
		{"the upgrade's own version back", "MySQL", "8.0", change("8.0", "5.7"), true},
	} {
		in := ReplaceInput{Resource: ResourceInstance, ID: "rm-1", Engine: c.engine, RunningVersion: c.running,
			Values: map[string]ReplaceValue{AttrEngineVersion: c.value}}
		got, problems := Replaced(in)
		if replaced := reflect.DeepEqual(got, []string{AttrEngineVersion}); replaced != c.want || len(problems) != 0 {
			t.Errorf("%s: replaced by %v (%v), want replaced %v", c.name, got, problems, c.want)
		}
	}
	in := ReplaceInput{Resource: ResourceReadOnlyInstance, ID: "rr-1", RunningVersion: "5.7",
		Values: map[string]ReplaceValue{AttrEngineVersion: change("8.0", "5.7")}}
	got, problems := Replaced(in)
	if len(got) != 0 || len(problems) != 1 || problems[0].Rule != RuleUpgradePending {
		t.Errorf("a change while the upgrade waits: replaced by %v with %v, want %s and no replacement", got, problems, RuleUpgradePending)
	}
}

// Only MySQL's Basic -> HighAvailability is in place, and setting category back to the edition the
// instance runs while that upgrade waits for the window.
func TestEditionReplaces(t *testing.T) {
	for _, c := range []struct {
		engine, from, to, running string
		want                      bool
	}{
		{"MySQL", "Basic", "HighAvailability", "", false},
		{"MySQL", "HighAvailability", "Basic", "", true}, {"MySQL", "Basic", "cluster", "", true},
		{"MySQL", "cluster", "HighAvailability", "", true}, {"PostgreSQL", "Basic", "HighAvailability", "", true},
		{"MySQL", "HighAvailability", "Basic", "Basic", false},
	} {
		in := ReplaceInput{Resource: ResourceInstance, Engine: c.engine, RunningCategory: c.running,
			Values: map[string]ReplaceValue{AttrCategory: change(c.from, c.to)}}
		if got, _ := Replaced(in); reflect.DeepEqual(got, []string{AttrCategory}) != c.want {
			t.Errorf("%s %s -> %s (running %q): replaced by %v, want replaced %v", c.engine, c.from, c.to, c.running, got, c.want)
		}
	}
}

// A known placement moves in place; one known only at apply replaces an existing instance.
func TestZoneReplaces(t *testing.T) {
	in := ReplaceInput{Resource: ResourceInstance, Values: map[string]ReplaceValue{
		AttrZoneID:        change("cn-hangzhou-i", "cn-hangzhou-j"),
		AttrVSwitchID:     {Prior: Known("vsw-1"), Planned: Unknown[string]()},
		AttrZoneIDSlaveB:  {Prior: Null[string](), Planned: Unknown[string]()},
		AttrZoneIDSlaveA:  change("cn-hangzhou-i", "cn-hangzhou-i"),
		AttrEngineVersion: change("8.0", "8.0"),
	}}
	if got, _ := Replaced(in); !reflect.DeepEqual(got, []string{AttrVSwitchID}) {
		t.Errorf("replaced by %v, want [vswitch_id]", got)
	}
}
