package rdsservice

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Facts of the access rules that the instance's accounts and databases and this run's plans
// decide, for rds_account and rds_account_privilege.

// MissingDatabases lists the databases of dbs that neither the instance has (but those being
// deleted) nor this run plans, each quoted, with the instance's database of another spelling
// ("orders" -> "Orders").
func MissingDatabases(databases []rdsapi.Database, dbs []string, planned func(db string) bool) []string {
	var names, missing []string
	for _, d := range databases {
		if d.DBStatus != rdsapi.DatabaseStatusDeleting {
			names = append(names, d.DBName)
		}
	}
	for _, db := range dbs {
		if !slices.Contains(names, db) && !planned(db) {
			m := strconv.Quote(db)
			if other := SpelledOtherwise(names, db); other != "" {
				m += " -> " + strconv.Quote(other)
			}
			missing = append(missing, m)
		}
	}
	return missing
}

// GrantPrior is what a grant's prior state granted (nil when new): Terraform replacing the grant
// takes these privileges with the old one.
type GrantPrior struct {
	InstanceID, Account, Privilege string
	DBNames                        []string
}

// HeldElsewhere lists the databases of dbs on which account holds another privilege than
// privilege, one the prior grant of this resource did not give, as `"database" (privilege)`,
// sorted. A Custom grant (made with SQL) is no rds_account_privilege's: the plan's grant replaces it.
func HeldElsewhere(instanceID, privilege string, account *rdsapi.DBInstanceAccount, dbs []string, prior *GrantPrior) []string {
	if account == nil {
		return nil
	}
	var out []string
	for _, p := range account.DatabasePrivileges.DatabasePrivilege {
		mine := prior != nil && prior.InstanceID == instanceID && prior.Account == account.AccountName &&
			prior.Privilege == p.AccountPrivilege && slices.Contains(prior.DBNames, p.DBName)
		if !slices.Contains(dbs, p.DBName) || p.AccountPrivilege == privilege || p.AccountPrivilege == rdsapi.PrivilegeCustom || mine {
			continue
		}
		out = append(out, fmt.Sprintf("%q (%s)", p.DBName, p.AccountPrivilege))
	}
	sort.Strings(out)
	return out
}

// DeferredAccountChecks names the rules an account on an instance known only at apply could
// break, checked before the apply's first write (rule account-checks-deferred): the privileged
// account must be the only one, and a name of 17 to 32 characters needs MySQL 5.7 or later.
func DeferredAccountChecks(accountType, name string) string {
	var checks []string
	if accountType == rdsapi.AccountTypeSuper {
		checks = append(checks, "the instance has no other privileged (Super) account")
	}
	if len(name) > 16 {
		checks = append(checks, fmt.Sprintf("the instance runs MySQL 5.7 or later (name %q is longer than the 16 characters MySQL 5.6 and MariaDB allow)", name))
	}
	return strings.Join(checks, ", and that ")
}
