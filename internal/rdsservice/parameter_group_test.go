package rdsservice

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func groupTemplate() ParameterTemplate {
	return ParameterTemplate{Engine: "MySQL", EngineVersion: "8.0", Parameters: map[string]ParameterSpec{
		"back_log":                   {Name: "back_log", Default: "3000", Allowed: "[0-65535]", Modifiable: true, Restart: true},
		"wait_timeout":               {Name: "wait_timeout", Default: "86400", Allowed: "[1-31536000]", Modifiable: true},
		"innodb_adaptive_hash_index": {Name: "innodb_adaptive_hash_index", Default: "OFF", Allowed: "[ON|OFF]", Modifiable: true},
		"innodb_doublewrite":         {Name: "innodb_doublewrite", Default: "ON", Allowed: "[ON|OFF]"},
		"innodb_buffer_pool_size":    {Name: "innodb_buffer_pool_size", Default: "{DBInstanceClassMemory*3/4}", Allowed: "[1-9999999999]"},
	}}
}

func groupRules(problems []Problem) []RuleID {
	var ids []RuleID
	for _, p := range problems {
		ids = append(ids, p.Rule)
	}
	return ids
}

func TestCheckParameterGroupUsesTheParameterRows(t *testing.T) {
	spec := ParameterGroupSpec{Name: "fleet", Engine: "PostgreSQL", EngineVersion: "8.0", Parameters: map[string]string{
		"back_lg": "1", "wait_timeout": "0", "innodb_buffer_pool_size": "1", "innodb_doublewrite": "OFF"}}
	got := groupRules(CheckParameterGroup(spec, nil, true, groupTemplate()))
	want := []RuleID{RuleParamGroupName, RuleParamGroupEngine, RuleParamGroupDoublewrite, RuleParamUnknown, RuleParamNotModifiable, RuleParamValue}
	if !slices.Equal(got, want) {
		t.Fatalf("rules %v, want %v (all at once, the instance parameters' rows)", got, want)
	}
	if got := groupRules(CheckParameterGroup(ParameterGroupSpec{Name: "fleet_default", Engine: EngineMySQL}, nil, true, groupTemplate())); !slices.Equal(got, []RuleID{RuleParamGroupEmpty}) {
		t.Fatalf("empty group: %v", got)
	}
	ok := ParameterGroupSpec{Name: "fleet_default", Engine: EngineMySQL, Parameters: map[string]string{"wait_timeout": "3600"}}
	if p := CheckParameterGroup(ok, nil, true, groupTemplate()); len(p) != 0 {
		t.Fatalf("valid group refused: %v", p)
	}
}

func TestPlanParameterGroup(t *testing.T) {
	desired := ParameterGroupSpec{Name: "fleet_default", Engine: EngineMySQL, EngineVersion: "8.0",
		Parameters: map[string]string{"back_log": "4000", "innodb_adaptive_hash_index": "on"}}
	req := ParameterGroupRequest{Desired: desired, NameKnown: true, Template: groupTemplate()}
	actions := func(p ParameterGroupPlan) []string {
		var out []string
		for _, op := range p.Program.Operations {
			out = append(out, op.Action)
		}
		return out
	}
	created := PlanParameterGroup(req, nil)
	if !slices.Equal(actions(created), []string{OpCreateParameterGroup}) || !slices.Equal(created.Restarts, []string{"back_log"}) {
		t.Fatalf("create: %v restarts %v", actions(created), created.Restarts)
	}
	// The cloud's spelling of the same values is no change.
	current := desired
	current.Parameters = map[string]string{"back_log": "4000", "innodb_adaptive_hash_index": "ON"}
	if got := actions(PlanParameterGroup(req, &current)); len(got) != 0 {
		t.Fatalf("same group planned %v", got)
	}
	// A parameter the configuration removed is a change (ModifyMode=Individual removes it).
	current.Parameters = map[string]string{"back_log": "4000", "innodb_adaptive_hash_index": "ON", "wait_timeout": "60"}
	if got := actions(PlanParameterGroup(req, &current)); !slices.Equal(got, []string{OpModifyParameterGroup}) {
		t.Fatalf("removed parameter planned %v", got)
	}
	bad := req
	bad.Desired.Parameters = map[string]string{"back_log": "70000"}
	if p := PlanParameterGroup(bad, &current); len(p.Problems) != 1 || len(p.Program.Operations) != 0 {
		t.Fatalf("bad value: problems %v program %v", p.Problems, actions(p))
	}
}

// P8 on a read-only instance: CreateReadOnlyDBInstance has no DBParamGroupId, so a new read-only
// instance gets its group with ModifyParameter right after creation, and a restart-needing value
// is named; a new primary runs its group from the start.
func TestGroupOnANewReadOnlyInstance(t *testing.T) {
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	group := &GroupParameters{ID: "rpg-1", Values: map[string]string{"innodb_io_capacity": "30000", "innodb_read_io_threads": "8"}}
	desired := Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)),
		Parameters: DesiredParameters{Group: group, UnknownValues: map[string]bool{}}}
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: desired,
		Facts: Facts{Primary: &primary, Parameters: planFacts(nil, nil)}})
	if d.Parameters.GroupID != "rpg-1" || !slices.Equal(d.Parameters.GroupNames, []string{"innodb_io_capacity", "innodb_read_io_threads"}) ||
		len(d.Restarts) != 1 || !strings.Contains(strings.Join(d.Restarts[0].Reasons, ";"), "innodb_read_io_threads 4 -> 8") {
		t.Fatalf("new read-only instance with a group: %+v %+v %+v", d.Parameters, d.Restarts, d.Problems)
	}
	if got := GroupValuesApplied(map[string]string{"a": "1", "b": "2", DoublewriteParameter: "OFF"}, map[string]string{"b": "3"}); len(got) != 1 || got["a"] != "1" {
		t.Fatalf("GroupValuesApplied: %v", got)
	}
}

// G7 and G8: a name held by another group is refused at plan, naming it, unless an interrupted
// create of this configuration made it (its answered id, or a lost answer and a group created
// since), within the adoption window.
func TestGroupNameTakenOrAdopted(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	groups := []rdsapi.ParameterGroup{{ID: "rpg-a", Name: "fleet_default", Created: now.Add(-time.Minute)}, {ID: "rpg-b", Name: "other_group"}}
	if GroupNamed(groups, "fleet_default", "rpg-a") != nil || GroupNamed(groups, "fleet_defaults", "") != nil {
		t.Fatal("a group's own name, or a free one, is not taken")
	}
	taken := GroupNamed(groups, "fleet_default", "")
	if got := groupRules(CheckGroupName("fleet_default", "cn-hangzhou", taken, nil, "rds_parameter_group", "j")); !slices.Equal(got, []RuleID{RuleParamGroupNameTaken}) {
		t.Fatalf("taken name: %v", got)
	}
	for _, c := range []struct {
		entry JournalEntry
		adopt bool
	}{
		{JournalEntry{ID: "rpg-a", Started: now.Add(-2 * time.Minute)}, true},
		{JournalEntry{Started: now.Add(-2 * time.Minute)}, true},               // lost answer, the group created since
		{JournalEntry{Started: now.Add(-30 * time.Second)}, false},             // lost answer, the group older than the entry
		{JournalEntry{ID: "rpg-c", Started: now.Add(-2 * time.Minute)}, false}, // another group's create
		{JournalEntry{ID: "rpg-a", Started: now.Add(-AdoptWindow - time.Hour)}, false},
	} {
		e := AdoptableGroup(taken, []JournalEntry{c.entry}, now)
		if (e != nil) != c.adopt {
			t.Errorf("entry %+v: adopted %t, want %t", c.entry, e != nil, c.adopt)
		}
		if e != nil {
			if got := groupRules(CheckGroupName("fleet_default", "cn-hangzhou", taken, e, "rds_parameter_group", "j")); !slices.Equal(got, []RuleID{RuleCreateAdopted}) {
				t.Errorf("adopted: %v", got)
			}
		}
	}
}
