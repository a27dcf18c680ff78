package mysqlendpoint

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// ForSimulator is simulator.Options.Endpoints: each MySQL instance gets an endpoint on a free loopback port.
func ForSimulator(state simulator.EndpointState, beforeAccept func()) (simulator.Endpoint, error) {
	ep, err := Start(Options{Settings: settingsOf(state), AllowedClients: state.AllowedClients, BeforeAccept: beforeAccept})
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

func (se *simulatorEndpoint) applyDatabases(want []simulator.DatabaseAccess) error {
	var errs []error
	wanted := map[string]bool{}
	have := map[string]bool{}
	for _, name := range se.Databases() {
		have[name] = true
	}
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
		grants := map[string]Privilege{}
		for db, p := range a.Privileges {
			grants[strings.ToLower(db)] = Privilege(p)
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

// putAccount creates or updates an account to exactly the given hash, type and grants; an unchanged account is
// left alone.
func (e *Endpoint) putAccount(name, passwordHash string, privileged bool, grants map[string]Privilege) error {
	hash, err := normalizeNativeHash(passwordHash)
	if err != nil {
		return err
	}
	for _, p := range grants {
		if _, err := ParsePrivilege(string(p)); err != nil {
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.accounts[name]; ok && a.hash == hash && a.privileged == privileged && maps.Equal(a.grants, grants) {
		return nil
	}
	a := &account{name: name, hash: hash, privileged: privileged, grants: maps.Clone(grants)}
	e.accounts[name] = a
	e.putUserLocked(a)
	return nil
}

func (e *Endpoint) accountNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Sorted(maps.Keys(e.accounts))
}
