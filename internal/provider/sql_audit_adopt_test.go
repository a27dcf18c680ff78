package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// sql_audit added to the configuration of an instance whose audit was turned on outside Terraform
// (the state holds none: imported, or sql_audit newly managed) is judged against the audit the cloud
// has: a shorter retention names the logs that go, and prevent_data_loss refuses it with no write
// (the data-loss oracle found the logs deleted unnamed, prevent_data_loss or not, after an import).
func TestSQLAudit_adoptedAuditNamesTheLogsThatGo(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	const addr = "rds_instance.db"
	w.applyChecked(t, "create", []oracleResource{{addr, auditAttrs(nil, false)}})
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ModifySqlLogConfig(context.Background(), id, rdsapi.SQLAudit{Enabled: true, Retention: 180, HotRetention: 7}); err != nil {
		t.Fatal(err)
	}
	w.sim.AdvanceClock(100 * 24 * time.Hour)
	since := w.sim.AuditLogsSince(id)
	for _, guard := range []bool{true, false} {
		w.sim.ResetStats()
		plan, err := w.planWalk([]oracleResource{{addr, auditAttrs(map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 7}, guard)}})
		if err != nil {
			t.Fatal(err)
		}
		text := plan.errMsg + warningText(plan.res[addr].diags)
		if !strings.Contains(text, "deletes up to 150 days of SQL audit logs of "+id) || guard != strings.Contains(plan.errMsg, "prevent_data_loss refuses this plan") {
			t.Errorf("prevent_data_loss = %t: the plan says %q (error at %q), want the 150 days of logs named (refused when guarded)", guard, text, plan.errAt)
		}
		if n := mutationsIn(w.sim.Stats()); n > 0 {
			t.Errorf("prevent_data_loss = %t: planning wrote %d times", guard, n)
		}
	}
	if got := w.sim.AuditLogsSince(id); !got.Equal(since) {
		t.Errorf("the logs start at %v, want %v still", got, since)
	}
}
