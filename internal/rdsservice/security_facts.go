package rdsservice

import (
	"context"
	"fmt"
)

// SecurityState is an existing instance's SSL and TDE as its state holds them (unknown or null
// where the state does not hold them yet), with the key and role TDE was turned on with.
type SecurityState struct {
	SSL, TDE        Val[bool]
	TDEKey, TDERole string
}

// readSecurityFacts sets the instance's SSL and TDE now from its state s, reading from the cloud
// what the configuration sets and the state does not hold yet. A failed read leaves the facts unset.
func readSecurityFacts(ctx context.Context, env Env, id string, s SecurityState, in *PlanInput) []ReadFailure {
	now := SecurityFacts{SSL: s.SSL.Or(false), TDE: s.TDE.Or(false), TDEKey: s.TDEKey, TDERole: s.TDERole}
	want := in.Desired.Security
	if want.SSL.IsKnown() && !s.SSL.IsKnown() {
		ssl, err := env.API.DescribeDBInstanceSSL(ctx, id)
		if err != nil {
			return []ReadFailure{{Summary: "Error reading SSL of RDS instance", Detail: fmt.Sprintf("DescribeDBInstanceSSL %s: %v", id, err)}}
		}
		now.SSL = ssl.Enabled()
	}
	if want.TDE.IsKnown() && !s.TDE.IsKnown() {
		tde, err := env.API.DescribeDBInstanceTDE(ctx, id)
		if err != nil {
			return []ReadFailure{{Summary: "Error reading TDE of RDS instance", Detail: fmt.Sprintf("DescribeDBInstanceTDE %s: %v", id, err)}}
		}
		now.TDE = tde.Enabled()
	}
	in.Facts.Security = now
	return nil
}
