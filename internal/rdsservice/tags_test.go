package rdsservice

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// tagAPI records the tag calls and keeps the tags of its instances.
type tagAPI struct {
	rdsapi.API
	tags  map[string]map[string]string
	calls map[string]int
	sizes []int
}

func newTagAPI() *tagAPI {
	return &tagAPI{tags: map[string]map[string]string{}, calls: map[string]int{}}
}

func (a *tagAPI) TagResources(_ context.Context, r *rdsapi.TagResourcesRequest) error {
	a.calls["TagResources"]++
	a.sizes = append(a.sizes, len(r.Tags))
	for _, id := range r.ResourceIDs {
		if a.tags[id] == nil {
			a.tags[id] = map[string]string{}
		}
		for _, t := range r.Tags {
			a.tags[id][t.Key] = t.Value
		}
	}
	return nil
}

func (a *tagAPI) UntagResources(_ context.Context, r *rdsapi.UntagResourcesRequest) error {
	a.calls["UntagResources"]++
	a.sizes = append(a.sizes, len(r.TagKeys))
	for _, id := range r.ResourceIDs {
		for _, k := range r.TagKeys {
			delete(a.tags[id], k)
		}
	}
	return nil
}

func (a *tagAPI) ListTagResources(_ context.Context, r *rdsapi.ListTagResourcesRequest) (*rdsapi.ListTagResourcesResponse, error) {
	a.calls["ListTagResources"]++
	if len(r.ResourceIDs) > rdsapi.MaxTagResourcesPerCall {
		return nil, fmt.Errorf("%d ids", len(r.ResourceIDs))
	}
	var out rdsapi.ListTagResourcesResponse
	for _, id := range r.ResourceIDs {
		for k, v := range a.tags[id] {
			out.TagResources.TagResource = append(out.TagResources.TagResource, rdsapi.TagResource{ResourceID: id, TagKey: k, TagValue: v})
		}
	}
	return &out, nil
}

func manyTags(prefix string, n int) map[string]string {
	out := map[string]string{}
	for i := 0; i < n; i++ {
		out[fmt.Sprintf("%s%02d", prefix, i)] = "v"
	}
	return out
}

func TestMergeTagsResourceOverridesDefaults(t *testing.T) {
	got := MergeTags(map[string]string{"env": "dev", "team": "db"}, map[string]string{"env": "prod"})
	if want := map[string]string{"env": "prod", "team": "db"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// tags after a refresh: what the resource holds, never the defaults, and what came from outside.
func TestTagsFromCloud(t *testing.T) {
	defaults := map[string]string{"env": "dev", "team": "db"}
	cases := []struct {
		name                       string
		cloud, priorTags, priorAll map[string]string
		priorNull                  bool
		want                       map[string]string
	}{
		{"defaults only stay out of tags", map[string]string{"env": "dev", "team": "db"}, nil, map[string]string{"env": "dev", "team": "db"}, true, nil},
		{"a resource tag equal to a default stays in tags", map[string]string{"env": "dev", "team": "db"},
			map[string]string{"env": "dev"}, map[string]string{"env": "dev", "team": "db"}, false, map[string]string{"env": "dev"}},
		{"an override stays in tags", map[string]string{"env": "prod", "team": "db"},
			map[string]string{"env": "prod"}, map[string]string{"env": "prod", "team": "db"}, false, map[string]string{"env": "prod"}},
		{"a tag added outside shows", map[string]string{"env": "dev", "team": "db", "x": "1"}, nil,
			map[string]string{"env": "dev", "team": "db"}, true, map[string]string{"x": "1"}},
		{"a default changed outside shows", map[string]string{"env": "other", "team": "db"}, nil,
			map[string]string{"env": "dev", "team": "db"}, true, map[string]string{"env": "other"}},
		{"a resource tag changed outside keeps its key", map[string]string{"app": "b"}, map[string]string{"app": "a"},
			map[string]string{"app": "a"}, false, map[string]string{"app": "b"}},
		{"a resource tag removed outside is gone", map[string]string{}, map[string]string{"app": "a"},
			map[string]string{"app": "a"}, false, map[string]string{}},
		{"a removed default's tag is the defaults' until removed", map[string]string{"old": "1"}, nil,
			map[string]string{"old": "1"}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TagsFromCloud(c.cloud, c.priorTags, c.priorAll, defaults, c.priorNull)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestCheckTagsRaisesRowsNamingTheValue(t *testing.T) {
	never := func(string) bool { return false }
	long := strings.Repeat("k", 65)
	cases := []struct {
		tags  map[string]string
		own   int
		rule  RuleID
		value string
	}{
		{map[string]string{long: "v"}, 0, RuleTagKeyLength, long},
		{map[string]string{"k": strings.Repeat("v", 129)}, 0, RuleTagValueLength, strings.Repeat("v", 129)},
		{map[string]string{"Aliyun-x": "v"}, 0, RuleTagReservedPrefix, "Aliyun-x"},
		{map[string]string{"acs:x": "v"}, 0, RuleTagReservedPrefix, "acs:x"},
		{map[string]string{"k": "https://x"}, 0, RuleTagReservedPrefix, "https://x"},
		{map[string]string{CreateTokenTagKey: "v"}, 0, RuleTagProviderKey, CreateTokenTagKey},
		{manyTags("k", 20), 1, RuleTagCount, "21"},
	}
	for _, c := range cases {
		got := CheckTags(c.tags, never, c.own)
		if len(got) != 1 || got[0].Rule != c.rule || got[0].Value != c.value || got[0].Severity != SeverityError {
			t.Fatalf("%v: got %+v, want one %s for %q", c.tags, got, c.rule, c.value)
		}
		if !strings.Contains(got[0].Detail, c.value) && c.rule != RuleTagValueLength {
			t.Fatalf("the message does not name the value %q: %s", c.value, got[0].Detail)
		}
	}
	if got := CheckTags(manyTags("k", 19), never, 1); len(got) != 0 {
		t.Fatalf("19 tags and the provider's own are allowed: %+v", got)
	}
	got := CheckTags(map[string]string{"acs:x": "v"}, func(string) bool { return true }, 0)
	if len(got) != 1 || !strings.Contains(got[0].Detail, "default_tags") {
		t.Fatalf("a default's problem names default_tags: %+v", got)
	}
	if p := CheckResourceGroupID("group1"); len(p) != 1 || p[0].Rule != RuleResourceGroupID {
		t.Fatalf("a malformed group: %+v", p)
	}
	if p := CheckResourceGroupID("rg-acfm2abc"); len(p) != 0 {
		t.Fatalf("a group id: %+v", p)
	}
}

// A change is sent in calls of at most 20 tags or keys, removals first, and never removes the
// provider's own tag.
func TestApplyTagChangeChunksAndKeepsOwnTag(t *testing.T) {
	api := newTagAPI()
	current := manyTags("old", 20)
	current[CreateTokenTagKey] = "token"
	api.tags["rm-1"] = MergeTags(nil, current)
	want := manyTags("new", 19)
	change := ChangeFrom(current, want)
	if len(change.Remove) != 20 || len(change.Set) != 19 {
		t.Fatalf("change %+v", change)
	}
	w := &Waiter{API: api, Clock: RealClock{}, MinInterval: time.Millisecond, MaxInterval: time.Millisecond}
	if err := ApplyTagChange(context.Background(), api, w, "rm-1", change); err != nil {
		t.Fatal(err)
	}
	if api.calls["UntagResources"] != 1 || api.calls["TagResources"] != 1 {
		t.Fatalf("calls %v", api.calls)
	}
	want[CreateTokenTagKey] = "token"
	if !reflect.DeepEqual(api.tags["rm-1"], want) {
		t.Fatalf("tags %v, want %v", api.tags["rm-1"], want)
	}
	big := TagChange{Set: manyTags("k", 45), Remove: []string{"a"}}
	api.sizes = nil
	if err := ApplyTagChange(context.Background(), api, w, "rm-1", big); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(api.sizes, []int{1, 20, 20, 5}) {
		t.Fatalf("call sizes %v, want [1 20 20 5] (removals first, at most 20 per call)", api.sizes)
	}
}

// ReadTags asks for 50 instances per call and leaves the provider's own tag out.
func TestReadTagsBatchesFiftyIDs(t *testing.T) {
	api := newTagAPI()
	var ids []string
	for i := 0; i < 120; i++ {
		id := fmt.Sprintf("rm-%03d", i)
		ids = append(ids, id)
		api.tags[id] = map[string]string{"n": id, CreateTokenTagKey: "t"}
	}
	got, err := ReadTags(context.Background(), api, ids)
	if err != nil {
		t.Fatal(err)
	}
	if api.calls["ListTagResources"] != 3 {
		t.Fatalf("%d calls for 120 instances, want 3", api.calls["ListTagResources"])
	}
	for _, id := range ids {
		if !reflect.DeepEqual(got[id], map[string]string{"n": id}) {
			t.Fatalf("%s: %v", id, got[id])
		}
	}
}

func tagSteps(p Program) []string {
	var out []string
	for _, op := range p.Operations {
		if op.Action == OpTags || op.Action == OpModifyResourceGroup {
			out = append(out, op.Action+" "+string(op.When))
		}
	}
	sort.Strings(out)
	return out
}

// The program holds the tag writes: none for unchanged tags, one after a create whose request
// could not carry them, one for an update that changes them.
func TestProgramTagOperations(t *testing.T) {
	prior := programPrior()
	same := programDesired()
	same.Tags = TagPlan{Want: map[string]string{"a": "1"}, Prior: map[string]string{"a": "1"}, PriorResourceGroup: "rg-a"}
	if got := tagSteps(Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: same, Facts: Facts{Now: time.Now()}}).Program); len(got) != 0 {
		t.Fatalf("unchanged tags: %v", got)
	}
	changed := same
	changed.Tags.Want, changed.Tags.ResourceGroup = map[string]string{"a": "2"}, "rg-b"
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: changed, Facts: Facts{Now: time.Now()}})
	if got := tagSteps(d.Program); !reflect.DeepEqual(got, []string{OpModifyResourceGroup + " now", OpTags + " now"}) {
		t.Fatalf("changed tags and group: %v", got)
	}
	create := programDesired()
	create.Tags = TagPlan{Want: map[string]string{"a": "1"}, CreateCarriesTags: true}
	if got := tagSteps(Plan(PlanInput{Label: "new", Desired: create, Facts: Facts{Now: time.Now()}}).Program); len(got) != 0 {
		t.Fatalf("CreateDBInstance carries the tags: %v", got)
	}
	create.Tags.CreateCarriesTags = false
	if got := tagSteps(Plan(PlanInput{Label: "new", Desired: create, Facts: Facts{Now: time.Now()}}).Program); !reflect.DeepEqual(got, []string{OpTags + " " + string(WhenAfterCreate)}) {
		t.Fatalf("a create that cannot carry tags tags after: %v", got)
	}
}

// blockingTagAPI holds its first ListTagResources until released, so that reads queue behind it.
type blockingTagAPI struct {
	*tagAPI
	mu      sync.Mutex
	entered chan struct{}
	release chan struct{}
	first   bool
	ids     [][]string
}

func (a *blockingTagAPI) ListTagResources(ctx context.Context, r *rdsapi.ListTagResourcesRequest) (*rdsapi.ListTagResourcesResponse, error) {
	a.mu.Lock()
	first := !a.first
	a.first = true
	a.ids = append(a.ids, append([]string(nil), r.ResourceIDs...))
	out, err := a.tagAPI.ListTagResources(ctx, r)
	a.mu.Unlock()
	if first {
		close(a.entered)
		<-a.release
	}
	return out, err
}

// Reads that arrive while a ListTagResources is in flight go out together, 50 ids per call; a
// lone read goes out at once.
func TestTagReaderBatchesConcurrentReads(t *testing.T) {
	api := &blockingTagAPI{tagAPI: newTagAPI(), entered: make(chan struct{}), release: make(chan struct{})}
	for i := 0; i < 61; i++ {
		api.tags[fmt.Sprintf("rm-%02d", i)] = map[string]string{"n": fmt.Sprint(i)}
	}
	var r TagReader
	ctx := context.Background()
	results := make(chan error, 61)
	read := func(i int) {
		tags, err := r.Read(ctx, api, fmt.Sprintf("rm-%02d", i))
		if err == nil && tags["n"] != fmt.Sprint(i) {
			err = fmt.Errorf("rm-%02d: %v", i, tags)
		}
		results <- err
	}
	go read(0)
	<-api.entered
	for i := 1; i < 61; i++ {
		go read(i)
	}
	for polls := 0; r.Queued() < 60; polls++ {
		if polls > 10000 {
			t.Fatalf("only %d reads queued", r.Queued())
		}
		time.Sleep(time.Millisecond) // waiting for the goroutines to queue, not for the reader
	}
	close(api.release)
	for i := 0; i < 61; i++ {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	sizes := []int{}
	for _, ids := range api.ids {
		sizes = append(sizes, len(ids))
	}
	if !reflect.DeepEqual(sizes, []int{1, 50, 10}) {
		t.Fatalf("calls of %v ids, want [1 50 10]", sizes)
	}
	if _, err := r.Read(ctx, api, "rm-05"); err != nil || len(api.ids) != 4 {
		t.Fatalf("a lone read goes out at once: %v, %d calls", err, len(api.ids))
	}
}
