package rdsservice

import (
	"os"
	"strings"
	"testing"
)

// ruleDocsPage is the generated guide; tfplugindocs renders it into docs/guides/plan-rules.md.
const ruleDocsPage = "../../templates/guides/plan-rules.md.tmpl"

// The committed guide is what RenderRuleDocs writes: a rule added, changed or removed in the
// table (or a change in what the planner restarts) fails here until `make generate` runs.
// RDS_UPDATE_RULE_DOCS=1 rewrites it (make generate does).
func TestRuleDocsAreCurrent(t *testing.T) {
	want := RenderRuleDocs()
	if os.Getenv("RDS_UPDATE_RULE_DOCS") == "1" {
		if err := os.WriteFile(ruleDocsPage, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(ruleDocsPage)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run `make generate` and commit templates/ and docs/", ruleDocsPage)
	}
	for _, r := range RuleTable() {
		if !strings.Contains(want, "| `"+string(r.ID)+"` |") {
			t.Errorf("rule %s is missing from the generated guide", r.ID)
		}
	}
}

// The effects are the planner's: growing cloud-disk storage is online, the other storage changes
// and every class, storage type and 16K change restart.
func TestChangeEffectsFollowThePlanner(t *testing.T) {
	if AlwaysRestarts(AttrStorage) {
		t.Error("storage growth on cloud disks is online, so storage does not always restart")
	}
	for _, attr := range []string{AttrInstanceType, AttrStorageType, AttrAtomicWrite, AttrBufferPoolExtension} {
		if !AlwaysRestarts(attr) {
			t.Errorf("%s: every change restarts the instance", attr)
		}
	}
	got := StorageChangeEffect()
	for _, want := range []string{"Growing cloud-disk storage of the same type is online (no restart)", "growing `local_ssd` storage", "reducing storage", "ends with a switchover"} {
		if !strings.Contains(got, want) {
			t.Errorf("StorageChangeEffect() = %q, want it to contain %q", got, want)
		}
	}
}
