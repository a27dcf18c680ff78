package mysqlendpoint

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
)

// Privilege is an Alibaba account privilege on one database, as GrantAccountPrivilege names it.
type Privilege string

const (
	ReadWrite Privilege = "ReadWrite"
	ReadOnly  Privilege = "ReadOnly"
	DDLOnly   Privilege = "DDLOnly"
	DMLOnly   Privilege = "DMLOnly"
	// Custom is how DescribeAccounts reports a grant that is none of the four types (one made with SQL).
	Custom Privilege = "Custom"
)

// databasePrivileges maps each Alibaba privilege to the MySQL privileges it grants on the database, after
// "Account permissions" (https://www.alibabacloud.com/help/en/rds/apsaradb-rds-for-mysql/account-permissions).
// The table there also lists PROCESS, REPLICATION SLAVE and REPLICATION CLIENT for every mode. Those are global
// privileges, and the endpoint leaves them out: go-mysql-server lets an account holding any global privilege USE
// every database, where MySQL refuses a database the account has no privilege on.
var databasePrivileges = map[Privilege][]sql.PrivilegeType{
	ReadOnly: {sql.PrivilegeType_Select, sql.PrivilegeType_ShowView},
	ReadWrite: {
		sql.PrivilegeType_Alter, sql.PrivilegeType_AlterRoutine, sql.PrivilegeType_Create,
		sql.PrivilegeType_CreateTempTable, sql.PrivilegeType_CreateView, sql.PrivilegeType_CreateRoutine,
		sql.PrivilegeType_Delete, sql.PrivilegeType_Drop, sql.PrivilegeType_Event, sql.PrivilegeType_Execute,
		sql.PrivilegeType_Insert, sql.PrivilegeType_Index, sql.PrivilegeType_LockTables,
		sql.PrivilegeType_References, sql.PrivilegeType_Select, sql.PrivilegeType_ShowView,
		sql.PrivilegeType_Trigger, sql.PrivilegeType_Update,
	},
	DDLOnly: {
		sql.PrivilegeType_Alter, sql.PrivilegeType_AlterRoutine, sql.PrivilegeType_Create,
		sql.PrivilegeType_CreateView, sql.PrivilegeType_CreateTempTable, sql.PrivilegeType_CreateRoutine,
		sql.PrivilegeType_Drop, sql.PrivilegeType_Index, sql.PrivilegeType_LockTables, sql.PrivilegeType_ShowView,
	},
	DMLOnly: {
		sql.PrivilegeType_CreateTempTable, sql.PrivilegeType_Delete, sql.PrivilegeType_Event,
		sql.PrivilegeType_Execute, sql.PrivilegeType_Insert, sql.PrivilegeType_LockTables, sql.PrivilegeType_Select,
		sql.PrivilegeType_ShowView, sql.PrivilegeType_Trigger, sql.PrivilegeType_Update,
	},
}

// privilegedAccountPrivileges are the global privileges of a privileged (Super) account, same source.
var privilegedAccountPrivileges = []sql.PrivilegeType{
	sql.PrivilegeType_Alter, sql.PrivilegeType_AlterRoutine, sql.PrivilegeType_Create, sql.PrivilegeType_CreateView,
	sql.PrivilegeType_CreateRoutine, sql.PrivilegeType_CreateUser, sql.PrivilegeType_CreateTempTable,
	sql.PrivilegeType_Delete, sql.PrivilegeType_Drop, sql.PrivilegeType_Event, sql.PrivilegeType_Execute,
	sql.PrivilegeType_Index, sql.PrivilegeType_Insert, sql.PrivilegeType_LockTables, sql.PrivilegeType_Process,
	sql.PrivilegeType_Reload, sql.PrivilegeType_References, sql.PrivilegeType_ReplicationSlave,
	sql.PrivilegeType_ReplicationClient, sql.PrivilegeType_Select, sql.PrivilegeType_ShowView,
	sql.PrivilegeType_Trigger, sql.PrivilegeType_Update,
}

// ParsePrivilege accepts the four MySQL privilege names of GrantAccountPrivilege.
func ParsePrivilege(name string) (Privilege, error) {
	p := Privilege(name)
	if _, ok := databasePrivileges[p]; !ok {
		return "", fmt.Errorf("privilege %q is not one of ReadWrite, ReadOnly, DDLOnly, DMLOnly", name)
	}
	return p, nil
}

// NativePasswordHash is the mysql_native_password hash of a password, SHA1(SHA1(password)), in the
// "*HEX" form of mysql.user.authentication_string.
func NativePasswordHash(password string) string {
	stage1 := sha1.Sum([]byte(password))
	stage2 := sha1.Sum(stage1[:])
	return "*" + strings.ToUpper(hex.EncodeToString(stage2[:]))
}

// normalizeNativeHash accepts SHA1(SHA1(password)) as 40 hex digits, with or without the leading "*", and returns
// the "*HEX" form the engine verifies logins against; an empty hash is an account without password.
func normalizeNativeHash(hash string) (string, error) {
	if hash == "" {
		return "", nil // an account SQL created without a password
	}
	digits := strings.TrimPrefix(hash, "*")
	raw, err := hex.DecodeString(digits)
	if err != nil || len(raw) != sha1.Size {
		return "", fmt.Errorf("password hash must be SHA1(SHA1(password)) as 40 hex digits, optionally prefixed by '*'")
	}
	return "*" + strings.ToUpper(digits), nil
}

// grantOf is the sorted MySQL privileges a privilege type grants on a database.
func grantOf(p Privilege) []sql.PrivilegeType { return sortedPrivileges(databasePrivileges[p]) }

func sortedPrivileges(ps []sql.PrivilegeType) []sql.PrivilegeType {
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

// Classify names the privilege type that grants exactly these MySQL privileges on a database, or Custom.
func Classify(ps []sql.PrivilegeType) Privilege {
	sorted := sortedPrivileges(ps)
	for _, p := range []Privilege{ReadWrite, ReadOnly, DDLOnly, DMLOnly} {
		if slices.Equal(sorted, grantOf(p)) {
			return p
		}
	}
	return Custom
}

// PrivilegeNames are the MySQL names of privileges ("SELECT", "SHOW VIEW"), sorted.
func PrivilegeNames(ps []sql.PrivilegeType) []string {
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.String())
	}
	slices.Sort(names)
	return names
}

// ParsePrivilegeNames reads MySQL privilege names, as PrivilegeNames writes them.
func ParsePrivilegeNames(names []string) ([]sql.PrivilegeType, error) {
	out := make([]sql.PrivilegeType, 0, len(names))
	for _, name := range names {
		p, ok := sql.PrivilegeTypeFromString(strings.ToUpper(strings.TrimSpace(name)))
		if !ok {
			return nil, fmt.Errorf("%q is not a MySQL privilege", name)
		}
		out = append(out, p)
	}
	return sortedPrivileges(out), nil
}

// account is the endpoint's model of one RDS account: the engine's mysql.user row is rebuilt from it on every
// change the API makes, and read back into it after every SQL statement (store.go).
type account struct {
	name       string
	hash       string
	privileged bool
	grants     map[string][]sql.PrivilegeType // database -> sorted MySQL privileges
}

func (a *account) equal(b *account) bool {
	return b != nil && a.name == b.name && a.hash == b.hash && a.privileged == b.privileged &&
		maps.EqualFunc(a.grants, b.grants, slices.Equal[[]sql.PrivilegeType])
}

func (a *account) engineUser() *mysql_db.User {
	privs := mysql_db.NewPrivilegeSet()
	if a.privileged {
		privs.AddGlobalStatic(privilegedAccountPrivileges...)
	}
	dbs := make([]string, 0, len(a.grants))
	for db := range a.grants {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	for _, db := range dbs {
		privs.AddDatabase(db, a.grants[db]...)
	}
	return &mysql_db.User{
		User:         a.name,
		Host:         "%",
		PrivilegeSet: privs,
		Plugin:       "mysql_native_password",
		AuthString:   a.hash,
	}
}
