package simulator

import (
	"crypto/sha1" //nolint:gosec // mysql_native_password is SHA1(SHA1(password)) by definition
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Accounts, databases and privileges (README "Accounts and databases"). Every rule here is the
// simulator's own reading of Alibaba's documentation; the provider's rules live in rdsservice.

// Account types (AccountType), statuses (AccountStatus) and database statuses (DBStatus).
const (
	accountNormal          = "Normal"
	accountSuper           = "Super"
	accountAvailable       = "Available"
	accountUnavailable     = "Unavailable"
	databaseCreating       = "Creating"
	databaseRunning        = "Running"
	databaseDeleting       = "Deleting"
	privilegeReadWrite     = "ReadWrite"
	privilegeReadOnly      = "ReadOnly"
	privilegeDDLOnly       = "DDLOnly"
	privilegeDMLOnly       = "DMLOnly"
	privilegeCustom        = "Custom"
	passwordSpecials       = "!@#$%^&*()_+-="
	maxDescriptionRunes    = 256
	defaultAccountPageSize = 30
)

var privileges = []string{privilegeReadWrite, privilegeReadOnly, privilegeDDLOnly, privilegeDMLOnly}

// privilegeDetail is AccountPrivilegeDetail: the MySQL privileges each type grants on its database, as the
// endpoint grants them ("Account permissions", README [7], without its global PROCESS and REPLICATION ones).
var privilegeDetail = map[string]string{
	privilegeReadWrite: "SELECT,INSERT,UPDATE,DELETE,CREATE,DROP,REFERENCES,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,EXECUTE,CREATE VIEW,SHOW VIEW,CREATE ROUTINE,ALTER ROUTINE,EVENT,TRIGGER",
	privilegeReadOnly:  "SELECT,SHOW VIEW",
	privilegeDDLOnly:   "CREATE,DROP,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,CREATE VIEW,SHOW VIEW,CREATE ROUTINE,ALTER ROUTINE",
	privilegeDMLOnly:   "SELECT,INSERT,UPDATE,DELETE,CREATE TEMPORARY TABLES,LOCK TABLES,EXECUTE,SHOW VIEW,EVENT,TRIGGER",
}

// Character sets CreateDatabase accepts for MySQL and MariaDB.
var characterSets = []string{"utf8", "gbk", "latin1", "utf8mb4"}

// Reserved names (InvalidAccountName.Forbid; a database gets InvalidDBName.Format).
var (
	reservedAccountNames  = []string{"admin", "administrator", "aurora", "dbo", "information_schema", "login", "mysql", "performance_schema", "replicator", "root", "sys"}
	reservedDatabaseNames = []string{"information_schema", "mysql", "performance_schema", "sys"}
)

var (
	mysqlAccountName = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_]*[A-Za-z0-9])?$`)
	lowerAccountName = regexp.MustCompile(`^[a-z]([a-z0-9_]*[a-z0-9])?$`)
	databaseName     = regexp.MustCompile(`^[a-z]([a-z0-9_-]*[a-z0-9])?$`)
)

// account is one database account. The password is kept only as its mysql_native_password hash.
type account struct {
	Name         string `json:"name"`
	Type         string `json:"type"`
	Description  string `json:"description,omitempty"`
	PasswordHash string `json:"password_hash"`
	// AvailableAt ends the Unavailable status of a new account.
	AvailableAt time.Time `json:"available_at"`
	// Privileges maps a database name to ReadWrite, ReadOnly, DDLOnly, DMLOnly, or Custom for a grant made with
	// SQL that is none of the four (access_sql.go).
	Privileges map[string]string `json:"privileges,omitempty"`
	// CustomPrivileges maps each database whose privilege is Custom to its MySQL privileges.
	CustomPrivileges map[string][]string `json:"custom_privileges,omitempty"`
	Created          time.Time           `json:"created"`
}

// setPrivilege gives the account one of the four privilege types on a database.
func (a *account) setPrivilege(db, privilege string) {
	if a.Privileges == nil {
		a.Privileges = map[string]string{}
	}
	a.Privileges[db] = privilege
	delete(a.CustomPrivileges, db)
}

// dropPrivilege removes the account's privilege on a database.
func (a *account) dropPrivilege(db string) {
	delete(a.Privileges, db)
	delete(a.CustomPrivileges, db)
}

// privilegeDetail is AccountPrivilegeDetail of the account's grant on a database.
func (a *account) privilegeDetail(db string) string {
	if a.Privileges[db] == privilegeCustom {
		return strings.Join(a.CustomPrivileges[db], ",")
	}
	return privilegeDetail[a.Privileges[db]]
}

// database is one database; ReadyAt ends Creating, GoneAt (when set) ends Deleting with removal.
type database struct {
	Name         string    `json:"name"`
	CharacterSet string    `json:"character_set"`
	Description  string    `json:"description,omitempty"`
	ReadyAt      time.Time `json:"ready_at"`
	GoneAt       time.Time `json:"gone_at,omitempty"`
	Created      time.Time `json:"created"`
}

func (a *account) status(now time.Time) string {
	if now.Before(a.AvailableAt) {
		return accountUnavailable
	}
	return accountAvailable
}

func (d *database) status(now time.Time) string {
	switch {
	case !d.GoneAt.IsZero():
		return databaseDeleting
	case now.Before(d.ReadyAt):
		return databaseCreating
	}
	return databaseRunning
}

// NativePasswordHash is MySQL's mysql_native_password form of a password: "*" and the upper-case
// hex of SHA1(SHA1(password)). It verifies a native-password handshake without the password.
func NativePasswordHash(password string) string {
	first := sha1.Sum([]byte(password)) //nolint:gosec // the MySQL definition
	second := sha1.Sum(first[:])        //nolint:gosec // the MySQL definition
	return "*" + strings.ToUpper(hex.EncodeToString(second[:]))
}

// ---- errors ----

func errInstanceState(in *instance) *apiError {
	return newErr(403, "IncorrectDBInstanceState", "Current DB instance state does not support this operation: %s is %s, not Running.", in.ID, in.Status)
}

func errAccountNotFound(in *instance, name string) *apiError {
	return newErr(400, "InvalidAccountName.NotFound", "Specified account name %q does not exist in instance %s.", truncate(name), in.ID)
}

func errDatabaseNotFound(in *instance, name string) *apiError {
	return newErr(400, "InvalidDBName.NotFound", "Specified DB name %q does not exist in instance %s.", truncate(name), in.ID)
}

// ---- lookups and preconditions ----

// accessTarget finds the instance of an account or database action. A read-only instance holds
// its primary's accounts and databases (they replicate), so writes to it are refused.
func (s *Simulator) accessTarget(c *call, write bool) (*instance, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if in.Engine != "MySQL" && in.Engine != "MariaDB" {
		return nil, newErr(400, "InvalidDBInstanceEngineType.Format", "The DB instance engine type does not support this operation: the simulator models accounts and databases for MySQL and MariaDB, not %s.", in.Engine)
	}
	if !write {
		return in, nil
	}
	if in.MasterID != "" {
		return nil, newErr(403, "IncorrectDBInstanceType", "Current DB instance type does not support this operation: %s is a read-only instance; manage accounts and databases on its primary %s.", in.ID, in.MasterID)
	}
	if in.Status != statusRunning {
		return nil, errInstanceState(in)
	}
	if in.lockMode() != lockUnlocked {
		return nil, in.writable("account or database write") // locked: IncorrectDBInstanceLockMode
	}
	s.pruneAccess(in, c.now)
	return in, nil
}

// replicaSource is the instance whose accounts and databases a read answers with.
func (s *Simulator) replicaSource(in *instance) *instance {
	if in.MasterID != "" {
		if primary, ok := s.state.Instances[in.MasterID]; ok {
			return primary
		}
	}
	return in
}

// pruneAccess removes databases whose Deleting status has ended.
func (s *Simulator) pruneAccess(in *instance, now time.Time) {
	for name, db := range in.Databases {
		if !db.GoneAt.IsZero() && !now.Before(db.GoneAt) {
			delete(in.Databases, name)
		}
	}
}

func (s *Simulator) findAccount(in *instance, p params) (*account, *apiError) {
	name, e := p.required("AccountName")
	if e != nil {
		return nil, e
	}
	a, ok := in.Accounts[name]
	if !ok {
		return nil, errAccountNotFound(in, name)
	}
	return a, nil
}

// liveDatabase finds a database that is not being deleted.
func liveDatabase(in *instance, name string) (*database, *apiError) {
	db, ok := in.Databases[name]
	if !ok || !db.GoneAt.IsZero() {
		return nil, errDatabaseNotFound(in, name)
	}
	return db, nil
}

// ---- validation ----

// maxAccountNameLength: 32 for MySQL 5.7 and later, 16 for MySQL 5.6 and older and for MariaDB.
func maxAccountNameLength(in *instance) int {
	if in.Engine == "MySQL" && in.EngineVersion != "5.5" && in.EngineVersion != "5.6" {
		return 32
	}
	return 16
}

func validateAccountName(in *instance, name string) *apiError {
	pattern := lowerAccountName
	if in.Engine == "MySQL" {
		pattern = mysqlAccountName
	}
	if n := len(name); n < 2 || n > maxAccountNameLength(in) || !pattern.MatchString(name) {
		return newErr(400, "InvalidAccountName.Format", "Specified account name %q is not valid: 2 to %d letters, digits and underscores, starting with a letter and ending with a letter or digit.", truncate(name), maxAccountNameLength(in))
	}
	if slices.Contains(reservedAccountNames, strings.ToLower(name)) {
		return newErr(400, "InvalidAccountName.Forbid", "Specified account name %q is a keyword in RDS.", name)
	}
	return nil
}

// validatePassword never quotes the password.
func validatePassword(pw string) *apiError {
	bad := newErr(400, "InvalidAccountPassword.Format", "Specified account password is not valid: 8 to 32 characters with at least three of upper-case letters, lower-case letters, digits and the special characters %s.", passwordSpecials)
	if len(pw) < 8 || len(pw) > 32 {
		return bad
	}
	var upper, lower, digit, special bool
	for _, r := range pw {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune(passwordSpecials, r):
			special = true
		default:
			return bad
		}
	}
	classes := 0
	for _, has := range []bool{upper, lower, digit, special} {
		if has {
			classes++
		}
	}
	if classes < 3 {
		return bad
	}
	return nil
}

// validAccessDescription: 2-256 characters, starting with a letter, not a URL.
func validAccessDescription(d string) bool {
	runes := []rune(d)
	return len(runes) >= 2 && len(runes) <= maxDescriptionRunes && unicode.IsLetter(runes[0]) &&
		!strings.HasPrefix(d, "http://") && !strings.HasPrefix(d, "https://")
}

func optionalDescription(p params, name, code string) (string, *apiError) {
	d := p.get(name)
	if d != "" && !validAccessDescription(d) {
		return "", newErr(400, code, "Specified %s is not valid: 2 to 256 characters, starting with a letter, not starting with http:// or https://.", name)
	}
	return d, nil
}

func validateDatabaseName(name string) *apiError {
	if n := len(name); n < 2 || n > 64 || !databaseName.MatchString(name) {
		return newErr(400, "InvalidDBName.Format", "Specified DB name %q is not valid: 2 to 64 lower-case letters, digits, underscores and hyphens, starting with a letter and ending with a letter or digit.", truncate(name))
	}
	if slices.Contains(reservedDatabaseNames, name) {
		return newErr(400, "InvalidDBName.Format", "Specified DB name %q is not valid: it is a reserved keyword in RDS.", name)
	}
	return nil
}

// ---- accounts ----

// createAccount: CreateAccount. The account is Unavailable for AccountDuration, then Available.
func (s *Simulator) createAccount(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, false)
	if e != nil {
		return nil, e
	}
	name, e := c.p.required("AccountName")
	if e != nil {
		return nil, e
	}
	if e := validateAccountName(in, name); e != nil {
		return nil, e
	}
	pw, e := c.p.required("AccountPassword")
	if e != nil {
		return nil, e
	}
	if e := validatePassword(c.p.get("AccountPassword")); e != nil {
		return nil, e
	}
	description, e := optionalDescription(c.p, "AccountDescription", "InvalidAccountDescription.Format")
	if e != nil {
		return nil, e
	}
	kind, e := c.p.oneOf("AccountType", accountNormal, accountNormal, accountSuper)
	if e != nil {
		return nil, e
	}
	if in, e = s.accessTarget(c, true); e != nil {
		return nil, e
	}
	for _, other := range in.Accounts {
		if other.Name == name || (strings.EqualFold(other.Name, name) && (other.Type == accountSuper || kind == accountSuper)) {
			return nil, newErr(400, "InvalidAccountName.Duplicate", "Specified account name %q already exists in this instance (as %q).", name, other.Name)
		}
		if kind == accountSuper && other.Type == accountSuper {
			return nil, newErr(403, "IncorrectAccountType", "Current account type does not support this operation: instance %s already has the privileged account %q, and an instance has at most one.", in.ID, other.Name)
		}
	}
	if in.Accounts == nil {
		in.Accounts = map[string]*account{}
	}
	in.Accounts[name] = &account{
		Name: name, Type: kind, Description: description, PasswordHash: NativePasswordHash(pw),
		AvailableAt: c.now.Add(s.opts.AccountDuration), Created: c.now,
	}
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// describeAccounts: DescribeAccounts, optionally for one AccountName, paged by PageSize (30-200)
// and PageNumber.
func (s *Simulator) describeAccounts(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, false)
	if e != nil {
		return nil, e
	}
	size, number, e := pageParams(c.p, 30, 200)
	if e != nil {
		return nil, e
	}
	src := s.replicaSource(in)
	s.pruneAccess(src, c.now)
	only := strings.TrimSpace(c.p.get("AccountName"))
	var items []map[string]any
	for _, a := range sortedAccounts(src) {
		if only != "" && a.Name != only {
			continue
		}
		privs := []map[string]any{}
		for _, db := range sortedKeys(a.Privileges) {
			privs = append(privs, map[string]any{"DBName": db, "AccountPrivilege": a.Privileges[db], "AccountPrivilegeDetail": a.privilegeDetail(db)})
		}
		items = append(items, map[string]any{
			"DBInstanceId": in.ID, "AccountName": a.Name, "AccountStatus": a.status(c.now), "AccountType": a.Type,
			"AccountDescription": a.Description, "PrivExceeded": "0",
			"DatabasePrivileges": map[string]any{"DatabasePrivilege": privs},
		})
	}
	page := pageOf(items, size, number)
	return map[string]any{
		"Accounts": map[string]any{"DBInstanceAccount": page}, "PageNumber": number, "TotalRecordCount": len(items),
	}, nil
}

// resetAccountPassword: ResetAccountPassword.
func (s *Simulator) resetAccountPassword(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, e
	}
	a, e := s.findAccount(in, c.p)
	if e != nil {
		return nil, e
	}
	pw, e := c.p.required("AccountPassword")
	if e != nil {
		return nil, e
	}
	if e := validatePassword(c.p.get("AccountPassword")); e != nil {
		return nil, e
	}
	a.PasswordHash = NativePasswordHash(pw)
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// modifyAccountDescription: ModifyAccountDescription.
func (s *Simulator) modifyAccountDescription(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, e
	}
	a, e := s.findAccount(in, c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("AccountDescription"); e != nil {
		return nil, e
	}
	d, e := optionalDescription(c.p, "AccountDescription", "InvalidAccountDescription.Format")
	if e != nil {
		return nil, e
	}
	a.Description = d
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// deleteAccount: DeleteAccount; the account's grants go with it.
func (s *Simulator) deleteAccount(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, e
	}
	a, e := s.findAccount(in, c.p)
	if e != nil {
		return nil, e
	}
	delete(in.Accounts, a.Name)
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// ---- databases ----

// createDatabase: CreateDatabase. The database is Creating for AccountDuration, then Running.
func (s *Simulator) createDatabase(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, false)
	if e != nil {
		return nil, e
	}
	name, e := c.p.required("DBName")
	if e != nil {
		return nil, e
	}
	if e := validateDatabaseName(name); e != nil {
		return nil, e
	}
	charset, e := c.p.required("CharacterSetName")
	if e != nil {
		return nil, e
	}
	if !slices.Contains(characterSets, charset) {
		return nil, newErr(400, "InvalidCharacterSetName.Format", "Specified character set %q is not valid for %s: use one of %s.", truncate(charset), in.Engine, strings.Join(characterSets, ", "))
	}
	description, e := optionalDescription(c.p, "DBDescription", "InvalidDBDescription.Format")
	if e != nil {
		return nil, e
	}
	if in, e = s.accessTarget(c, true); e != nil {
		return nil, e
	}
	if _, exists := in.Databases[name]; exists {
		return nil, newErr(400, "InvalidDBName.Duplicate", "Specified DB name %q already exists in the instance %s.", name, in.ID)
	}
	if in.Databases == nil {
		in.Databases = map[string]*database{}
	}
	in.Databases[name] = &database{Name: name, CharacterSet: charset, Description: description, ReadyAt: c.now.Add(s.opts.AccountDuration), Created: c.now}
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// describeDatabases: DescribeDatabases, optionally for one DBName or one DBStatus, paged by
// PageSize (1-100) and PageNumber.
func (s *Simulator) describeDatabases(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, false)
	if e != nil {
		return nil, e
	}
	size, number, e := pageParams(c.p, 1, 100)
	if e != nil {
		return nil, e
	}
	status, e := c.p.oneOf("DBStatus", "", databaseCreating, databaseRunning, databaseDeleting)
	if e != nil {
		return nil, e
	}
	src := s.replicaSource(in)
	s.pruneAccess(src, c.now)
	only := strings.TrimSpace(c.p.get("DBName"))
	var items []map[string]any
	for _, db := range sortedDatabases(src) {
		if (only != "" && db.Name != only) || (status != "" && db.status(c.now) != status) {
			continue
		}
		grants := []map[string]any{}
		for _, a := range sortedAccounts(src) {
			if priv, ok := a.Privileges[db.Name]; ok {
				grants = append(grants, map[string]any{"Account": a.Name, "AccountPrivilege": priv, "AccountPrivilegeDetail": a.privilegeDetail(db.Name)})
			}
		}
		items = append(items, map[string]any{
			"DBInstanceId": in.ID, "DBName": db.Name, "DBStatus": db.status(c.now), "Engine": src.Engine,
			"CharacterSetName": db.CharacterSet, "DBDescription": db.Description,
			"Accounts": map[string]any{"AccountPrivilegeInfo": grants},
		})
	}
	page := pageOf(items, size, number)
	return map[string]any{
		"Databases": map[string]any{"Database": page}, "PageNumber": number, "PageRecordCount": len(page), "TotalRecordCount": len(items),
	}, nil
}

// modifyDBDescription: ModifyDBDescription.
func (s *Simulator) modifyDBDescription(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, e
	}
	name, e := c.p.required("DBName")
	if e != nil {
		return nil, e
	}
	db, e := liveDatabase(in, name)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("DBDescription"); e != nil {
		return nil, e
	}
	d, e := optionalDescription(c.p, "DBDescription", "InvalidDBDescription.Format")
	if e != nil {
		return nil, e
	}
	db.Description = d
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// deleteDatabase: DeleteDatabase. The database is Deleting for AccountDuration, then gone; its
// grants end at once.
func (s *Simulator) deleteDatabase(c *call) (map[string]any, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, e
	}
	name, e := c.p.required("DBName")
	if e != nil {
		return nil, e
	}
	db, e := liveDatabase(in, name)
	if e != nil {
		return nil, e
	}
	for _, a := range in.Accounts {
		a.dropPrivilege(name)
	}
	db.GoneAt = c.now.Add(s.opts.AccountDuration)
	s.recordDeleted(in.ID, DeletedDatabase, name)
	s.pruneAccess(in, c.now)
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// ---- privileges ----

// grantAccountPrivilege: GrantAccountPrivilege with DBName "a,b" and AccountPrivilege
// "ReadWrite,ReadOnly" (one privilege per database). A privileged account has every privilege
// already and cannot be granted any.
func (s *Simulator) grantAccountPrivilege(c *call) (map[string]any, *apiError) {
	in, a, dbs, e := s.privilegeTarget(c)
	if e != nil {
		return nil, e
	}
	raw, e := c.p.required("AccountPrivilege")
	if e != nil {
		return nil, e
	}
	privs := strings.Split(raw, ",")
	if len(privs) != len(dbs) {
		return nil, newErr(400, "InvalidAccountPrivilege.Malformed", "Specified account privilege is not valid: %d privileges for %d databases; give one per database.", len(privs), len(dbs))
	}
	for i, priv := range privs {
		canonical := ""
		for _, known := range privileges {
			if strings.EqualFold(strings.TrimSpace(priv), known) {
				canonical = known
			}
		}
		if canonical == "" {
			return nil, newErr(400, "InvalidAccountPrivilege.Malformed", "Specified account privilege %q is not valid: use %s.", truncate(priv), strings.Join(privileges, ", "))
		}
		privs[i] = canonical
	}
	for i, db := range dbs {
		a.setPrivilege(db, privs[i])
	}
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// revokeAccountPrivilege: RevokeAccountPrivilege for DBName "a,b". Revoking from a database the
// account has no privilege on is accepted and changes nothing.
func (s *Simulator) revokeAccountPrivilege(c *call) (map[string]any, *apiError) {
	in, a, dbs, e := s.privilegeTarget(c)
	if e != nil {
		return nil, e
	}
	for _, db := range dbs {
		a.dropPrivilege(db)
	}
	s.accessChanged(c, in)
	return map[string]any{}, nil
}

// privilegeTarget reads the instance, the (standard) account and the databases of a grant or revoke.
func (s *Simulator) privilegeTarget(c *call) (*instance, *account, []string, *apiError) {
	in, e := s.accessTarget(c, true)
	if e != nil {
		return nil, nil, nil, e
	}
	a, e := s.findAccount(in, c.p)
	if e != nil {
		return nil, nil, nil, e
	}
	if a.Type == accountSuper {
		return nil, nil, nil, newErr(403, "IncorrectAccountType", "Current account type does not support this operation: %q is the privileged account, which has every privilege on every database.", a.Name)
	}
	raw, e := c.p.required("DBName")
	if e != nil {
		return nil, nil, nil, e
	}
	var dbs []string
	for _, name := range strings.Split(raw, ",") {
		name = strings.TrimSpace(name)
		if _, e := liveDatabase(in, name); e != nil {
			return nil, nil, nil, e
		}
		if !slices.Contains(dbs, name) {
			dbs = append(dbs, name)
		}
	}
	return in, a, dbs, nil
}

// ---- helpers ----

func sortedAccounts(in *instance) []*account {
	out := make([]*account, 0, len(in.Accounts))
	for _, name := range sortedKeys(in.Accounts) {
		out = append(out, in.Accounts[name])
	}
	return out
}

func sortedDatabases(in *instance) []*database {
	out := make([]*database, 0, len(in.Databases))
	for _, name := range sortedKeys(in.Databases) {
		out = append(out, in.Databases[name])
	}
	return out
}

// pageParams reads PageSize (lo-hi, default 30) and PageNumber (default 1).
func pageParams(p params, lo, hi int64) (size, number int64, e *apiError) {
	size, set, e := p.integer("PageSize")
	if e != nil {
		return 0, 0, e
	}
	if !set {
		size = defaultAccountPageSize
	} else if size < lo || size > hi {
		return 0, 0, errInvalid("PageSize", "%d is outside %d-%d", size, lo, hi)
	}
	number, set, e = p.integer("PageNumber")
	if e != nil {
		return 0, 0, e
	}
	if !set {
		number = 1
	} else if number < 1 {
		return 0, 0, errInvalid("PageNumber", "%d is not a positive integer", number)
	}
	return size, number, nil
}

func pageOf(items []map[string]any, size, number int64) []map[string]any {
	out := []map[string]any{}
	start := (number - 1) * size
	if start >= int64(len(items)) || start < 0 {
		return out
	}
	return append(out, items[start:min(start+size, int64(len(items)))]...)
}
