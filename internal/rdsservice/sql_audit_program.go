package rdsservice

import "github.com/openrds/terraform-provider-rds/internal/rdsapi"

// sqlAuditOperations adds the ModifySqlLogConfig of a configuration that differs from the one read
// back (after a create: one that is on).
func (b *programBuilder) sqlAuditOperations(label string, when When) {
	a := b.in.Desired.SQLAudit
	if !a.Configured {
		return
	}
	prior := rdsapi.SQLAudit{}
	if a.Prior != nil && when != WhenAfterCreate {
		prior = *a.Prior
	}
	switch {
	case a.WantUnknown:
		b.add(Operation{Instance: label, Action: OpSQLAudit, When: when})
	case a.Want != prior:
		want := a.Want
		b.add(Operation{Instance: label, Action: OpSQLAudit, When: when, SQLAudit: &want})
	}
}
