package simulator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const accountD = 2 * time.Second

func newAccountsEnv(t *testing.T, mutate ...func(*Options)) *env {
	t.Helper()
	return newEnv(t, append([]func(*Options){func(o *Options) { o.AccountDuration = accountD }}, mutate...)...)
}

func accountItems(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, item := range body["Accounts"].(map[string]any)["DBInstanceAccount"].([]any) {
		out = append(out, item.(map[string]any))
	}
	return out
}

func databaseItems(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, item := range body["Databases"].(map[string]any)["Database"].([]any) {
		out = append(out, item.(map[string]any))
	}
	return out
}

func (e *env) account(id, name string) map[string]any {
	e.t.Helper()
	items := accountItems(e.c.ok("DescribeAccounts", map[string]string{"DBInstanceId": id, "AccountName": name}))
	if len(items) != 1 {
		e.t.Fatalf("DescribeAccounts %s %s: %d items", id, name, len(items))
	}
	return items[0]
}

func (e *env) database(id, name string) map[string]any {
	e.t.Helper()
	items := databaseItems(e.c.ok("DescribeDatabases", map[string]string{"DBInstanceId": id, "DBName": name}))
	if len(items) != 1 {
		e.t.Fatalf("DescribeDatabases %s %s: %d items", id, name, len(items))
	}
	return items[0]
}

func accountParams(id, name, password string, extra ...string) map[string]string {
	p := map[string]string{"DBInstanceId": id, "AccountName": name, "AccountPassword": password}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i]] = extra[i+1]
	}
	return p
}

// The whole life of an account, a database and a grant, with the documented statuses.
func TestAccountsDatabasesPrivileges(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(nil)

	e.c.ok("CreateAccount", accountParams(id, "app_user", "Secr3t-pass", "AccountDescription", "application account"))
	if a := e.account(id, "app_user"); a["AccountStatus"] != accountUnavailable || a["AccountType"] != accountNormal || a["AccountDescription"] != "application account" {
		t.Fatalf("new account: %v", a)
	}
	e.clock.Add(accountD)
	if a := e.account(id, "app_user"); a["AccountStatus"] != accountAvailable {
		t.Fatalf("account after %v: %v", accountD, a)
	}
	e.c.fails("CreateAccount", accountParams(id, "app_user", "Secr3t-pass"), 400, "InvalidAccountName.Duplicate")

	e.c.ok("CreateAccount", accountParams(id, "Boss", "Secr3t-pass", "AccountType", "Super"))
	e.c.fails("CreateAccount", accountParams(id, "boss2", "Secr3t-pass", "AccountType", "Super"), 403, "IncorrectAccountType")
	e.c.fails("CreateAccount", accountParams(id, "boss", "Secr3t-pass"), 400, "InvalidAccountName.Duplicate")

	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf8mb4", "DBDescription": "orders db"})
	if d := e.database(id, "orders"); d["DBStatus"] != databaseCreating || d["CharacterSetName"] != "utf8mb4" || d["Engine"] != "MySQL" {
		t.Fatalf("new database: %v", d)
	}
	e.clock.Add(accountD)
	if d := e.database(id, "orders"); d["DBStatus"] != databaseRunning {
		t.Fatalf("database after %v: %v", accountD, d)
	}
	e.c.fails("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf8"}, 400, "InvalidDBName.Duplicate")
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "audit", "CharacterSetName": "utf8"})

	e.c.ok("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "app_user", "DBName": "orders,audit", "AccountPrivilege": "ReadWrite,ReadOnly"})
	privs := e.account(id, "app_user")["DatabasePrivileges"].(map[string]any)["DatabasePrivilege"].([]any)
	if len(privs) != 2 || privs[0].(map[string]any)["DBName"] != "audit" || privs[0].(map[string]any)["AccountPrivilege"] != "ReadOnly" ||
		privs[1].(map[string]any)["AccountPrivilege"] != "ReadWrite" || privs[1].(map[string]any)["AccountPrivilegeDetail"] == "" {
		t.Fatalf("privileges after grant: %v", privs)
	}
	grants := e.database(id, "orders")["Accounts"].(map[string]any)["AccountPrivilegeInfo"].([]any)
	if len(grants) != 1 || grants[0].(map[string]any)["Account"] != "app_user" {
		t.Fatalf("grants on orders: %v", grants)
	}
	e.c.fails("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "Boss", "DBName": "orders", "AccountPrivilege": "ReadOnly"}, 403, "IncorrectAccountType")
	e.c.fails("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "app_user", "DBName": "orders,audit", "AccountPrivilege": "ReadOnly"}, 400, "InvalidAccountPrivilege.Malformed")
	e.c.fails("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "app_user", "DBName": "nope", "AccountPrivilege": "ReadOnly"}, 400, "InvalidDBName.NotFound")
	e.c.fails("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "ghost", "DBName": "orders", "AccountPrivilege": "ReadOnly"}, 400, "InvalidAccountName.NotFound")

	e.c.ok("RevokeAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "app_user", "DBName": "audit"})
	if privs := e.account(id, "app_user")["DatabasePrivileges"].(map[string]any)["DatabasePrivilege"].([]any); len(privs) != 1 {
		t.Fatalf("privileges after revoke: %v", privs)
	}

	e.c.ok("ModifyAccountDescription", map[string]string{"DBInstanceId": id, "AccountName": "app_user", "AccountDescription": "renamed"})
	e.c.ok("ModifyDBDescription", map[string]string{"DBInstanceId": id, "DBName": "orders", "DBDescription": "renamed db"})
	if e.account(id, "app_user")["AccountDescription"] != "renamed" || e.database(id, "orders")["DBDescription"] != "renamed db" {
		t.Fatal("descriptions not changed")
	}

	// Deleting a database ends its grants at once; it is Deleting, then gone.
	e.c.ok("DeleteDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders"})
	if d := e.database(id, "orders"); d["DBStatus"] != databaseDeleting {
		t.Fatalf("deleted database: %v", d)
	}
	if privs := e.account(id, "app_user")["DatabasePrivileges"].(map[string]any)["DatabasePrivilege"].([]any); len(privs) != 0 {
		t.Fatalf("grants on a deleted database: %v", privs)
	}
	e.clock.Add(accountD)
	if items := databaseItems(e.c.ok("DescribeDatabases", map[string]string{"DBInstanceId": id, "DBName": "orders"})); len(items) != 0 {
		t.Fatalf("database still listed after deletion: %v", items)
	}
	e.c.ok("DeleteAccount", map[string]string{"DBInstanceId": id, "AccountName": "app_user"})
	if items := accountItems(e.c.ok("DescribeAccounts", map[string]string{"DBInstanceId": id})); len(items) != 1 || items[0]["AccountName"] != "Boss" {
		t.Fatalf("accounts after delete: %v", items)
	}
	e.c.fails("DeleteAccount", map[string]string{"DBInstanceId": id, "AccountName": "app_user"}, 400, "InvalidAccountName.NotFound")
}

// An account created while the instance restarts is refused with IncorrectDBInstanceState (HTTP
// 403), and accepted once the instance is Running again.
func TestAccountDuringRestart(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(map[string]string{"OptimizedWrites": "none"})
	if a := e.toggle(id, "optimized"); a.status != 200 {
		t.Fatalf("toggle: %s", a.raw)
	}
	for _, call := range []struct {
		action string
		p      map[string]string
	}{
		{"CreateAccount", accountParams(id, "app", "Secr3t-pass")},
		{"CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "app", "CharacterSetName": "utf8"}},
	} {
		e.c.fails(call.action, call.p, 403, "IncorrectDBInstanceState")
	}
	e.settle()
	e.c.ok("CreateAccount", accountParams(id, "app", "Secr3t-pass"))
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "app", "CharacterSetName": "utf8"})
}

// Every documented rule on names, passwords, character sets and descriptions; no answer quotes a
// password.
func TestAccountValidation(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(nil)
	old := e.create(map[string]string{"EngineVersion": "5.6", "DBInstanceClass": "mysql.x4.medium.2c"})
	cases := []struct {
		name string
		p    map[string]string
		code string
	}{
		{"one character", accountParams(id, "a", "Secr3t-pass"), "InvalidAccountName.Format"},
		{"33 characters", accountParams(id, "a"+strings.Repeat("b", 32), "Secr3t-pass"), "InvalidAccountName.Format"},
		{"17 characters on 5.6", accountParams(old, "a"+strings.Repeat("b", 16), "Secr3t-pass"), "InvalidAccountName.Format"},
		{"starts with a digit", accountParams(id, "1user", "Secr3t-pass"), "InvalidAccountName.Format"},
		{"ends with an underscore", accountParams(id, "user_", "Secr3t-pass"), "InvalidAccountName.Format"},
		{"hyphen", accountParams(id, "app-user", "Secr3t-pass"), "InvalidAccountName.Format"},
		{"reserved", accountParams(id, "root", "Secr3t-pass"), "InvalidAccountName.Forbid"},
		{"reserved any case", accountParams(id, "Admin", "Secr3t-pass"), "InvalidAccountName.Forbid"},
		{"short password", accountParams(id, "app", "Sh0rt-p"), "InvalidAccountPassword.Format"},
		{"long password", accountParams(id, "app", "Aa1-"+strings.Repeat("x", 29)), "InvalidAccountPassword.Format"},
		{"two classes", accountParams(id, "app", "alllowercase123"), "InvalidAccountPassword.Format"},
		{"foreign character", accountParams(id, "app", "Secr3t pass"), "InvalidAccountPassword.Format"},
		{"description digit first", accountParams(id, "app", "Secr3t-pass", "AccountDescription", "1st"), "InvalidAccountDescription.Format"},
		{"description url", accountParams(id, "app", "Secr3t-pass", "AccountDescription", "https://x"), "InvalidAccountDescription.Format"},
		{"bad type", accountParams(id, "app", "Secr3t-pass", "AccountType", "Sysadmin"), "InvalidParameter"},
		{"db upper case", map[string]string{"DBInstanceId": id, "DBName": "Orders", "CharacterSetName": "utf8"}, "InvalidDBName.Format"},
		{"db 65 characters", map[string]string{"DBInstanceId": id, "DBName": "a" + strings.Repeat("b", 64), "CharacterSetName": "utf8"}, "InvalidDBName.Format"},
		{"db reserved", map[string]string{"DBInstanceId": id, "DBName": "mysql", "CharacterSetName": "utf8"}, "InvalidDBName.Format"},
		{"db charset", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf16"}, "InvalidCharacterSetName.Format"},
		{"db description", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf8", "DBDescription": "x"}, "InvalidDBDescription.Format"},
	}
	for _, tc := range cases {
		action := "CreateAccount"
		if _, isDB := tc.p["DBName"]; isDB {
			action = "CreateDatabase"
		}
		a := e.c.call(action, tc.p)
		if a.status != 400 || a.code() != tc.code {
			t.Errorf("%s: got HTTP %d %s, want 400 %s", tc.name, a.status, a.code(), tc.code)
		}
		if pw := tc.p["AccountPassword"]; pw != "" && strings.Contains(a.raw, pw) {
			t.Errorf("%s: the answer quotes the password: %s", tc.name, a.raw)
		}
	}
	e.c.ok("CreateAccount", accountParams(old, "a"+strings.Repeat("b", 15), "Secr3t-pass"))
	e.c.ok("CreateAccount", accountParams(id, "Mixed_Case1", "Secr3t-pass"))
	e.c.fails("CreateAccount", accountParams("pgm-seedpostgres", "app", "Secr3t-pass"), 400, "InvalidDBInstanceEngineType.Format")
	if n := len(accountItems(e.c.ok("DescribeAccounts", map[string]string{"DBInstanceId": id}))); n != 1 {
		t.Fatalf("%d accounts after the refused creates; want 1", n)
	}
}

// The state file holds the mysql_native_password hash, never the password; the hash is MySQL's.
func TestPasswordNeverInStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newAccountsEnv(t, func(o *Options) { o.StatePath = path })
	id := e.create(nil)
	e.c.ok("CreateAccount", accountParams(id, "app", "First-pass1"))
	e.c.ok("ResetAccountPassword", accountParams(id, "app", "Second-pass2"))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"First-pass1", "Second-pass2"} {
		if strings.Contains(string(data), pw) {
			t.Fatalf("the state file holds the password %q", pw)
		}
	}
	if !strings.Contains(string(data), NativePasswordHash("Second-pass2")) || strings.Contains(string(data), NativePasswordHash("First-pass1")) {
		t.Fatal("the state file does not hold the current password's hash")
	}
	// MySQL's documented hash of "password".
	if got := NativePasswordHash("password"); got != "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19" {
		t.Fatalf("NativePasswordHash(password) = %s", got)
	}
}

// A read-only instance shows its primary's accounts and databases and refuses writes; deleting an
// instance deletes its accounts and databases.
func TestAccountsReadOnlyAndInstanceDeletion(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(nil)
	e.c.ok("CreateAccount", accountParams(id, "app", "Secr3t-pass"))
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "utf8"})
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{
		"RegionId": DefaultRegion, "DBInstanceId": id, "EngineVersion": "8.0", "DBInstanceClass": "mysqlro.n2.medium.1c",
		"DBInstanceStorage": "100", "PayType": "Postpaid", "ZoneId": "cn-hangzhou-i",
	})["DBInstanceId"].(string)
	e.clock.Add(createD)
	if a := e.account(ro, "app"); a["DBInstanceId"] != ro {
		t.Fatalf("read-only instance account: %v", a)
	}
	e.database(ro, "orders")
	e.c.fails("CreateAccount", accountParams(ro, "other", "Secr3t-pass"), 403, "IncorrectDBInstanceType")
	e.c.fails("DeleteDatabase", map[string]string{"DBInstanceId": ro, "DBName": "orders"}, 403, "IncorrectDBInstanceType")

	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": ro})
	e.clock.Add(deleteD)
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
	e.clock.Add(deleteD)
	if _, ok := e.sim.InstanceAccess(id); ok {
		t.Fatal("the deleted instance still has access data")
	}
	e.c.fails("DescribeAccounts", map[string]string{"DBInstanceId": id}, 404, "InvalidDBInstanceId.NotFound")
}

// The Go API and the hook see every change, for the instance and its read-only instances.
func TestInstanceAccessAndHook(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(nil)
	var seen []InstanceAccess
	e.sim.OnAccessChange(func(a InstanceAccess) { seen = append(seen, a) })
	e.c.ok("CreateAccount", accountParams(id, "app", "Secr3t-pass"))
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "orders", "CharacterSetName": "latin1"})
	e.c.ok("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "app", "DBName": "orders", "AccountPrivilege": "DMLOnly"})
	if len(seen) != 3 {
		t.Fatalf("hook called %d times for 3 changes", len(seen))
	}
	last := seen[2]
	if last.InstanceID != id || len(last.Accounts) != 1 || last.Accounts[0].Privileges["orders"] != "DMLOnly" ||
		last.Accounts[0].PasswordHash != NativePasswordHash("Secr3t-pass") || len(last.Databases) != 1 || last.Databases[0].CharacterSet != "latin1" {
		t.Fatalf("hook snapshot: %+v", last)
	}
	e.clock.Add(accountD)
	got, ok := e.sim.InstanceAccess(id)
	if !ok || got.Accounts[0].Status != accountAvailable || got.Databases[0].Status != databaseRunning || got.Engine != "MySQL" {
		t.Fatalf("InstanceAccess: %+v %v", got, ok)
	}
	e.sim.OnAccessChange(nil)
	e.c.ok("DeleteAccount", map[string]string{"DBInstanceId": id, "AccountName": "app"})
	if len(seen) != 3 {
		t.Fatal("a removed hook was called")
	}
}

// DescribeAccounts pages by 30 by default.
func TestDescribeAccountsPaging(t *testing.T) {
	e := newAccountsEnv(t, func(o *Options) { o.AccountDuration = 0 })
	id := e.create(nil)
	for i := range 35 {
		e.c.ok("CreateAccount", accountParams(id, "user"+string(rune('a'+i/26))+string(rune('a'+i%26)), "Secr3t-pass"))
	}
	first := e.c.ok("DescribeAccounts", map[string]string{"DBInstanceId": id})
	second := e.c.ok("DescribeAccounts", map[string]string{"DBInstanceId": id, "PageNumber": "2"})
	if len(accountItems(first)) != 30 || len(accountItems(second)) != 5 || first["TotalRecordCount"].(float64) != 35 {
		t.Fatalf("pages of %d and %d, total %v", len(accountItems(first)), len(accountItems(second)), first["TotalRecordCount"])
	}
	e.c.fails("DescribeAccounts", map[string]string{"DBInstanceId": id, "PageSize": "10"}, 400, "InvalidParameter")
}

// Hostile account and database parameters never give a 5xx, a crash, or an echoed password.
func TestAccountsBadInputNeverServerError(t *testing.T) {
	e := newAccountsEnv(t)
	id := e.create(nil)
	values := []string{"", " ", "-1", "0", "99999999999999999999", "abc", "%00", "\u00e9\u4e2d", strings.Repeat("z", 300), "Super", "ReadWrite,ReadOnly", ",", "a,,b", "Secr3t-pass"}
	names := []string{"AccountName", "AccountPassword", "AccountType", "AccountDescription", "DBName", "CharacterSetName", "DBDescription",
		"AccountPrivilege", "DBStatus", "PageSize", "PageNumber"}
	for _, action := range []string{"CreateAccount", "DescribeAccounts", "ResetAccountPassword", "ModifyAccountDescription", "DeleteAccount",
		"CreateDatabase", "DescribeDatabases", "ModifyDBDescription", "DeleteDatabase", "GrantAccountPrivilege", "RevokeAccountPrivilege"} {
		for i, v := range values {
			p := map[string]string{"DBInstanceId": id}
			for j, name := range names {
				if (i+j)%3 != 1 {
					p[name] = v
				}
			}
			if _, ok := p["AccountPassword"]; ok {
				p["AccountPassword"] = "Qx7-" + v // a marker no other parameter carries
			}
			a := e.c.call(action, p)
			if a.status >= 500 {
				t.Fatalf("%s %v: HTTP %d %s", action, p, a.status, a.raw)
			}
			if pw, ok := p["AccountPassword"]; ok && strings.Contains(a.raw, pw) {
				t.Fatalf("%s: the answer quotes the password: %s", action, a.raw)
			}
		}
	}
	if n := e.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("%d internal errors", n)
	}
}
