package simulator

import (
	"fmt"
	"net/http"
	"testing"
)

func tagsOf(t *testing.T, e *env, ids ...string) map[string]map[string]string {
	t.Helper()
	p := map[string]string{"ResourceType": "INSTANCE"}
	for i, id := range ids {
		p[fmt.Sprintf("ResourceId.%d", i+1)] = id
	}
	out := map[string]map[string]string{}
	for {
		body := e.c.ok("ListTagResources", p)
		for _, raw := range body["TagResources"].(map[string]any)["TagResource"].([]any) {
			r := raw.(map[string]any)
			id := r["ResourceId"].(string)
			if out[id] == nil {
				out[id] = map[string]string{}
			}
			out[id][r["TagKey"].(string)] = r["TagValue"].(string)
		}
		next, _ := body["NextToken"].(string)
		if next == "" {
			return out
		}
		p["NextToken"] = next
	}
}

func TestTagResourcesUntagAndList(t *testing.T) {
	e := newEnv(t)
	a := e.create(map[string]string{"Tag.1.Key": "team", "Tag.1.Value": "db"})
	b := e.create(nil)
	e.c.ok("TagResources", map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": a, "ResourceId.2": b,
		"Tag.1.Key": "env", "Tag.1.Value": "prod", "Tag.2.Key": "empty", "Tag.2.Value": ""})
	got := tagsOf(t, e, a, b)
	if got[a]["team"] != "db" || got[a]["env"] != "prod" || got[b]["env"] != "prod" || len(got[b]) != 2 {
		t.Fatalf("tags after TagResources: %v", got)
	}
	if v, ok := got[b]["empty"]; !ok || v != "" {
		t.Fatalf("an empty value is a value: %v", got[b])
	}
	e.c.ok("UntagResources", map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": a, "TagKey.1": "env", "TagKey.2": "missing"})
	got = tagsOf(t, e, a, b)
	if len(got[a]) != 2 || got[a]["team"] != "db" || got[a]["env"] != "" || got[b]["env"] != "prod" {
		t.Fatalf("tags after UntagResources: %v", got)
	}
	e.c.ok("UntagResources", map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": b, "All": "true"})
	if got = tagsOf(t, e, b); len(got[b]) != 0 {
		t.Fatalf("All removes every tag: %v", got)
	}
}

func TestTagLimits(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	base := map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": id}
	with := func(extra map[string]string) map[string]string {
		p := map[string]string{}
		for k, v := range base {
			p[k] = v
		}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	for _, bad := range []map[string]string{
		{"Tag.1.Key": "aliyun-x", "Tag.1.Value": "v"},
		{"Tag.1.Key": "ACS:x", "Tag.1.Value": "v"},
		{"Tag.1.Key": "https://x", "Tag.1.Value": "v"},
		{"Tag.1.Key": "k", "Tag.1.Value": "http://v"},
		{"Tag.21.Key": "k", "Tag.21.Value": "v"},
	} {
		e.c.fails("TagResources", with(bad), http.StatusBadRequest, "InvalidParameter")
	}
	for n := 1; n <= 20; n += 10 {
		p := with(nil)
		for i := 0; i < 10; i++ {
			p[fmt.Sprintf("Tag.%d.Key", i+1)] = fmt.Sprintf("k%02d", n+i)
			p[fmt.Sprintf("Tag.%d.Value", i+1)] = "v"
		}
		e.c.ok("TagResources", p)
	}
	e.c.fails("TagResources", with(map[string]string{"Tag.1.Key": "one-more", "Tag.1.Value": "v"}), http.StatusBadRequest, "NumberExceed.Tags")
	e.c.ok("TagResources", with(map[string]string{"Tag.1.Key": "k01", "Tag.1.Value": "overwritten"}))
	if got := tagsOf(t, e, id)[id]; len(got) != 20 || got["k01"] != "overwritten" {
		t.Fatalf("20 tags, k01 overwritten: %v", got)
	}
	ids := map[string]string{"ResourceType": "INSTANCE"}
	for i := 1; i <= 51; i++ {
		ids[fmt.Sprintf("ResourceId.%d", i)] = id
	}
	e.c.fails("ListTagResources", ids, http.StatusBadRequest, "InvalidParameter")
}

func TestListTagResourcesPages(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for i := 0; i < 6; i++ {
		id := e.create(nil)
		p := map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": id}
		for k := 1; k <= 20; k++ {
			p[fmt.Sprintf("Tag.%d.Key", k)] = fmt.Sprintf("k%d", k)
			p[fmt.Sprintf("Tag.%d.Value", k)] = id
		}
		e.c.ok("TagResources", p)
		ids = append(ids, id)
	}
	got := tagsOf(t, e, ids...)
	for _, id := range ids {
		if len(got[id]) != 20 || got[id]["k7"] != id {
			t.Fatalf("%s: %v", id, got[id])
		}
	}
}

func TestModifyResourceGroup(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"ResourceGroupId": "rg-first"})
	if got := e.attr(id)["ResourceGroupId"]; got != "rg-first" {
		t.Fatalf("created in rg-first, got %v", got)
	}
	e.c.ok("ModifyResourceGroup", map[string]string{"DBInstanceId": id, "ResourceGroupId": "rg-second"})
	if got := e.attr(id)["ResourceGroupId"]; got != "rg-second" {
		t.Fatalf("moved to rg-second, got %v", got)
	}
	e.c.fails("ModifyResourceGroup", map[string]string{"DBInstanceId": id, "ResourceGroupId": "group"}, http.StatusBadRequest, "InvalidParameter")
}
