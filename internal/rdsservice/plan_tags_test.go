package rdsservice

import (
	"context"
	"reflect"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// groupAPI answers ListResourceGroups with the groups it holds and counts the calls.
type groupAPI struct {
	rdsapi.API
	groups []rdsapi.ResourceGroup
	calls  int
}

func (a *groupAPI) ListResourceGroups(_ context.Context, id string) ([]rdsapi.ResourceGroup, error) {
	a.calls++
	var out []rdsapi.ResourceGroup
	for _, g := range a.groups {
		if g.ID == id {
			out = append(out, g)
		}
	}
	return out, nil
}

// PlanTags merges the defaults under the resource's tags, plans null only when there are no tags
// anywhere, leaves tags_all unknown while any input is, and asks for a group only when it moves.
func TestPlanTags(t *testing.T) {
	cases := []struct {
		name      string
		req       TagRequest
		want      TagsPlan
		rules     []RuleID
		groupAsks int
	}{
		{name: "resource key wins", req: TagRequest{Defaults: map[string]string{"env": "dev", "team": "db"}, Own: map[string]string{"env": "prod"}},
			want: TagsPlan{All: MapValue{Values: map[string]string{"env": "prod", "team": "db"}}}},
		{name: "no tags anywhere is null", req: TagRequest{Own: map[string]string{}, OwnNull: true}, want: TagsPlan{All: MapValue{Values: map[string]string{}, Null: true}}},
		{name: "empty tags configured is empty", req: TagRequest{Own: map[string]string{}}, want: TagsPlan{All: MapValue{Values: map[string]string{}}}},
		{name: "unknown defaults", req: TagRequest{DefaultsUnknown: true, Own: map[string]string{"a": "b"}}, want: TagsPlan{All: MapValue{Unknown: true}}},
		{name: "unknown own tags", req: TagRequest{OwnUnknown: true}, want: TagsPlan{All: MapValue{Unknown: true}}},
		{name: "a default with a reserved key", req: TagRequest{Defaults: map[string]string{"aliyun:x": "1"}}, rules: []RuleID{RuleTagReservedPrefix}},
		{name: "a group the account lacks", req: TagRequest{Group: "rg-missing"}, rules: []RuleID{RuleResourceGroupGone}, groupAsks: 1},
		{name: "the group the state has is not asked for", req: TagRequest{Group: "rg-missing", PriorGroup: "rg-missing", HasPrior: true}, want: TagsPlan{All: MapValue{Values: map[string]string{}}}},
		{name: "a malformed group is not asked for", req: TagRequest{Group: "group-1"}, rules: []RuleID{RuleResourceGroupID}},
		{name: "a group being deleted", req: TagRequest{Group: "rg-going"}, rules: []RuleID{RuleResourceGroupGone}, groupAsks: 1},
		{name: "an existing group", req: TagRequest{Group: "rg-abc"}, want: TagsPlan{All: MapValue{Values: map[string]string{}}}, groupAsks: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := &groupAPI{groups: []rdsapi.ResourceGroup{{ID: "rg-abc"}, {ID: "rg-going", Status: "PendingDelete"}}}
			got := PlanTags(context.Background(), api, c.req)
			var rules []RuleID
			for _, p := range got.Problems {
				rules = append(rules, p.Rule)
			}
			if !reflect.DeepEqual(rules, c.rules) || api.calls != c.groupAsks {
				t.Fatalf("rules %v (want %v), group lookups %d (want %d)", rules, c.rules, api.calls, c.groupAsks)
			}
			if c.rules == nil && !reflect.DeepEqual(got.All, c.want.All) {
				t.Fatalf("planned %+v, want %+v", got, c.want)
			}
		})
	}
}
