package simulator

import (
	"maps"
	"slices"
	"time"
)

// The Go API over accounts, databases and privileges, for what serves an instance's data (a MySQL
// endpoint): who may log in with which password hash, and what each account may do.

// InstanceAccess is everything a login to one instance needs. A read-only instance answers with
// its primary's accounts and databases, which replicate to it.
type InstanceAccess struct {
	InstanceID    string
	Engine        string
	EngineVersion string
	Accounts      []AccountAccess  // by name
	Databases     []DatabaseAccess // by name; databases being deleted are left out
}

// AccountAccess is one account.
type AccountAccess struct {
	Name string
	// Type is "Normal" or "Super"; a Super (privileged) account has every privilege on every
	// database, so its Privileges are empty.
	Type string
	// Status is "Unavailable" for a moment after CreateAccount, then "Available".
	Status string
	// PasswordHash is the mysql_native_password hash ("*" and 40 upper-case hex digits,
	// SHA1(SHA1(password))), see NativePasswordHash. The password itself is never stored.
	PasswordHash string
	// Privileges maps a database name to "ReadWrite", "ReadOnly", "DDLOnly", "DMLOnly", or "Custom" for a
	// grant made with SQL that is none of the four.
	Privileges map[string]string
	// CustomPrivileges maps each database whose privilege is "Custom" to its MySQL privileges ("SELECT", ...).
	CustomPrivileges map[string][]string
}

// DatabaseAccess is one database.
type DatabaseAccess struct {
	Name         string
	CharacterSet string // utf8, gbk, latin1 or utf8mb4
	Status       string // "Creating" for a moment after CreateDatabase, then "Running"
}

// InstanceAccess returns the accounts and databases of an instance as they are now; ok is false
// when the instance does not exist (or is gone after its deletion).
func (s *Simulator) InstanceAccess(instanceID string) (access InstanceAccess, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cloudNow()
	if s.advance(now) {
		_ = s.saveLocked() // a failed save is retried by the next mutation; the answer is still right
	}
	in, ok := s.state.Instances[instanceID]
	if !ok {
		return InstanceAccess{}, false
	}
	return s.accessOf(in, now), true
}

// OnAccessChange registers fn to be called after every change to an instance's accounts,
// databases or privileges made through the API, once for the instance and once for each of its
// read-only instances, with the new InstanceAccess. fn runs while the simulator holds its lock,
// before the API answers, so a client that sees the answer sees fn's effect; fn must therefore
// return quickly and must not call the Simulator. A nil fn removes the hook.
func (s *Simulator) OnAccessChange(fn func(InstanceAccess)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accessHook = fn
}

// accessChanged marks the call as a state change and runs the hook for the instance and its
// read-only instances.
func (s *Simulator) accessChanged(c *call, in *instance) {
	c.dirty = true
	if s.accessHook == nil {
		return
	}
	s.accessHook(s.accessOf(in, c.now))
	for _, id := range s.state.readOnlyIDs(in.ID) {
		s.accessHook(s.accessOf(s.state.Instances[id], c.now))
	}
}

func (s *Simulator) accessOf(in *instance, now time.Time) InstanceAccess {
	src := s.replicaSource(in)
	s.pruneAccess(src, now)
	out := InstanceAccess{InstanceID: in.ID, Engine: in.Engine, EngineVersion: in.EngineVersion}
	for _, a := range sortedAccounts(src) {
		privs := map[string]string{}
		maps.Copy(privs, a.Privileges)
		custom := map[string][]string{}
		for db, names := range a.CustomPrivileges {
			custom[db] = slices.Clone(names)
		}
		out.Accounts = append(out.Accounts, AccountAccess{Name: a.Name, Type: a.Type, Status: a.status(now), PasswordHash: a.PasswordHash, Privileges: privs, CustomPrivileges: custom})
	}
	for _, db := range sortedDatabases(src) {
		if db.GoneAt.IsZero() {
			out.Databases = append(out.Databases, DatabaseAccess{Name: db.Name, CharacterSet: db.CharacterSet, Status: db.status(now)})
		}
	}
	return out
}
