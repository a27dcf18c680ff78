package rdsservice

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The rules of rds_account, rds_database and rds_account_privilege, as one table of rows: rule,
// attribute, check, message, fix. The provider evaluates them at plan time (and again before the
// first write when the plan could not know the instance), so a bad value costs no API write.
// Sources: internal/simulator/README.md, "Accounts and databases".

// Terraform attribute names the access rules point at.
const (
	AttrInstanceID        = "instance_id"
	AttrName              = "name"
	AttrType              = "type"
	AttrDescription       = "description"
	AttrPassword          = "password_wo"
	AttrCharacterSet      = "character_set"
	AttrAccountName       = "account_name"
	AttrPrivilege         = "privilege"
	AttrDBNames           = "db_names"
	hiddenValue           = "(sensitive value)"
	accessDescriptionMax  = 256
	accountNameMaxDefault = 32
)

// AccessKind says which resource a rule belongs to.
type AccessKind int

const (
	KindAccount AccessKind = iota
	KindDatabase
	KindPrivilege
)

// AccessFacts is what the access rules decide on. Instance facts are zero when the plan cannot
// know them yet (InstanceKnown false); the rules that need them then wait for the apply.
type AccessFacts struct {
	InstanceKnown bool
	InstanceID    string
	Engine        string
	EngineVersion string
	ReadOnly      bool // the instance is a read-only instance
	// Account (rds_account) or grantee (rds_account_privilege).
	AccountName        string
	AccountType        string // Normal or Super; for a grantee, as the cloud reports it ("" unknown)
	AccountDescription string
	Password           string
	PasswordKnown      bool
	// OtherSuper is another privileged account already on the instance ("" none or unknown).
	OtherSuper string
	// Database (rds_database).
	DBName        string
	CharacterSet  string
	DBDescription string
	// Privilege (rds_account_privilege).
	Privilege string
}

// AccessRule is one row of the table.
type AccessRule struct {
	Rule      string
	Kind      AccessKind
	Attribute string
	// Value is the offending value as shown to the user.
	Value func(AccessFacts) string
	// Broken reports whether the facts break the rule; it must be false when a fact it needs is
	// unknown.
	Broken func(AccessFacts) bool
	// Message states the rule; {max} is replaced by MaxAccountNameLength.
	Message string
	Fix     string
}

// Character sets and privileges the cloud offers (per engine for character sets).
var (
	CharacterSets = map[string][]string{
		"MySQL":   {"utf8", "gbk", "latin1", "utf8mb4"},
		"MariaDB": {"utf8", "gbk", "latin1", "utf8mb4"},
	}
	AccountPrivileges = []string{rdsapi.PrivilegeReadWrite, rdsapi.PrivilegeReadOnly, rdsapi.PrivilegeDDLOnly, rdsapi.PrivilegeDMLOnly}
	AccountTypes      = []string{rdsapi.AccountTypeNormal, rdsapi.AccountTypeSuper}
	// ReservedAccountNames and ReservedDatabaseNames are refused in any case.
	ReservedAccountNames  = []string{"admin", "administrator", "aurora", "dbo", "information_schema", "login", "mysql", "performance_schema", "replicator", "root", "sys"}
	ReservedDatabaseNames = []string{"information_schema", "mysql", "performance_schema", "sys"}
	PasswordSpecials      = "!@#$%^&*()_+-="
)

var (
	accountNameChars  = regexp.MustCompile(`^[A-Za-z0-9_]*$`)
	lowerNameChars    = regexp.MustCompile(`^[a-z0-9_]*$`)
	databaseNameChars = regexp.MustCompile(`^[a-z0-9_-]*$`)
)

// MaxAccountNameLength is 32 on MySQL 5.7 and later (and while the instance is unknown), 16 on
// MySQL 5.5/5.6 and MariaDB.
func MaxAccountNameLength(f AccessFacts) int {
	if !f.InstanceKnown {
		return accountNameMaxDefault
	}
	if isMySQL(f.Engine) && f.EngineVersion != "5.5" && f.EngineVersion != "5.6" {
		return accountNameMaxDefault
	}
	return 16
}

func accountName(f AccessFacts) string  { return f.AccountName }
func databaseName(f AccessFacts) string { return f.DBName }
func hidden(AccessFacts) string         { return hiddenValue }
func firstIsLetter(s string) bool       { return s != "" && isASCIILetter(rune(s[0])) }
func lastIsLetterOrDigit(s string) bool {
	if s == "" {
		return false
	}
	r := rune(s[len(s)-1])
	return isASCIILetter(r) || (r >= '0' && r <= '9')
}
func isASCIILetter(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

func engineSupported(f AccessFacts) bool {
	_, ok := CharacterSets[canonicalAccessEngine(f.Engine)]
	return ok
}

func canonicalAccessEngine(engine string) string {
	for known := range CharacterSets {
		if strings.EqualFold(strings.TrimSpace(engine), known) {
			return known
		}
	}
	return engine
}

func badDescription(d string) bool {
	if d == "" {
		return false
	}
	runes := []rune(d)
	return len(runes) < 2 || len(runes) > accessDescriptionMax || !unicode.IsLetter(runes[0]) ||
		strings.HasPrefix(d, "http://") || strings.HasPrefix(d, "https://")
}

func passwordClasses(pw string) (classes int, foreign bool) {
	var upper, lower, digit, special bool
	for _, r := range pw {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune(PasswordSpecials, r):
			special = true
		default:
			foreign = true
		}
	}
	for _, has := range []bool{upper, lower, digit, special} {
		if has {
			classes++
		}
	}
	return classes, foreign
}

const descriptionRule = "must be 2 to 256 characters, start with a letter, and not start with http:// or https://"

// AccessRules is the table.
var AccessRules = []AccessRule{
	// ---- where accounts and databases can live (every kind) ----
	{Rule: "access-engine", Kind: KindAccount, Attribute: AttrInstanceID, Value: instanceEngine,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && !engineSupported(f) },
		Message: "accounts are managed by this provider on MySQL and MariaDB instances only",
		Fix:     "point instance_id at a MySQL or MariaDB instance"},
	{Rule: "access-engine", Kind: KindDatabase, Attribute: AttrInstanceID, Value: instanceEngine,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && !engineSupported(f) },
		Message: "databases are managed by this provider on MySQL and MariaDB instances only",
		Fix:     "point instance_id at a MySQL or MariaDB instance"},
	{Rule: "access-engine", Kind: KindPrivilege, Attribute: AttrInstanceID, Value: instanceEngine,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && !engineSupported(f) },
		Message: "privileges are managed by this provider on MySQL and MariaDB instances only",
		Fix:     "point instance_id at a MySQL or MariaDB instance"},
	{Rule: "access-read-only", Kind: KindAccount, Attribute: AttrInstanceID, Value: instanceID,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && f.ReadOnly },
		Message: "is a read-only instance: no account of any type (Normal or Super) can be created on it; accounts replicate from the primary",
		Fix:     "set instance_id to the primary instance (rds_readonly_instance.<name>.primary_instance_id); the account then exists on the read-only instance too"},
	{Rule: "access-read-only", Kind: KindDatabase, Attribute: AttrInstanceID, Value: instanceID,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && f.ReadOnly },
		Message: "is a read-only instance: databases replicate from the primary and cannot be created on it",
		Fix:     "set instance_id to the primary instance; the database then exists on the read-only instance too"},
	{Rule: "access-read-only", Kind: KindPrivilege, Attribute: AttrInstanceID, Value: instanceID,
		Broken:  func(f AccessFacts) bool { return f.InstanceKnown && f.ReadOnly },
		Message: "is a read-only instance: privileges replicate from the primary and cannot be granted on it",
		Fix:     "set instance_id to the primary instance"},

	// ---- rds_account ----
	{Rule: "account-name-length", Kind: KindAccount, Attribute: AttrName, Value: accountName,
		Broken: func(f AccessFacts) bool {
			return len(f.AccountName) < 2 || len(f.AccountName) > MaxAccountNameLength(f)
		},
		Message: "must be 2 to {max} characters long (32 on MySQL 5.7 and later, 16 on MySQL 5.5/5.6 and MariaDB)",
		Fix:     "choose a name of 2 to {max} characters"},
	{Rule: "account-name-characters", Kind: KindAccount, Attribute: AttrName, Value: accountName,
		Broken: func(f AccessFacts) bool {
			if f.InstanceKnown && !isMySQL(f.Engine) {
				return !lowerNameChars.MatchString(f.AccountName)
			}
			return !accountNameChars.MatchString(f.AccountName)
		},
		Message: "may contain only letters, digits and underscores (upper-case letters only on MySQL)",
		Fix:     "remove other characters, e.g. replace hyphens with underscores"},
	{Rule: "account-name-first", Kind: KindAccount, Attribute: AttrName, Value: accountName,
		Broken:  func(f AccessFacts) bool { return f.AccountName != "" && !firstIsLetter(f.AccountName) },
		Message: "must start with a letter",
		Fix:     "start the name with a letter, e.g. app_" + "<name>"},
	{Rule: "account-name-last", Kind: KindAccount, Attribute: AttrName, Value: accountName,
		Broken:  func(f AccessFacts) bool { return f.AccountName != "" && !lastIsLetterOrDigit(f.AccountName) },
		Message: "must end with a letter or a digit",
		Fix:     "remove the trailing underscore"},
	{Rule: "account-name-reserved", Kind: KindAccount, Attribute: AttrName, Value: accountName,
		Broken:  func(f AccessFacts) bool { return contains(ReservedAccountNames, strings.ToLower(f.AccountName)) },
		Message: "is a name RDS reserves (" + strings.Join(ReservedAccountNames, ", ") + ")",
		Fix:     "choose another name, e.g. app_admin"},
	{Rule: "account-type", Kind: KindAccount, Attribute: AttrType, Value: func(f AccessFacts) string { return f.AccountType },
		Broken:  func(f AccessFacts) bool { return !contains(AccountTypes, f.AccountType) },
		Message: "must be Normal (a standard account) or Super (the privileged account)",
		Fix:     "set type = \"Normal\" or type = \"Super\""},
	{Rule: "account-one-super", Kind: KindAccount, Attribute: AttrType, Value: func(f AccessFacts) string { return f.AccountType },
		Broken: func(f AccessFacts) bool {
			return f.AccountType == rdsapi.AccountTypeSuper && f.OtherSuper != "" && f.OtherSuper != f.AccountName
		},
		Message: "an instance has at most one privileged (Super) account, and this instance already has one",
		Fix:     "set type = \"Normal\" and grant it privileges with rds_account_privilege, or manage the existing privileged account instead (terraform import rds_account.<name> <instance_id>:<its name>)"},
	{Rule: "account-description", Kind: KindAccount, Attribute: AttrDescription, Value: func(f AccessFacts) string { return f.AccountDescription },
		Broken:  func(f AccessFacts) bool { return badDescription(f.AccountDescription) },
		Message: descriptionRule,
		Fix:     "write a description that starts with a letter, e.g. \"Application account\""},
	{Rule: "password-length", Kind: KindAccount, Attribute: AttrPassword, Value: hidden,
		Broken:  func(f AccessFacts) bool { return f.PasswordKnown && (len(f.Password) < 8 || len(f.Password) > 32) },
		Message: "must be 8 to 32 characters long",
		Fix:     "use a password of 8 to 32 characters"},
	{Rule: "password-characters", Kind: KindAccount, Attribute: AttrPassword, Value: hidden,
		Broken: func(f AccessFacts) bool {
			_, foreign := passwordClasses(f.Password)
			return f.PasswordKnown && foreign
		},
		Message: "may contain only letters, digits and the special characters " + PasswordSpecials,
		Fix:     "remove other characters (spaces, quotes, non-ASCII letters)"},
	{Rule: "password-classes", Kind: KindAccount, Attribute: AttrPassword, Value: hidden,
		Broken: func(f AccessFacts) bool {
			classes, _ := passwordClasses(f.Password)
			return f.PasswordKnown && classes < 3
		},
		Message: "must contain at least three of: upper-case letters, lower-case letters, digits, special characters (" + PasswordSpecials + ")",
		Fix:     "add characters of the missing kinds, e.g. an upper-case letter and a digit"},

	// ---- rds_database ----
	{Rule: "database-name-length", Kind: KindDatabase, Attribute: AttrName, Value: databaseName,
		Broken:  func(f AccessFacts) bool { return len(f.DBName) < 2 || len(f.DBName) > 64 },
		Message: "must be 2 to 64 characters long",
		Fix:     "choose a name of 2 to 64 characters"},
	{Rule: "database-name-characters", Kind: KindDatabase, Attribute: AttrName, Value: databaseName,
		Broken:  func(f AccessFacts) bool { return !databaseNameChars.MatchString(f.DBName) },
		Message: "may contain only lower-case letters, digits, underscores and hyphens",
		Fix:     "use lower case, e.g. " + "orders_db"},
	{Rule: "database-name-first", Kind: KindDatabase, Attribute: AttrName, Value: databaseName,
		Broken:  func(f AccessFacts) bool { return f.DBName != "" && !firstIsLetter(f.DBName) },
		Message: "must start with a letter",
		Fix:     "start the name with a letter"},
	{Rule: "database-name-last", Kind: KindDatabase, Attribute: AttrName, Value: databaseName,
		Broken:  func(f AccessFacts) bool { return f.DBName != "" && !lastIsLetterOrDigit(f.DBName) },
		Message: "must end with a letter or a digit",
		Fix:     "remove the trailing underscore or hyphen"},
	{Rule: "database-name-reserved", Kind: KindDatabase, Attribute: AttrName, Value: databaseName,
		Broken:  func(f AccessFacts) bool { return contains(ReservedDatabaseNames, strings.ToLower(f.DBName)) },
		Message: "is a system database name RDS reserves (" + strings.Join(ReservedDatabaseNames, ", ") + ")",
		Fix:     "choose another name"},
	{Rule: "database-character-set", Kind: KindDatabase, Attribute: AttrCharacterSet, Value: func(f AccessFacts) string { return f.CharacterSet },
		Broken: func(f AccessFacts) bool {
			engine := "MySQL" // before the instance is known: the sets of MySQL, the same as MariaDB's
			if f.InstanceKnown {
				engine = canonicalAccessEngine(f.Engine)
			}
			sets, ok := CharacterSets[engine]
			return ok && !contains(sets, f.CharacterSet)
		},
		Message: "is not a character set RDS offers for MySQL and MariaDB databases (utf8, gbk, latin1, utf8mb4)",
		Fix:     "set character_set = \"utf8mb4\" (full Unicode) or another of utf8, gbk, latin1"},
	{Rule: "database-description", Kind: KindDatabase, Attribute: AttrDescription, Value: func(f AccessFacts) string { return f.DBDescription },
		Broken:  func(f AccessFacts) bool { return badDescription(f.DBDescription) },
		Message: descriptionRule,
		Fix:     "write a description that starts with a letter, e.g. \"Orders of the shop\""},

	// ---- rds_account_privilege ----
	{Rule: "privilege-value", Kind: KindPrivilege, Attribute: AttrPrivilege, Value: func(f AccessFacts) string { return f.Privilege },
		Broken:  func(f AccessFacts) bool { return !contains(AccountPrivileges, f.Privilege) },
		Message: "must be one of ReadWrite, ReadOnly, DDLOnly, DMLOnly",
		Fix:     "set privilege to one of ReadWrite, ReadOnly, DDLOnly, DMLOnly"},
	{Rule: "privilege-super-account", Kind: KindPrivilege, Attribute: AttrAccountName, Value: accountName,
		Broken:  func(f AccessFacts) bool { return f.AccountType == rdsapi.AccountTypeSuper },
		Message: "is the instance's privileged (Super) account, which already has every privilege on every database and cannot be granted privileges",
		Fix:     "remove this rds_account_privilege, or grant the privilege to a Normal account"},
}

func instanceID(f AccessFacts) string     { return f.InstanceID }
func instanceEngine(f AccessFacts) string { return f.Engine }

// CheckAccess evaluates every rule of kind and returns the broken ones as problems, in table order.
func CheckAccess(kind AccessKind, f AccessFacts) []Problem {
	var problems []Problem
	for _, rule := range AccessRules {
		if rule.Kind != kind || !rule.Broken(f) {
			continue
		}
		maxLen := fmt.Sprint(MaxAccountNameLength(f))
		value := rule.Value(f)
		problems = append(problems, Problem{
			Attribute: rule.Attribute,
			Value:     value,
			Summary:   fmt.Sprintf("Invalid %s (rule %s)", rule.Attribute, rule.Rule),
			Detail: fmt.Sprintf("%s = %q %s. Fix: %s.", rule.Attribute, value,
				strings.ReplaceAll(rule.Message, "{max}", maxLen), strings.ReplaceAll(rule.Fix, "{max}", maxLen)),
		})
	}
	return problems
}
