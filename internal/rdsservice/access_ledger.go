package rdsservice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// What the access resources (rds_account, rds_database, rds_account_privilege) planned so far in
// one run, on the run's Ledger: Terraform plans a resource after the resources it references, so a
// grant that references its account and databases sees them here, and two resources of one name
// see each other.

func accessKey(parts ...string) string { return strings.Join(parts, "/") }

// PlanAccount records an account this run plans; it reports whether another resource planned the
// same name already, and names another account planned as Super ("" none).
func (l *Ledger) PlanAccount(instance, name, kind string) (twice bool, super string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, t := range l.accounts {
		other := strings.TrimPrefix(key, instance+"/")
		if other != key && other != name && t == rdsapi.AccountTypeSuper {
			super = other
		}
	}
	if l.accounts == nil {
		l.accounts = map[string]string{}
	}
	key := accessKey(instance, name)
	_, twice = l.accounts[key]
	l.accounts[key] = kind
	return twice, super
}

// PlannedAccount is the type of an account this run plans (ok false when it plans none).
func (l *Ledger) PlannedAccount(instance, name string) (kind string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kind, ok = l.accounts[accessKey(instance, name)]
	return kind, ok
}

// PlanDatabase records a database this run plans; it reports whether another resource planned it.
func (l *Ledger) PlanDatabase(instance, name string) (twice bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.databases == nil {
		l.databases = map[string]bool{}
	}
	key := accessKey(instance, name)
	twice = l.databases[key]
	l.databases[key] = true
	return twice
}

// PlansDatabase reports whether this run plans the database.
func (l *Ledger) PlansDatabase(instance, name string) bool {
	return l.has(&l.databases, accessKey(instance, name))
}

// PlanGrant records the (account, database) pairs of a grant and returns those another grant of
// this run planned already, each as `"database" (privilege, planned by another ...)`, sorted.
func (l *Ledger) PlanGrant(instance, account, privilege string, dbs []string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grants == nil {
		l.grants = map[string]string{}
	}
	var taken []string
	for _, db := range dbs {
		key := accessKey(instance, account, db)
		if other, ok := l.grants[key]; ok {
			taken = append(taken, fmt.Sprintf("%q (%s, planned by another rds_account_privilege)", db, other))
			continue
		}
		l.grants[key] = privilege
	}
	slices.Sort(taken)
	return taken
}

// OtherSuper names a privileged account among accounts other than name ("" when none).
func OtherSuper(accounts []rdsapi.DBInstanceAccount, name string) string {
	for _, a := range accounts {
		if a.AccountType == rdsapi.AccountTypeSuper && a.AccountName != name {
			return a.AccountName
		}
	}
	return ""
}
