package rdsservice

import (
	"context"
	"fmt"
)

// readSQLAuditPrior reads the audit the cloud has when the plan configures sql_audit on an existing
// instance whose state holds none (imported, or sql_audit newly added to the configuration): what a
// shorter retention or turning audit off deletes is judged against the logs the cloud keeps, not
// against nothing (issue 46 §3).
func readSQLAuditPrior(ctx context.Context, env Env, id string, in *PlanInput) []ReadFailure {
	a := &in.Desired.SQLAudit
	if a.Prior != nil || !a.Configured || a.WantUnknown {
		return nil
	}
	cfg, err := env.API.DescribeSqlLogConfig(ctx, id)
	if err != nil {
		return []ReadFailure{{Summary: "Error reading the SQL audit the plan changes", Detail: fmt.Sprintf("RDS instance %s: DescribeSqlLogConfig (Database Autonomy Service): %v", id, err)}}
	}
	a.Prior = cfg
	return nil
}
