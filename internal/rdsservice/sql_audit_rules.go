package rdsservice

import (
	"fmt"
	"slices"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// SQL audit (issue 46 §1): sql_audit on rds_instance, sent with DAS's ModifySqlLogConfig after a
// create and in place, read back with DescribeSqlLogConfig where it is configured. Shortening
// retention_days, or turning audit off, deletes logs at once: a loss of the data-loss family
// (data_loss.go), which prevent_data_loss refuses.

// OpSQLAudit is the operation that sends the audit configuration.
const OpSQLAudit = "ModifySqlLogConfig"

// AttrSQLAudit is the attribute the audit rules point at.
const AttrSQLAudit = "sql_audit"

const (
	RuleSQLAuditRetention RuleID = "sql-audit-retention"
	RuleSQLAuditHot       RuleID = "sql-audit-hot-retention"
	RuleDataLossAudit     RuleID = "data-loss-sql-audit"
)

// SQLAuditRetentions are retention_days' values (ModifySqlLogConfig reference: 7, 30, 180, 365).
var SQLAuditRetentions = []int64{7, 30, 180, 365}

// SQLAuditPlan is what the planner knows of an instance's SQL audit.
type SQLAuditPlan struct {
	// Want is the configured sql_audit; Configured is false when sql_audit is left out (not
	// managed); WantUnknown is set while it is known only at apply.
	Want        rdsapi.SQLAudit
	Configured  bool
	WantUnknown bool
	// Prior is the configuration the last refresh read back (nil for a create or when unmanaged).
	Prior *rdsapi.SQLAudit
}

// checkSQLAudit raises the audit rules of a known configuration and names the logs it deletes.
func checkSQLAudit(in PlanInput, d *Decision) {
	a := in.Desired.SQLAudit
	if !a.Configured || a.WantUnknown {
		return
	}
	if w := a.Want; w.Enabled {
		if !slices.Contains(SQLAuditRetentions, w.Retention) {
			d.add(problem(RuleSQLAuditRetention, fmt.Sprint(w.Retention), w.Retention))
		}
		if w.HotRetention < 1 || w.HotRetention > 7 || w.HotRetention > w.Retention {
			d.add(problem(RuleSQLAuditHot, fmt.Sprint(w.HotRetention), w.HotRetention, w.Retention))
		}
	}
	if loss, ok := SQLAuditLoss(in.Label, a.Prior, a.Want); ok && !d.HasErrors() {
		d.add(loss.Problem(in.Desired.PreventDataLoss))
	}
}

// SQLAuditLoss is what a change of the audit deletes: turning it off deletes every log (up to the
// retention), a shorter retention the logs older than it. ok is false when nothing goes.
func SQLAuditLoss(instance string, prior *rdsapi.SQLAudit, want rdsapi.SQLAudit) (DataLoss, bool) {
	if prior == nil || !prior.Enabled {
		return DataLoss{}, false
	}
	value := fmt.Sprint(want.Retention)
	switch {
	case !want.Enabled:
		return DataLoss{Rule: RuleDataLossAudit, Value: "false", Args: []any{instance, prior.Retention, "turning sql_audit off deletes every log kept",
			fmt.Sprintf("up to %d days of SQL audit logs", prior.Retention)}}, true
	case want.Retention < prior.Retention:
		return DataLoss{Rule: RuleDataLossAudit, Value: value, Args: []any{instance, prior.Retention,
			fmt.Sprintf("retention_days = %d deletes the logs older than %d days", want.Retention, want.Retention),
			fmt.Sprintf("up to %d days of SQL audit logs", prior.Retention-want.Retention)}}, true
	}
	return DataLoss{}, false
}
