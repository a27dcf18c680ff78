package mysqlendpoint

import (
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
)

// The endpoint and the API are one store. The API's changes reach the engine through Apply (simulator.go); what
// SQL statements change (CREATE USER, GRANT, REVOKE, ALTER USER, DROP USER, CREATE DATABASE, DROP DATABASE) is
// read back from the engine after each statement and handed to Options.OnSQLChange, which writes it into the
// simulator's state, so that DescribeAccounts and DescribeDatabases report it.

// Change is what SQL statements changed since the store last looked.
type Change struct {
	// Accounts were created or changed: their password hash or database grants.
	Accounts        []AccountChange
	DroppedAccounts []string
	// Databases were created.
	Databases        []DatabaseChange
	DroppedDatabases []string
}

// AccountChange is one account as the engine holds it after a statement.
type AccountChange struct {
	Name string
	// PasswordHash is the mysql_native_password hash ("*" and 40 hex digits); empty for an account without password.
	PasswordHash string
	// Grants maps a database to its privilege type: one of the four, or Custom.
	Grants map[string]Privilege
	// CustomGrants maps each database whose grant is Custom to its MySQL privileges, sorted.
	CustomGrants map[string][]string
}

// DatabaseChange is one database created with SQL.
type DatabaseChange struct {
	Name         string
	CharacterSet string
}

func (c Change) empty() bool {
	return len(c.Accounts)+len(c.DroppedAccounts)+len(c.Databases)+len(c.DroppedDatabases) == 0
}

// noticeSQLChanges compares the engine's accounts and databases with the store's and reports the difference. A
// read-only endpoint refuses every write, so it has nothing to report.
func (e *Endpoint) noticeSQLChanges() {
	if e.readOnly {
		return
	}
	e.mu.Lock()
	report := e.onSQLChange
	if report == nil {
		e.mu.Unlock()
		return
	}
	change := e.accountChangesLocked()
	change.Databases, change.DroppedDatabases = e.databaseChangesLocked()
	e.mu.Unlock()
	if !change.empty() {
		report(change)
	}
}

// ReportSQLChanges sets where the changes SQL statements make are reported (Options.OnSQLChange).
func (e *Endpoint) ReportSQLChanges(fn func(Change)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onSQLChange = fn
}

// accountChangesLocked takes the engine's users into the store's accounts. A privileged account stays
// privileged: its grants are every privilege everywhere, whatever SQL adds on one database.
func (e *Endpoint) accountChangesLocked() Change {
	var change Change
	users := map[string]*mysql_db.User{}
	rd := e.engine.Analyzer.Catalog.MySQLDb.Reader()
	rd.VisitUsers(func(u *mysql_db.User) {
		if u.IsRole || u.IsSuperUser || u.IsEphemeral {
			return
		}
		if prior, ok := users[u.User]; !ok || prior.Host != "%" {
			users[u.User] = u
		}
	})
	rd.Close()
	for name, u := range users {
		prior := e.accounts[name]
		next := &account{name: name, hash: u.AuthString, grants: map[string][]sql.PrivilegeType{}}
		if prior != nil && prior.privileged {
			next.privileged, next.grants = true, prior.grants
		} else {
			next.grants = databaseGrants(u.PrivilegeSet)
		}
		if next.equal(prior) {
			continue
		}
		e.accounts[name] = next
		change.Accounts = append(change.Accounts, next.change())
	}
	for name := range e.accounts {
		if _, ok := users[name]; !ok {
			delete(e.accounts, name)
			change.DroppedAccounts = append(change.DroppedAccounts, name)
		}
	}
	slices.SortFunc(change.Accounts, func(a, b AccountChange) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(change.DroppedAccounts)
	return change
}

// databaseGrants reads the database-level privileges of a user; table, column and global grants are not
// modelled (README: they are not reported, and an API change to the account rebuilds it without them).
func databaseGrants(ps mysql_db.PrivilegeSet) map[string][]sql.PrivilegeType {
	out := map[string][]sql.PrivilegeType{}
	for _, db := range ps.GetDatabases() {
		if privs := db.ToSlice(); len(privs) > 0 {
			out[strings.ToLower(db.Name())] = sortedPrivileges(privs)
		}
	}
	return out
}

func (a *account) change() AccountChange {
	out := AccountChange{Name: a.name, PasswordHash: a.hash, Grants: map[string]Privilege{}, CustomGrants: map[string][]string{}}
	for db, privs := range a.grants {
		kind := Classify(privs)
		out.Grants[db] = kind
		if kind == Custom {
			out.CustomGrants[db] = PrivilegeNames(privs)
		}
	}
	return out
}

// databaseChangesLocked takes the engine's databases into the store's.
func (e *Endpoint) databaseChangesLocked() (created []DatabaseChange, dropped []string) {
	ctx := e.adminContext()
	now := map[string]bool{}
	for _, db := range e.provider.AllDatabases(ctx) {
		name := strings.ToLower(db.Name())
		if name == "mysql" || name == "information_schema" {
			continue
		}
		now[name] = true
		if !e.databases[name] {
			created = append(created, DatabaseChange{Name: name, CharacterSet: characterSetOf(ctx, db)})
		}
	}
	for name := range e.databases {
		if !now[name] {
			dropped = append(dropped, name)
		}
	}
	e.databases = now
	slices.SortFunc(created, func(a, b DatabaseChange) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(dropped)
	return created, dropped
}

func characterSetOf(ctx *sql.Context, db sql.Database) string {
	if collated, ok := db.(sql.CollatedDatabase); ok {
		return collated.GetCollation(ctx).CharacterSet().String()
	}
	return sql.Collation_Default.CharacterSet().String()
}
