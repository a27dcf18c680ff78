package mysqlendpoint

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// ForSimulator is simulator.Options.Endpoints: each MySQL instance gets an endpoint on a free loopback port.
func ForSimulator(state simulator.EndpointState, beforeAccept func()) (simulator.Endpoint, error) {
	opts := Options{Settings: settingsOf(state), AllowedClients: state.AllowedClients, BeforeAccept: beforeAccept, Hostname: state.InstanceID}
	if primary, ok := state.Primary.(*simulatorEndpoint); ok {
		opts.ReadOnlyOf = primary.Endpoint
	}
	ep, err := Start(opts)
	if err != nil {
		return nil, err
	}
	se := &simulatorEndpoint{Endpoint: ep, restarts: state.Restarts, allowed: slices.Clone(state.AllowedClients)}
	if err := se.Apply(state); err != nil {
		_ = ep.Close()
		return nil, err
	}
	return se, nil
}

// simulatorEndpoint applies the simulator's view of an instance to an Endpoint.
type simulatorEndpoint struct {
	*Endpoint
	restarts int
	allowed  []string
}

func settingsOf(state simulator.EndpointState) Settings {
	return Settings{Version: state.Settings.Version, Doublewrite: state.Settings.Doublewrite, SSL: state.Settings.SSL}
}

// Apply implements simulator.Endpoint.
func (se *simulatorEndpoint) Apply(state simulator.EndpointState) error {
	var errs []error
	if state.Restarts != se.restarts {
		se.restarts = state.Restarts
		se.BeginRestart()
	}
	switch {
	case !state.Up:
		se.BeginRestart()
	case se.Restarting():
		errs = append(errs, se.EndRestart(settingsOf(state)))
	}
	if !slices.Equal(state.AllowedClients, se.allowed) {
		if err := se.SetAllowedClients(state.AllowedClients); err != nil {
			errs = append(errs, err)
		} else {
			se.allowed = slices.Clone(state.AllowedClients)
		}
	}
	errs = append(errs, se.applyDatabases(state.Access.Databases), se.applyAccounts(state.Access.Accounts))
	return errors.Join(errs...)
}

// ReportSQLChanges implements simulator.SQLReporter.
func (se *simulatorEndpoint) ReportSQLChanges(fn func(simulator.SQLChange)) {
	se.Endpoint.ReportSQLChanges(func(change Change) { fn(toSimulator(change)) })
}

func toSimulator(change Change) simulator.SQLChange {
	out := simulator.SQLChange{DroppedAccounts: change.DroppedAccounts, DroppedDatabases: change.DroppedDatabases}
	for _, a := range change.Accounts {
		privileges := map[string]string{}
		for db, p := range a.Grants {
			privileges[db] = string(p)
		}
		out.Accounts = append(out.Accounts, simulator.SQLAccount{
			Name: a.Name, PasswordHash: a.PasswordHash, Privileges: privileges, CustomPrivileges: a.CustomGrants,
		})
	}
	for _, db := range change.Databases {
		out.Databases = append(out.Databases, simulator.DatabaseAccess{Name: db.Name, CharacterSet: db.CharacterSet})
	}
	return out
}

// applyDatabases creates and drops the databases the API changed. A read-only instance's databases are its
// primary's, so its endpoint leaves them to the primary's. A database the store does not know of yet (one SQL has
// just created) is left alone: the statement's report is on its way.
func (se *simulatorEndpoint) applyDatabases(want []simulator.DatabaseAccess) error {
	if se.readOnly {
		return nil
	}
	var errs []error
	wanted := map[string]bool{}
	have := se.knownDatabases()
	for _, db := range want {
		name := strings.ToLower(db.Name)
		wanted[name] = true
		if !have[name] {
			errs = append(errs, se.CreateDatabase(name, db.CharacterSet))
		}
	}
	for name := range have {
		if !wanted[name] {
			errs = append(errs, se.DropDatabase(name))
		}
	}
	return errors.Join(errs...)
}

func (se *simulatorEndpoint) applyAccounts(want []simulator.AccountAccess) error {
	var errs []error
	wanted := map[string]bool{}
	for _, a := range want {
		wanted[a.Name] = true
		grants, err := grantsOf(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, se.putAccount(a.Name, a.PasswordHash, a.Type == "Super", grants))
	}
	for _, name := range se.accountNames() {
		if !wanted[name] {
			errs = append(errs, se.DropAccount(name))
		}
	}
	return errors.Join(errs...)
}

// grantsOf is the MySQL privileges of an account's grants: a type's, or a Custom grant's own.
func grantsOf(a simulator.AccountAccess) (map[string][]sql.PrivilegeType, error) {
	grants := map[string][]sql.PrivilegeType{}
	for db, p := range a.Privileges {
		if Privilege(p) == Custom {
			privs, err := ParsePrivilegeNames(a.CustomPrivileges[db])
			if err != nil {
				return nil, fmt.Errorf("account %q on %q: %w", a.Name, db, err)
			}
			grants[strings.ToLower(db)] = privs
			continue
		}
		if _, err := ParsePrivilege(p); err != nil {
			return nil, err
		}
		grants[strings.ToLower(db)] = grantOf(Privilege(p))
	}
	return grants, nil
}

// putAccount creates or updates an account to exactly the given hash, type and grants; an unchanged account is
// left alone.
func (e *Endpoint) putAccount(name, passwordHash string, privileged bool, grants map[string][]sql.PrivilegeType) error {
	hash, err := normalizeNativeHash(passwordHash)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a := &account{name: name, hash: hash, privileged: privileged, grants: maps.Clone(grants)}
	if a.equal(e.accounts[name]) {
		return nil
	}
	e.accounts[name] = a
	e.putUserLocked(a)
	return nil
}

func (e *Endpoint) accountNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Sorted(maps.Keys(e.accounts))
}

// knownDatabases are the databases the store knows of.
func (e *Endpoint) knownDatabases() map[string]bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.databases)
}
