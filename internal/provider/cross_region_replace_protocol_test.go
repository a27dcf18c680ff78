package provider

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Replacing a primary on cloud disks releases it, and with it its cross-region backups (issue 46
// §2): the replacing plan names them, prevent_data_loss refuses it with no write, and the apply
// deletes every copy the plan named.
func TestCrossRegion_replacementNamesTheCopies(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	const addr = "rds_instance.db"
	order := func(guard bool, version string) []oracleResource {
		a := auditAttrs(nil, guard)
		a["engine_version"] = version
		return []oracleResource{{addr, a}, {"rds_backup_policy.db", map[string]any{"instance_id": oracleRef{addr, "id"},
			"cross_region": map[string]any{"region": "cn-shanghai", "retention_days": 30}}}}
	}
	w.applyChecked(t, "create", order(true, "8.0"))
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	w.sim.AdvanceClock(8 * 24 * time.Hour) // the automatic backups of a week, copied
	copies := w.sim.CrossRegionBackups(id)
	if copies == 0 {
		t.Fatal("no copy after a week of automatic backups")
	}
	w.sim.ResetStats()
	names := regexp.MustCompile(`(?i)Releasing ` + id + ` deletes its ` + strconv.Itoa(copies) + ` cross-region backups`)
	refused, err := w.planWalk(order(true, "5.7"))
	if err != nil {
		t.Fatal(err)
	}
	if refused.errAt != addr || !strings.Contains(refused.errMsg, "prevent_data_loss refuses this plan") || !names.MatchString(refused.errMsg) {
		t.Errorf("replacement guarded: failed at %q with %q, want a refusal naming %d copies", refused.errAt, refused.errMsg, copies)
	}
	if n := mutationsIn(w.sim.Stats()); n > 0 {
		t.Errorf("replacement guarded: the refused plan wrote %d times", n)
	}
	allowed, err := w.planWalk(order(false, "5.7"))
	if err != nil || allowed.errAt != "" {
		t.Fatalf("replacement: %v %s", err, allowed.errMsg)
	}
	expectWarning(t, "replacement", allowed, addr, names)
	w.applyChecked(t, "replace", order(false, "5.7"))
	if n := w.sim.CrossRegionBackups(id); n != 0 {
		t.Errorf("replacement: %d copies of %s left, want the %d the plan named gone", n, id, copies)
	}
}
