package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func brokenRules(kind AccessKind, f AccessFacts) []string {
	var out []string
	for _, p := range CheckAccess(kind, f) {
		_, rule, _ := strings.Cut(p.Summary, "(rule ")
		out = append(out, strings.TrimSuffix(rule, ")"))
	}
	return out
}

func mysql80(f AccessFacts) AccessFacts {
	f.InstanceKnown, f.InstanceID, f.Engine, f.EngineVersion = true, "rm-1", "MySQL", "8.0"
	return f
}

// Each bad value breaks exactly its rule, and the message names attribute, value and fix; a
// password is never shown.
func TestAccessRules(t *testing.T) {
	good := mysql80(AccessFacts{AccountName: "app_user", AccountType: "Normal", Password: "Secr3t-pass", PasswordKnown: true})
	if got := brokenRules(KindAccount, good); len(got) != 0 {
		t.Fatalf("a valid account breaks %v", got)
	}
	cases := []struct {
		name   string
		kind   AccessKind
		facts  AccessFacts
		broken string
	}{
		{"short name", KindAccount, mysql80(AccessFacts{AccountName: "a", AccountType: "Normal"}), "account-name-length"},
		{"33 characters", KindAccount, mysql80(AccessFacts{AccountName: "a" + strings.Repeat("b", 32), AccountType: "Normal"}), "account-name-length"},
		{"17 on 5.6", KindAccount, AccessFacts{InstanceKnown: true, Engine: "MySQL", EngineVersion: "5.6", AccountName: "a" + strings.Repeat("b", 16), AccountType: "Normal"}, "account-name-length"},
		{"hyphen", KindAccount, mysql80(AccessFacts{AccountName: "app-user", AccountType: "Normal"}), "account-name-characters"},
		{"digit first", KindAccount, mysql80(AccessFacts{AccountName: "1app", AccountType: "Normal"}), "account-name-first"},
		{"underscore last", KindAccount, mysql80(AccessFacts{AccountName: "app_", AccountType: "Normal"}), "account-name-last"},
		{"reserved", KindAccount, mysql80(AccessFacts{AccountName: "Root", AccountType: "Normal"}), "account-name-reserved"},
		{"second super", KindAccount, mysql80(AccessFacts{AccountName: "boss", AccountType: "Super", OtherSuper: "admin1"}), "account-one-super"},
		{"read-only instance", KindAccount, func() AccessFacts { f := good; f.ReadOnly = true; return f }(), "account-on-read-only"},
		{"postgres", KindAccount, func() AccessFacts { f := good; f.Engine = "PostgreSQL"; return f }(), "access-engine"},
		{"short password", KindAccount, func() AccessFacts { f := good; f.Password = "Ab1-"; return f }(), "password-length"},
		{"space in password", KindAccount, func() AccessFacts { f := good; f.Password = "Secr3t pass"; return f }(), "password-characters"},
		{"two kinds", KindAccount, func() AccessFacts { f := good; f.Password = "lowercase123"; return f }(), "password-classes"},
		{"url description", KindAccount, func() AccessFacts { f := good; f.AccountDescription = "https://x"; return f }(), "account-description"},
		{"upper-case db", KindDatabase, mysql80(AccessFacts{DBName: "Orders", CharacterSet: "utf8"}), "database-name-characters"},
		{"long db", KindDatabase, mysql80(AccessFacts{DBName: "a" + strings.Repeat("b", 64), CharacterSet: "utf8"}), "database-name-length"},
		{"reserved db", KindDatabase, mysql80(AccessFacts{DBName: "mysql", CharacterSet: "utf8"}), "database-name-reserved"},
		{"charset", KindDatabase, mysql80(AccessFacts{DBName: "orders", CharacterSet: "utf16"}), "database-character-set"},
		{"charset before the instance exists", KindDatabase, AccessFacts{DBName: "orders", CharacterSet: "ascii"}, "database-character-set"},
		{"privilege on postgres", KindPrivilege, AccessFacts{InstanceKnown: true, Engine: "PostgreSQL", AccountName: "app", Privilege: "ReadOnly"}, "access-engine"},
		{"privilege value", KindPrivilege, mysql80(AccessFacts{AccountName: "app", Privilege: "All"}), "privilege-value"},
		{"privilege on super", KindPrivilege, mysql80(AccessFacts{AccountName: "boss", AccountType: "Super", Privilege: "ReadOnly"}), "privilege-super-account"},
	}
	for _, tc := range cases {
		got := brokenRules(tc.kind, tc.facts)
		if len(got) != 1 || got[0] != tc.broken {
			t.Errorf("%s: broken rules %v, want [%s]", tc.name, got, tc.broken)
			continue
		}
		p := CheckAccess(tc.kind, tc.facts)[0]
		if !strings.Contains(p.Detail, p.Attribute) || !strings.Contains(p.Detail, "Fix: ") {
			t.Errorf("%s: detail lacks attribute or fix: %s", tc.name, p.Detail)
		}
		if tc.facts.Password != "" && strings.Contains(p.Detail, tc.facts.Password) {
			t.Errorf("%s: the detail shows the password", tc.name)
		}
	}
	// Unknown instance facts never break a rule that needs them.
	if got := brokenRules(KindAccount, AccessFacts{AccountName: "a" + strings.Repeat("b", 20), AccountType: "Super", OtherSuper: ""}); len(got) != 0 {
		t.Fatalf("unknown instance: %v", got)
	}
}

// The plan-time rules and the simulator agree on every account and database name, password and
// character set in a matrix of good and bad values: what the plan accepts the cloud accepts, and
// what the plan refuses the cloud refuses.
func TestAccessRulesAgreeWithSimulator(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	ctx := context.Background()
	ids := map[string]string{}
	for _, version := range []string{"5.7", "8.0", "5.6"} {
		id, err := e.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: version, DBInstanceClass: "mysql.x4.medium.2c", Storage: 100, StorageType: "cloud_essd", Category: "HighAvailability"})
		if err != nil {
			t.Fatal(err)
		}
		ids[version] = id
	}
	names := []string{"ab", "a", "app_user", "App_User1", "app-user", "1app", "app_", "root", "ADMIN", "x" + strings.Repeat("y", 15), "x" + strings.Repeat("y", 16), "x" + strings.Repeat("y", 31), "x" + strings.Repeat("y", 32)}
	passwords := []string{"Secr3t-pass", "short1A", "alllower123", "ALLUPPER123!", "Has space1A", "Aa1!" + strings.Repeat("x", 28), "Aa1!" + strings.Repeat("x", 29), "ÄöÜ12345abc"}
	compared := 0
	for version, id := range ids {
		for i, name := range names {
			for j, pw := range passwords {
				if i > 0 && j > 0 && j != i%len(passwords) {
					continue // every name with a good password, every password with a good name, plus a diagonal
				}
				if i == 0 && j == 0 {
					continue
				}
				account := name
				if i == 0 {
					account = "p" + strings.Repeat("w", j) // a fresh valid name per password
				}
				facts := AccessFacts{InstanceKnown: true, InstanceID: id, Engine: "MySQL", EngineVersion: version, AccountName: account, AccountType: "Normal", Password: pw, PasswordKnown: true}
				planOK := len(CheckAccess(KindAccount, facts)) == 0
				err := e.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: account, AccountPassword: pw})
				compared++
				if planOK != (err == nil) {
					t.Errorf("MySQL %s account %q password #%d: plan accepts=%v, simulator: %v", version, account, j, planOK, err)
				}
				if err == nil {
					if err := e.api.DeleteAccount(ctx, id, account); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	for _, charset := range []string{"utf8mb4", "utf8", "gbk", "latin1", "ascii", "UTF8"} {
		// A fresh instance per character set, so that names never meet a database still Deleting.
		id, err := e.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.x4.medium.2c", Storage: 100, StorageType: "cloud_essd", Category: "HighAvailability"})
		if err != nil {
			t.Fatal(err)
		}
		for _, db := range []string{"orders", "a", "Orders", "ord-ers", "ord_", "1orders", "mysql", "x" + strings.Repeat("y", 63), "x" + strings.Repeat("y", 64)} {
			facts := AccessFacts{InstanceKnown: true, InstanceID: id, Engine: "MySQL", EngineVersion: "8.0", DBName: db, CharacterSet: charset}
			planOK := len(CheckAccess(KindDatabase, facts)) == 0
			err := e.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: db, CharacterSetName: charset})
			compared++
			if planOK != (err == nil) {
				t.Errorf("database %q charset %s: plan accepts=%v, simulator: %v", db, charset, planOK, err)
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d comparisons", compared)
	}
}

// Issue 24 §1 and §3: the rules that read the instance's objects and this run's plans break on
// their facts, and the messages render literally, at the attribute in use, naming the instance.
func TestAccessRulesOfIssue24(t *testing.T) {
	grant := mysql80(AccessFacts{AccountName: "app", Privilege: "ReadOnly"})
	cases := []struct {
		name   string
		kind   AccessKind
		facts  AccessFacts
		broken string
		says   string
	}{
		{"missing instance", KindAccount, AccessFacts{InstanceID: "rm-x", InstanceMissing: true, AccountName: "app", AccountType: "Normal"}, "access-instance-missing", `instance_id = "rm-x"`},
		{"name taken", KindAccount, mysql80(AccessFacts{AccountName: "DBA", AccountType: "Normal", Existing: "dba"}), "account-exists", "rm-1:dba"},
		{"planned twice", KindDatabase, mysql80(AccessFacts{DBName: "orders", CharacterSet: "utf8", PlannedElsewhere: true}), "database-planned-twice", `name = "orders"`},
		{"second super named", KindAccount, mysql80(AccessFacts{AccountName: "boss2", AccountType: "Super", OtherSuper: "boss"}), "account-one-super", `privileged account "boss"`},
		{"grantee missing", KindPrivilege, func() AccessFacts { f := grant; f.GranteeMissing = true; return f }(), "privilege-account-missing", "no such account"},
		{"grantee case", KindPrivilege, func() AccessFacts { f := grant; f.GranteeMissing, f.GranteeSpelling = true, "App"; return f }(), "privilege-account-case", `account_name = "App"`},
		{"database missing", KindPrivilege, func() AccessFacts { f := grant; f.MissingDBs = []string{`"x"`}; return f }(), "privilege-database-missing", `no database "x"`},
		{"pair taken", KindPrivilege, func() AccessFacts { f := grant; f.TakenPairs = []string{`"x" (ReadWrite)`}; return f }(), "privilege-pair-taken", `"x" (ReadWrite)`},
		{"postgres names the instance", KindDatabase, func() AccessFacts {
			f := mysql80(AccessFacts{DBName: "orders", CharacterSet: "utf8"})
			f.Engine = "PostgreSQL"
			return f
		}(), "access-engine", `instance_id = "rm-1" is a PostgreSQL instance`},
		{"read-only fix", KindAccount, func() AccessFacts {
			f := mysql80(AccessFacts{AccountName: "app", AccountType: "Normal"})
			f.ReadOnly = true
			return f
		}(), "account-on-read-only", "master_instance_id"},
		{"specials literal", KindAccount, mysql80(AccessFacts{AccountName: "app", AccountType: "Normal", Password: "Secr3t pass", PasswordKnown: true, PasswordAttr: AttrPasswordPlain}), "password-characters", "password = \"(sensitive value)\" may contain only letters, digits and the special characters !@#$%^&*()_+-=."},
	}
	for _, tc := range cases {
		got := brokenRules(tc.kind, tc.facts)
		if len(got) != 1 || got[0] != tc.broken {
			t.Errorf("%s: broken rules %v, want [%s]", tc.name, got, tc.broken)
			continue
		}
		p := CheckAccess(tc.kind, tc.facts)[0]
		if !strings.Contains(p.Detail, tc.says) || !strings.Contains(p.Detail, "Fix: ") || strings.Contains(p.Detail, "%!") {
			t.Errorf("%s: detail does not say %q (with a fix):\n%s", tc.name, tc.says, p.Detail)
		}
	}
	p := CheckAccess(KindAccount, mysql80(AccessFacts{AccountName: "app", AccountType: "Normal", Password: "short", PasswordKnown: true, PasswordAttr: AttrPasswordPlain}))[0]
	if p.Attribute != AttrPasswordPlain || !strings.HasPrefix(p.Summary, "Invalid password ") {
		t.Errorf("a password set with password is reported at %q: %s", p.Attribute, p.Summary)
	}
}

// A name taken by an account: the same name, or one differing only in case when either is the
// privileged account.
func TestClashingAccount(t *testing.T) {
	accounts := []rdsapi.DBInstanceAccount{{AccountName: "dba_super", AccountType: "Super"}, {AccountName: "app", AccountType: "Normal"}}
	for name, want := range map[string]string{"DBA_SUPER": "dba_super", "app": "app", "APP": "", "other": ""} {
		got := ""
		if a := ClashingAccount(accounts, name, "Normal"); a != nil {
			got = a.AccountName
		}
		if got != want {
			t.Errorf("%s clashes with %q, want %q", name, got, want)
		}
	}
	if a := ClashingAccount(accounts, "APP", "Super"); a == nil || a.AccountName != "app" {
		t.Errorf("a privileged APP clashes with app: %v", a)
	}
}

// Destroying an account, database or grant on a locked or Stopped instance is named at plan (the
// cloud refuses the delete or revoke there; the oracle found a destroy of a disk-quota-locked
// instance's grants failing after a silent plan); a gone or Deleting instance has nothing left.
func TestAccessDestroyProblems(t *testing.T) {
	locked := &rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusRunning, LockMode: "LockByDiskQuota"}
	if got := AccessDestroyProblems(locked); len(got) != 1 || got[0].Rule != RuleInstanceLocked || got[0].Attribute != AttrInstanceID {
		t.Errorf("locked: %+v, want one %s at %s", got, RuleInstanceLocked, AttrInstanceID)
	}
	stopped := &rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceStatus: StatusStopped}
	if got := AccessDestroyProblems(stopped); len(got) != 1 || got[0].Rule != RuleInstanceStopped {
		t.Errorf("stopped: %+v, want one %s", got, RuleInstanceStopped)
	}
	for name, attr := range map[string]*rdsapi.DBInstanceAttribute{"gone": nil,
		"deleting": {DBInstanceID: "rm-1", DBInstanceStatus: StatusDeleting, LockMode: "LockByDiskQuota"},
		"running":  {DBInstanceID: "rm-1", DBInstanceStatus: StatusRunning}} {
		if got := AccessDestroyProblems(attr); len(got) != 0 {
			t.Errorf("%s: %+v, want none", name, got)
		}
	}
}
