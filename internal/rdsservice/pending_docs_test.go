package rdsservice

import (
	"os"
	"strings"
	"testing"
)

// pendingDocsPage is the generated guide; tfplugindocs renders it into docs/guides/pending-changes.md.
const pendingDocsPage = "../../templates/guides/pending-changes.md.tmpl"

// The committed guide is what RenderPendingDocs writes from PendingBehaviours, and every kind of
// pending task has a row with every later run decided. RDS_UPDATE_RULE_DOCS=1 rewrites it (make
// generate does).
func TestPendingDocsAreCurrent(t *testing.T) {
	want := RenderPendingDocs()
	if os.Getenv("RDS_UPDATE_RULE_DOCS") == "1" {
		if err := os.WriteFile(pendingDocsPage, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(pendingDocsPage)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run `make generate` and commit templates/ and docs/", pendingDocsPage)
	}
	kinds := []PendingKind{PendingEngineUpgrade, PendingMinorUpgrade, PendingZoneMove, PendingSpec, PendingToggle, PendingParameters, PendingFollow}
	for _, k := range kinds {
		found := false
		for _, b := range PendingBehaviours {
			if b.Kind != k {
				continue
			}
			found = true
			for _, cell := range []string{b.WindowMoved, b.Reverted, b.MoreWork, b.ReadOnly, b.ApplyPending} {
				if strings.TrimSpace(cell) == "" {
					t.Errorf("%s: a later run with no decided behaviour", k)
				}
			}
		}
		if !found {
			t.Errorf("%s has no row in PendingBehaviours", k)
		}
	}
}

// The kinds are read back from the changes the planner writes into scheduled_change.
func TestPendingKindsOfScheduledChanges(t *testing.T) {
	p := PendingChange{Changes: []string{
		"engine_version changes from 5.7 to 8.0 (major version upgrade in place: a switchover to the upgraded standby)",
		"target_minor_version changes from rds_20200229 to rds_20201031 (minor version upgrade: a switchover)",
		`zone_id changes from "cn-hangzhou-i" to "cn-hangzhou-j" (zone move in place, MigrateToOtherZone: a switchover)`,
		"instance_type changes from mysql.n2.medium.2c to mysql.n2.large.2c",
		"atomic_write_16k changes from false to true",
		"parameter innodb_io_capacity is set to 4000",
	}}
	want := []PendingKind{PendingEngineUpgrade, PendingMinorUpgrade, PendingZoneMove, PendingSpec, PendingToggle, PendingParameters}
	got := p.PendingKinds()
	if strings.Join(kindStrings(got), "|") != strings.Join(kindStrings(want), "|") {
		t.Errorf("PendingKinds() = %q, want %q", got, want)
	}
	if rs := pendingRestarts("rm-1", "", p); len(rs) != 4 {
		t.Errorf("pendingRestarts: %d restarts, want 4 (the spec change, toggle and parameters share one; the move and each upgrade have their own)", len(rs))
	}
}

func kindStrings(ks []PendingKind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}
