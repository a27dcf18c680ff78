package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// auditAttrs is an instance of autoScaleBase with sql_audit (nil: left out) and prevent_data_loss.
func auditAttrs(audit map[string]any, guard bool) map[string]any {
	a := primaryAttrs(autoScaleBase)
	a["storage"] = 100
	if audit != nil {
		a["sql_audit"] = audit
	}
	a["prevent_data_loss"] = guard
	return a
}

// sql_audit at the plugin protocol (issue 46 §1): created with the instance, read back; a shorter
// retention or audit turned off names the days of logs that go, and prevent_data_loss refuses it
// with no write; the apply deletes those logs on the cloud's clock, and no more.
func TestSQLAudit_shorterRetentionNamesTheLogsThatGo(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	const addr = "rds_instance.db"
	on := func(days, hot int, guard bool) []oracleResource {
		return []oracleResource{{addr, auditAttrs(map[string]any{"enabled": true, "retention_days": days, "hot_retention_days": hot}, guard)}}
	}
	w.applyChecked(t, "create", on(180, 7, true))
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	since := w.sim.AuditLogsSince(id)
	if n := w.sim.Stats().Requests["ModifySqlLogConfig"]; n != 1 || since.IsZero() {
		t.Fatalf("create: ModifySqlLogConfig %d, logs since %v; want 1 and logs", n, since)
	}
	w.sim.AdvanceClock(100 * 24 * time.Hour) // 100 days of logs
	refused := func(name string, order []oracleResource, want string) {
		t.Helper()
		w.sim.ResetStats()
		plan, err := w.planWalk(order)
		if err != nil {
			t.Fatal(err)
		}
		if plan.errAt != addr || !strings.Contains(plan.errMsg, "prevent_data_loss refuses this plan") || !strings.Contains(plan.errMsg, want) {
			t.Errorf("%s: the plan failed at %q with %q, want a prevent_data_loss refusal naming %q", name, plan.errAt, plan.errMsg, want)
		}
		if n := mutationsIn(w.sim.Stats()); n > 0 {
			t.Errorf("%s: the refused plan wrote %d times", name, n)
		}
	}
	refused("shorten guarded", on(30, 7, true), "up to 150 days of SQL audit logs")
	refused("off guarded", []oracleResource{{addr, auditAttrs(map[string]any{"enabled": false}, true)}}, "up to 180 days of SQL audit logs")
	if got := w.sim.AuditLogsSince(id); !got.Equal(since) {
		t.Fatalf("refused plans: the logs start at %v, want %v still", got, since)
	}
	plan := w.applyChecked(t, "shorten", on(30, 7, false))
	expectWarning(t, "shorten", plan, addr, regexp.MustCompile(`deletes up to 150 days of SQL audit logs of `+id))
	shortened := w.sim.AuditLogsSince(id)
	if kept := shortened.Sub(since); kept < 69*24*time.Hour || kept > 71*24*time.Hour {
		t.Errorf("shorten: the oldest log moved by %v, want 70 days (100 days of logs, 30 kept)", kept)
	}
	longer := w.applyChecked(t, "lengthen", on(365, 3, true))
	if text := warningText(longer.res[addr].diags); strings.Contains(text, "deletes") {
		t.Errorf("lengthen: the plan names a loss: %s", text)
	}
	if got := w.sim.AuditLogsSince(id); !got.Equal(shortened) {
		t.Errorf("lengthen: the logs start at %v, want %v: deleted logs do not come back", got, shortened)
	}
}

// sql_audit is read back only where configured (no DAS call for an instance without it); a value
// DAS does not offer is refused at plan with no write; a change made outside Terraform shows.
func TestSQLAudit_readBackOnlyWhereConfigured(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	w.applyChecked(t, "no audit", []oracleResource{{addr, auditAttrs(nil, false)}})
	w.sim.ResetStats()
	if _, err := w.planWalk([]oracleResource{{addr, auditAttrs(nil, false)}}); err != nil {
		t.Fatal(err)
	}
	if n := w.sim.Stats().Requests["DescribeSqlLogConfig"]; n != 0 {
		t.Errorf("no audit: %d DescribeSqlLogConfig on refresh, want none", n)
	}
	for _, tc := range []struct {
		audit map[string]any
		want  string
	}{
		{map[string]any{"enabled": true, "retention_days": 60, "hot_retention_days": 7}, "retention_days = 60 is not a retention DAS offers"},
		{map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 9}, "hot_retention_days = 9 must be 1 to 7 days"},
	} {
		w.sim.ResetStats()
		plan, err := w.planWalk([]oracleResource{{addr, auditAttrs(tc.audit, false)}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan.errMsg, tc.want) || mutationsIn(w.sim.Stats()) > 0 {
			t.Errorf("refusal %q with %d writes, want it to say %q with none", plan.errMsg, mutationsIn(w.sim.Stats()), tc.want)
		}
	}
	audited := []oracleResource{{addr, auditAttrs(map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 7}, false)}}
	w.applyChecked(t, "audit on", audited)
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ModifySqlLogConfig(context.Background(), id, rdsapi.SQLAudit{Enabled: true, Retention: 365, HotRetention: 7}); err != nil {
		t.Fatal(err)
	}
	drift, err := w.planWalk(audited)
	if err != nil {
		t.Fatal(err)
	}
	expectAction(t, "drift", drift, addr, actUpdate)
	expectWarning(t, "drift", drift, addr, regexp.MustCompile(`deletes up to 335 days of SQL audit logs`))
}
