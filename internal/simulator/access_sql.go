package simulator

import (
	"slices"
	"strings"
	"time"
)

// The instance's MySQL endpoint and the API are one store (README "One store for SQL and the API"): what SQL
// statements change in accounts, grants and databases is written here, so that DescribeAccounts and
// DescribeDatabases report it and the next change the API makes keeps it.

// SQLChange is what SQL statements on an instance's endpoint changed.
type SQLChange struct {
	// Accounts were created or changed with SQL: their password hash and database grants, whole.
	Accounts        []SQLAccount
	DroppedAccounts []string
	// Databases were created with SQL (Name and CharacterSet).
	Databases        []DatabaseAccess
	DroppedDatabases []string
}

// SQLAccount is one account as the endpoint holds it after SQL changed it.
type SQLAccount struct {
	Name         string
	PasswordHash string
	// Privileges maps a database to "ReadWrite", "ReadOnly", "DDLOnly", "DMLOnly" or "Custom".
	Privileges map[string]string
	// CustomPrivileges maps each database whose privilege is "Custom" to its MySQL privileges.
	CustomPrivileges map[string][]string
}

// SQLReporter is an Endpoint whose SQL statements change accounts, grants and databases: the simulator gives it
// the function that writes those changes into the instance's state.
type SQLReporter interface {
	ReportSQLChanges(func(SQLChange))
}

// applySQLChange writes what SQL changed on an instance into its state, then brings every endpoint (its
// read-only instances') up to date. A read-only instance refuses writes, so it has none to report.
func (s *Simulator) applySQLChange(instanceID string, change SQLChange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.state.Instances[instanceID]
	if !ok || in.MasterID != "" {
		return
	}
	now := s.cloudNow()
	s.pruneAccess(in, now)
	for _, db := range change.Databases {
		if in.Databases == nil {
			in.Databases = map[string]*database{}
		}
		in.Databases[db.Name] = &database{Name: db.Name, CharacterSet: db.CharacterSet, ReadyAt: now, Created: now}
	}
	for _, name := range change.DroppedDatabases {
		// MySQL keeps the grants of a dropped database; the store drops them as DeleteDatabase does (assumption).
		delete(in.Databases, name)
		for _, a := range in.Accounts {
			a.dropPrivilege(name)
		}
	}
	for _, a := range change.Accounts {
		s.takeSQLAccount(in, a, now)
	}
	for _, name := range change.DroppedAccounts {
		delete(in.Accounts, name)
	}
	if s.accessHook != nil {
		s.accessHook(s.accessOf(in, now))
		for _, id := range s.state.readOnlyIDs(in.ID) {
			s.accessHook(s.accessOf(s.state.Instances[id], now))
		}
	}
	s.syncEndpointsLocked(now)
	_ = s.saveLocked() // a failed save is retried by the next mutation
}

// takeSQLAccount writes one account SQL created or changed. A new one is a standard (Normal) account, Available at
// once; a privileged account keeps its type, and its grants stay "every privilege everywhere".
func (s *Simulator) takeSQLAccount(in *instance, change SQLAccount, now time.Time) {
	if in.Accounts == nil {
		in.Accounts = map[string]*account{}
	}
	a, ok := in.Accounts[change.Name]
	if !ok {
		a = &account{Name: change.Name, Type: accountNormal, AvailableAt: now, Created: now}
		in.Accounts[change.Name] = a
	}
	a.PasswordHash = change.PasswordHash
	if a.Type == accountSuper {
		return
	}
	a.Privileges, a.CustomPrivileges = nil, nil
	for _, db := range sortedKeys(change.Privileges) {
		name := strings.ToLower(db)
		if change.Privileges[db] != privilegeCustom {
			a.setPrivilege(name, change.Privileges[db])
			continue
		}
		a.setPrivilege(name, privilegeCustom)
		if a.CustomPrivileges == nil {
			a.CustomPrivileges = map[string][]string{}
		}
		a.CustomPrivileges[name] = slices.Clone(change.CustomPrivileges[db])
	}
}
