package rdsservice

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The checks of rds_account, rds_database and rds_account_privilege: one check per row of the rule
// table (ruletable.go holds their messages). The provider evaluates them at plan time (and again
// before the first write when the plan could not know the instance), so a bad value costs no API
// write. Sources: internal/simulator/README.md, "Accounts and databases".

// Terraform attribute names the access rules point at.
const (
	AttrInstanceID        = "instance_id"
	AttrName              = "name"
	AttrType              = "type"
	AttrDescription       = "description"
	AttrPassword          = "password_wo"
	AttrPasswordPlain     = "password"
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
	// InstanceMissing: the plan knows instance_id and the cloud has no such instance.
	InstanceMissing bool
	// Status, LockMode and LockReason of the instance (the plan warns about states that take no change).
	Status, LockMode, LockReason string
	// Account (rds_account) or grantee (rds_account_privilege).
	AccountName        string
	AccountType        string // Normal or Super; for a grantee, as the cloud reports it ("" unknown)
	AccountDescription string
	Password           string
	PasswordKnown      bool
	// PasswordAttr is the attribute the password is set with (password_wo when "").
	PasswordAttr string
	// OtherSuper is another privileged account on the instance, or planned for it by another
	// rds_account of this run ("" none or unknown).
	OtherSuper string
	// Existing is the object of the same name the instance already has and this resource does not
	// manage (for an account, the name as the cloud spells it); ExistingType is its account type.
	Existing, ExistingType string
	// PlannedElsewhere: another resource of this run plans an object of the same name.
	PlannedElsewhere bool
	// Database (rds_database).
	DBName        string
	CharacterSet  string
	DBDescription string
	// Privilege (rds_account_privilege).
	Privilege string
	// GranteeMissing: the account is neither on the instance nor planned by this run;
	// GranteeSpelling is the name of an account that differs from it only in case.
	GranteeMissing  bool
	GranteeSpelling string
	// MissingDBs are the db_names neither on the instance nor planned by this run (with the
	// spelling of a database that differs only in case, after " -> ", when there is one).
	MissingDBs []string
	// TakenPairs are databases on which the account already holds another privilege that this
	// resource did not grant, or that another rds_account_privilege of this run plans ("db: Privilege").
	TakenPairs []string
}

// accessCheck decides one rule-table row for one kind of resource.
type accessCheck struct {
	Rule RuleID
	Kind AccessKind
	// Value is the offending value as shown to the user.
	Value func(AccessFacts) string
	// Broken reports whether the facts break the rule; it must be false when a fact it needs is
	// unknown.
	Broken func(AccessFacts) bool
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
	if IsMySQL(f.Engine) && f.EngineVersion != "5.5" && f.EngineVersion != "5.6" {
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

func instanceID(f AccessFacts) string     { return f.InstanceID }
func instanceEngine(f AccessFacts) string { return f.Engine }

var (
	unsupportedEngine = func(f AccessFacts) bool { return f.InstanceKnown && !engineSupported(f) }
	onReadOnly        = func(f AccessFacts) bool { return f.InstanceKnown && f.ReadOnly }
	instanceMissing   = func(f AccessFacts) bool { return f.InstanceMissing }
	existingName      = func(f AccessFacts) string { return f.Existing }
	alreadyExists     = func(f AccessFacts) bool { return f.Existing != "" }
	plannedElsewhere  = func(f AccessFacts) bool { return f.PlannedElsewhere }
)

// accessChecks are in table order; kindNouns name what access-engine refuses.
var (
	accessChecks = []accessCheck{
		// ---- where accounts and databases can live (every kind) ----
		{RuleAccessInstanceMissing, KindAccount, instanceID, instanceMissing},
		{RuleAccessInstanceMissing, KindDatabase, instanceID, instanceMissing},
		{RuleAccessInstanceMissing, KindPrivilege, instanceID, instanceMissing},
		{RuleAccessEngine, KindAccount, instanceEngine, unsupportedEngine},
		{RuleAccessEngine, KindDatabase, instanceEngine, unsupportedEngine},
		{RuleAccessEngine, KindPrivilege, instanceEngine, unsupportedEngine},
		{RuleAccountOnReadOnly, KindAccount, instanceID, onReadOnly},
		{RuleDatabaseOnReadOnly, KindDatabase, instanceID, onReadOnly},
		{RulePrivilegeOnReadOnly, KindPrivilege, instanceID, onReadOnly},

		// ---- rds_account ----
		{RuleAccountNameLength, KindAccount, accountName, func(f AccessFacts) bool {
			return len(f.AccountName) < 2 || len(f.AccountName) > MaxAccountNameLength(f)
		}},
		{RuleAccountNameCharacters, KindAccount, accountName, func(f AccessFacts) bool {
			if f.InstanceKnown && !IsMySQL(f.Engine) {
				return !lowerNameChars.MatchString(f.AccountName)
			}
			return !accountNameChars.MatchString(f.AccountName)
		}},
		{RuleAccountNameFirst, KindAccount, accountName, func(f AccessFacts) bool { return f.AccountName != "" && !firstIsLetter(f.AccountName) }},
		{RuleAccountNameLast, KindAccount, accountName, func(f AccessFacts) bool { return f.AccountName != "" && !lastIsLetterOrDigit(f.AccountName) }},
		{RuleAccountNameReserved, KindAccount, accountName, func(f AccessFacts) bool { return contains(ReservedAccountNames, strings.ToLower(f.AccountName)) }},
		{RuleAccountType, KindAccount, accountType, func(f AccessFacts) bool { return !contains(AccountTypes, f.AccountType) }},
		{RuleAccountExists, KindAccount, accountName, alreadyExists},
		{RuleAccountPlannedTwice, KindAccount, accountName, plannedElsewhere},
		{RuleAccountOneSuper, KindAccount, accountType, func(f AccessFacts) bool {
			return f.AccountType == rdsapi.AccountTypeSuper && f.OtherSuper != "" && f.OtherSuper != f.AccountName
		}},
		{RuleAccountDescription, KindAccount, func(f AccessFacts) string { return f.AccountDescription },
			func(f AccessFacts) bool { return badDescription(f.AccountDescription) }},
		{RulePasswordLength, KindAccount, hidden, func(f AccessFacts) bool { return f.PasswordKnown && (len(f.Password) < 8 || len(f.Password) > 32) }},
		{RulePasswordCharacters, KindAccount, hidden, func(f AccessFacts) bool {
			_, foreign := passwordClasses(f.Password)
			return f.PasswordKnown && foreign
		}},
		{RulePasswordClasses, KindAccount, hidden, func(f AccessFacts) bool {
			classes, _ := passwordClasses(f.Password)
			return f.PasswordKnown && classes < 3
		}},

		// ---- rds_database ----
		{RuleDatabaseNameLength, KindDatabase, databaseName, func(f AccessFacts) bool { return len(f.DBName) < 2 || len(f.DBName) > 64 }},
		{RuleDatabaseNameCharacters, KindDatabase, databaseName, func(f AccessFacts) bool { return !databaseNameChars.MatchString(f.DBName) }},
		{RuleDatabaseNameFirst, KindDatabase, databaseName, func(f AccessFacts) bool { return f.DBName != "" && !firstIsLetter(f.DBName) }},
		{RuleDatabaseNameLast, KindDatabase, databaseName, func(f AccessFacts) bool { return f.DBName != "" && !lastIsLetterOrDigit(f.DBName) }},
		{RuleDatabaseNameReserved, KindDatabase, databaseName, func(f AccessFacts) bool { return contains(ReservedDatabaseNames, strings.ToLower(f.DBName)) }},
		{RuleDatabaseCharacterSet, KindDatabase, func(f AccessFacts) string { return f.CharacterSet }, func(f AccessFacts) bool {
			engine := "MySQL" // before the instance is known: the sets of MySQL, the same as MariaDB's
			if f.InstanceKnown {
				engine = canonicalAccessEngine(f.Engine)
			}
			sets, ok := CharacterSets[engine]
			return ok && !contains(sets, f.CharacterSet)
		}},
		{RuleDatabaseDescription, KindDatabase, func(f AccessFacts) string { return f.DBDescription },
			func(f AccessFacts) bool { return badDescription(f.DBDescription) }},
		{RuleDatabaseExists, KindDatabase, databaseName, alreadyExists},
		{RuleDatabasePlannedTwice, KindDatabase, databaseName, plannedElsewhere},

		// ---- rds_account_privilege ----
		{RulePrivilegeValue, KindPrivilege, func(f AccessFacts) string { return f.Privilege },
			func(f AccessFacts) bool { return !contains(AccountPrivileges, f.Privilege) }},
		{RulePrivilegeSuperAccount, KindPrivilege, accountName, func(f AccessFacts) bool { return f.AccountType == rdsapi.AccountTypeSuper }},
		{RulePrivilegeAccountMissing, KindPrivilege, accountName, func(f AccessFacts) bool { return f.GranteeMissing && f.GranteeSpelling == "" }},
		{RulePrivilegeAccountCase, KindPrivilege, accountName, func(f AccessFacts) bool { return f.GranteeMissing && f.GranteeSpelling != "" }},
		{RulePrivilegeDatabaseMissing, KindPrivilege, func(f AccessFacts) string { return strings.Join(f.MissingDBs, ", ") },
			func(f AccessFacts) bool { return len(f.MissingDBs) > 0 }},
		{RulePrivilegePairTaken, KindPrivilege, func(f AccessFacts) string { return strings.Join(f.TakenPairs, ", ") },
			func(f AccessFacts) bool { return len(f.TakenPairs) > 0 }},
	}
	// accessOthers name the other object a rule's message points at (its %[5]s).
	accessOthers = map[RuleID]func(AccessFacts) string{
		RuleAccountExists:            existingName,
		RuleDatabaseExists:           existingName,
		RuleAccountOneSuper:          func(f AccessFacts) string { return f.OtherSuper },
		RulePrivilegeAccountCase:     func(f AccessFacts) string { return f.GranteeSpelling },
		RulePrivilegeAccountMissing:  accountName,
		RulePrivilegePairTaken:       accountName,
		RulePrivilegeDatabaseMissing: accountName,
	}
	kindNouns = map[AccessKind]string{KindAccount: "accounts", KindDatabase: "databases", KindPrivilege: "privileges"}
)

func accountType(f AccessFacts) string { return f.AccountType }

// CheckAccess evaluates every check of kind and returns the broken rules as problems, in table
// order, followed by the warnings (or, Deleting, the error) about an instance in a state that takes
// no change, pointed at instance_id.
func CheckAccess(kind AccessKind, f AccessFacts) []Problem {
	var problems []Problem
	passwordAttr := f.PasswordAttr
	if passwordAttr == "" {
		passwordAttr = AttrPassword
	}
	for _, c := range accessChecks {
		if c.Kind != kind || !c.Broken(f) {
			continue
		}
		value, other := c.Value(f), ""
		if name, ok := accessOthers[c.Rule]; ok {
			other = name(f)
		}
		p := problem(c.Rule, value, value, MaxAccountNameLength(f), kindNouns[kind], f.InstanceID, other, passwordAttr)
		if p.Attribute == AttrPassword {
			p = p.At(passwordAttr)
		}
		problems = append(problems, p)
	}
	if f.InstanceKnown {
		for _, p := range StateProblems(f.InstanceID, f.Status, f.LockMode, f.LockReason, true, false) {
			problems = append(problems, p.At(AttrInstanceID))
		}
	}
	return problems
}

// AccessDestroyProblems are the plan's problems of destroying an account, database or grant on
// the instance as attr shows it: a locked or Stopped instance refuses the delete or revoke like
// any other write; a missing or Deleting one has nothing left to delete (attr nil: not found).
func AccessDestroyProblems(attr *rdsapi.DBInstanceAttribute) []Problem {
	if attr == nil || attr.DBInstanceStatus == StatusDeleting {
		return nil
	}
	var problems []Problem
	for _, p := range StateProblems(attr.DBInstanceID, attr.DBInstanceStatus, attr.LockMode, attr.LockReason, true, false) {
		problems = append(problems, p.At(AttrInstanceID))
	}
	return problems
}

// ClashingAccount is the account of accounts that name takes: the same name, or on MySQL one that
// differs only in case when either is the privileged account (kind is the planned type); nil when
// the name is free.
func ClashingAccount(accounts []rdsapi.DBInstanceAccount, name, kind string) *rdsapi.DBInstanceAccount {
	for i, a := range accounts {
		if a.AccountName == name {
			return &accounts[i]
		}
	}
	for i, a := range accounts {
		if strings.EqualFold(a.AccountName, name) && (a.AccountType == rdsapi.AccountTypeSuper || kind == rdsapi.AccountTypeSuper) {
			return &accounts[i]
		}
	}
	return nil
}

// SpelledOtherwise is the name of names that equals name but for case ("" when none).
func SpelledOtherwise(names []string, name string) string {
	for _, n := range names {
		if n != name && strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

// CheckAccessHost refuses to list or import the accounts or databases (what) of a read-only
// instance: they are its primary's, replicated, and a state holding them on the read-only instance
// could never change or destroy them. It names the primary to use instead.
func CheckAccessHost(what string, attr *rdsapi.DBInstanceAttribute) []Problem {
	if attr == nil || (attr.MasterInstanceID == "" && attr.DBInstanceType != rdsapi.InstanceTypeReadonly) {
		return nil
	}
	primary := firstNonEmpty(attr.MasterInstanceID, "its primary instance")
	return []Problem{problem(RuleAccessReadOnlyHost, attr.DBInstanceID, attr.DBInstanceID, primary, what)}
}
