package rdsservice

import (
	"slices"
	"strings"
	"testing"
)

func noteBytes(refreshed bool, attrs ...string) []byte {
	raw := `{"step":"ModifySecurityIps","error":"Throttling","attributes":["` + strings.Join(attrs, `","`) + `"]`
	if len(attrs) == 0 {
		raw = `{"step":"ModifySecurityIps","error":"Throttling","attributes":[]`
	}
	if refreshed {
		raw += `,"refreshed":true`
	}
	return []byte(raw + "}")
}

func TestUnrefreshedCreateWarnsUntilARefresh(t *testing.T) {
	for _, c := range []struct {
		name, want string
		raw        []byte
	}{
		{"no note", "", nil},
		{"unreadable note", "", []byte("{")},
		{"refreshed", "", noteBytes(true, "security_ips")},
		{"unrefreshed", "security_ips, storage", noteBytes(false, "security_ips", "storage")},
		{"unrefreshed, nothing read", "unknown (they could not be read)", noteBytes(false)},
	} {
		got := UnrefreshedCreate("rm-1", c.raw)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: want no warning, got %v", c.name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Rule != RuleCreateUnrefreshed || !strings.Contains(got[0].Detail, c.want) ||
			!strings.Contains(got[0].Detail, "ModifySecurityIps") || got[0].Severity != SeverityWarning {
			t.Errorf("%s: want one warning naming %q, got %+v", c.name, c.want, got)
		}
	}
}

func TestCompletingCreateNamesTheRemainingChanges(t *testing.T) {
	state := ObjectAttr(map[string]AttrValue{"id": StringAttr("rm-1"), "storage": IntAttr(20),
		"security_ips": ListAttr(StringAttr("127.0.0.1")), "instance_name": StringAttr("a")})
	plan := ObjectAttr(map[string]AttrValue{"id": StringAttr("rm-1"), "storage": IntAttr(50),
		"security_ips": ListAttr(StringAttr("10.0.0.0/8")), "instance_name": StringAttr("b")})
	got := CompletingCreate("rm-1", noteBytes(true, "storage", "security_ips"), plan, state)
	if len(got) != 1 || got[0].Rule != RuleCreateCompleting || !strings.Contains(got[0].Detail, "storage, security_ips") {
		t.Fatalf("want one warning naming storage, security_ips, got %+v", got)
	}
	for name, raw := range map[string][]byte{"unrefreshed": noteBytes(false, "storage"), "no note": nil} {
		if got := CompletingCreate("rm-1", raw, plan, state); len(got) != 0 {
			t.Errorf("%s: want no warning, got %v", name, got)
		}
	}
	if got := CompletingCreate("rm-1", noteBytes(true, "storage"), state, state); len(got) != 0 {
		t.Errorf("completed: want no warning, got %v", got)
	}
}

func TestDifferingAttributesKeepsTheOrderOfNames(t *testing.T) {
	a := ObjectAttr(map[string]AttrValue{"x": StringAttr("1"), "y": BoolAttr(true), "z": UnknownAttr(), "w": NullAttr()})
	b := ObjectAttr(map[string]AttrValue{"x": StringAttr("2"), "y": BoolAttr(false), "z": UnknownAttr(), "w": NullAttr()})
	if got := DifferingAttributes(a, b, []string{"y", "z", "x", "w"}); !slices.Equal(got, []string{"y", "x"}) {
		t.Errorf("DifferingAttributes = %v, want [y x]", got)
	}
}

func TestUnsetAttributesListsTheNullOnes(t *testing.T) {
	config := ObjectAttr(map[string]AttrValue{"zone_id": NullAttr(), "engine": StringAttr("MySQL"), "tags": NullAttr(),
		"storage": UnknownAttr(), "parameters": ObjectAttr(map[string]AttrValue{"x": NullAttr()})})
	if got := UnsetAttributes(config); !slices.Equal(got, []string{"tags", "zone_id"}) {
		t.Errorf("UnsetAttributes = %v, want [tags zone_id]", got)
	}
	if got := UnsetAttributes(ObjectAttr(map[string]AttrValue{"engine": StringAttr("MySQL")})); got == nil || len(got) != 0 {
		t.Errorf("UnsetAttributes of a wholly set configuration = %#v, want an empty list (recorded as [])", got)
	}
}
