package mysqlendpoint_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

const (
	adminAccount  = "root_admin"
	adminPassword = "Passw0rd-2026"
	// erReadOnly is ER_OPTION_PREVENTS_STATEMENT, MySQL's answer to a write on a read-only server.
	erReadOnly = 1290
)

// newRunningInstance creates a MySQL 8.0 instance whose whitelist lets loopback in, with a privileged account,
// and returns its id with a connection of that account.
func (f *simFixture) newRunningInstance(t *testing.T) (string, *sql.Conn) {
	t.Helper()
	ctx := context.Background()
	created, err := f.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "127.0.0.1",
	})
	mustDo(t, "CreateDBInstance", err)
	id := created.DBInstanceID
	f.clock.advance(createDuration)
	mustDo(t, "CreateAccount", f.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: adminAccount, AccountPassword: adminPassword, AccountType: "Super"}))
	f.clock.advance(accountDuration)
	conn, err := f.dial(t, id, adminAccount, adminPassword, "")
	mustDo(t, "connect as the privileged account", err)
	return id, conn
}

// accountsOf is DescribeAccounts: account name -> database -> "privilege detail".
func (f *simFixture) accountsOf(t *testing.T, id string) map[string]map[string]string {
	t.Helper()
	resp, err := f.api.DescribeAccounts(context.Background(), &rdsapi.DescribeAccountsRequest{DBInstanceID: id})
	mustDo(t, "DescribeAccounts", err)
	out := map[string]map[string]string{}
	for _, a := range resp.Accounts.DBInstanceAccount {
		grants := map[string]string{}
		for _, p := range a.DatabasePrivileges.DatabasePrivilege {
			grants[p.DBName] = p.AccountPrivilege + " " + p.AccountPrivilegeDetail
		}
		out[a.AccountName] = grants
	}
	return out
}

// databasesOf is DescribeDatabases: name -> "status character-set".
func (f *simFixture) databasesOf(t *testing.T, id string) map[string]string {
	t.Helper()
	resp, err := f.api.DescribeDatabases(context.Background(), &rdsapi.DescribeDatabasesRequest{DBInstanceID: id})
	mustDo(t, "DescribeDatabases", err)
	out := map[string]string{}
	for _, db := range resp.Databases.Database {
		out[db.DBName] = db.DBStatus + " " + db.CharacterSetName
	}
	return out
}

func queryColumn(t *testing.T, conn *sql.Conn, query string) []string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), query)
	mustDo(t, query, err)
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var v string
		mustDo(t, query, rows.Scan(&v))
		out = append(out, v)
	}
	mustDo(t, query, rows.Err())
	return out
}

// What SQL creates, changes and drops is what the API reports, and the API's changes are what SQL sees: the
// endpoint and the API are one store, across API changes and restarts.
func TestSQLAndAPIAreOneStore(t *testing.T) {
	f := newSimFixture(t)
	ctx := context.Background()
	id, admin := f.newRunningInstance(t)

	mustExec(t, admin, "CREATE DATABASE shop")
	mustExec(t, admin, "CREATE TABLE shop.orders (id INT PRIMARY KEY)")
	mustExec(t, admin, "INSERT INTO shop.orders VALUES (1), (2), (3)")
	mustExec(t, admin, "CREATE USER 'reader'@'%' IDENTIFIED BY 'Reader-pass1'")
	mustExec(t, admin, "GRANT SELECT ON shop.* TO 'reader'@'%'")
	mustExec(t, admin, "CREATE USER 'writer'@'%' IDENTIFIED BY 'Writer-pass1'")
	mustExec(t, admin, "GRANT SELECT, SHOW VIEW ON shop.* TO 'writer'@'%'")

	if got := f.databasesOf(t, id); got["shop"] != "Running utf8mb4" {
		t.Fatalf("DescribeDatabases after CREATE DATABASE = %v, want shop Running utf8mb4", got)
	}
	accounts := f.accountsOf(t, id)
	if got := accounts["reader"]["shop"]; got != "Custom SELECT" {
		t.Fatalf("DescribeAccounts reports reader's SELECT grant as %q, want Custom SELECT (all: %v)", got, accounts)
	}
	if got := accounts["writer"]["shop"]; !strings.HasPrefix(got, "ReadOnly ") {
		t.Fatalf("DescribeAccounts reports writer's SELECT, SHOW VIEW grant as %q, want ReadOnly", got)
	}

	// API changes keep what SQL made: the database and its rows, the accounts and their passwords.
	mustDo(t, "CreateDatabase", f.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "audit", CharacterSetName: "utf8mb4"}))
	f.clock.advance(accountDuration)
	mustDo(t, "GrantAccountPrivilege", f.api.GrantAccountPrivilege(ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: id, AccountName: "writer", DBNames: []string{"shop", "audit"}, AccountPrivilege: "ReadWrite"}))
	writer, err := f.dial(t, id, "writer", "Writer-pass1", "shop")
	mustDo(t, "login with the password SQL set, after API changes", err)
	mustExec(t, writer, "INSERT INTO orders VALUES (4)")
	grants := strings.Join(queryColumn(t, admin, "SHOW GRANTS FOR 'writer'@'%'"), "\n")
	if !strings.Contains(grants, "INSERT") || !strings.Contains(grants, "`audit`") {
		t.Fatalf("SHOW GRANTS after GrantAccountPrivilege ReadWrite on shop,audit:\n%s", grants)
	}
	mustDo(t, "ResetAccountPassword", f.api.ResetAccountPassword(ctx, id, "reader", "Reader-pass2"))
	reader, err := f.dial(t, id, "reader", "Reader-pass2", "shop")
	mustDo(t, "login with the password the API set on an account SQL created", err)
	if got := mustQueryString(t, reader, "SELECT COUNT(*) FROM orders"); got != "4" {
		t.Fatalf("rows of the SQL-made database after API changes = %s, want 4", got)
	}
	if got := f.accountsOf(t, id)["reader"]["shop"]; got != "Custom SELECT" {
		t.Fatalf("reader's grant after ResetAccountPassword = %q, want Custom SELECT kept", got)
	}

	// A restart keeps all of it.
	mustDo(t, "RestartDBInstance", f.api.RestartDBInstance(ctx, id))
	f.clock.advance(restartDuration)
	reader, err = f.dial(t, id, "reader", "Reader-pass2", "shop")
	mustDo(t, "login after the restart", err)
	if got := mustQueryString(t, reader, "SELECT COUNT(*) FROM orders"); got != "4" {
		t.Fatalf("rows after the restart = %s, want 4", got)
	}
	wantMySQLError(t, "reader inserts after the restart", execSQL(t, reader, "INSERT INTO orders VALUES (5)"), erTableAccessDenied)

	// ALTER USER, REVOKE and DROP USER reach the API.
	admin, err = f.dial(t, id, adminAccount, adminPassword, "")
	mustDo(t, "connect as the privileged account after the restart", err)
	mustExec(t, admin, "ALTER USER 'reader'@'%' IDENTIFIED BY 'Reader-pass3'")
	mustExec(t, admin, "REVOKE SELECT ON shop.* FROM 'reader'@'%'")
	mustExec(t, admin, "DROP USER 'writer'@'%'")
	accounts = f.accountsOf(t, id)
	if _, ok := accounts["writer"]; ok {
		t.Fatalf("DescribeAccounts still lists writer after DROP USER: %v", accounts)
	}
	if len(accounts["reader"]) != 0 {
		t.Fatalf("reader's grants after REVOKE = %v, want none", accounts["reader"])
	}
	mustDo(t, "ModifyAccountDescription", f.api.ModifyAccountDescription(ctx, id, "reader", "kept"))
	_, err = f.dial(t, id, "reader", "Reader-pass3", "")
	mustDo(t, "login with the password ALTER USER set, after an API change", err)

	// A database dropped with SQL is gone from the API and does not come back after API changes or restarts.
	mustExec(t, admin, "DROP DATABASE shop")
	if got := f.databasesOf(t, id); got["shop"] != "" {
		t.Fatalf("DescribeDatabases after DROP DATABASE = %v", got)
	}
	mustDo(t, "CreateDatabase", f.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "later", CharacterSetName: "utf8"}))
	f.clock.advance(accountDuration)
	mustDo(t, "RestartDBInstance", f.api.RestartDBInstance(ctx, id))
	f.clock.advance(restartDuration)
	admin, err = f.dial(t, id, adminAccount, adminPassword, "")
	mustDo(t, "connect after the second restart", err)
	if dbs := queryColumn(t, admin, "SHOW DATABASES"); slices.Contains(dbs, "shop") || !slices.Contains(dbs, "later") || !slices.Contains(dbs, "audit") {
		t.Fatalf("SHOW DATABASES = %v: want audit and later, not the dropped shop", dbs)
	}
	if n := f.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("internal errors = %d", n)
	}
}

// A read-only instance's endpoint reports @@read_only = 1, refuses writes with MySQL's 1290, and serves the rows
// written on its primary.
func TestReadOnlyInstanceEndpointIsReadOnly(t *testing.T) {
	f := newSimFixture(t)
	ctx := context.Background()
	primary, admin := f.newRunningInstance(t)
	mustDo(t, "CreateDatabase", f.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: primary, DBName: "shop", CharacterSetName: "utf8mb4"}))
	f.clock.advance(accountDuration)
	if got := f.databasesOf(t, primary); got["shop"] != "Running utf8mb4" { // the request brings the endpoint up to date
		t.Fatalf("DescribeDatabases = %v", got)
	}
	mustExec(t, admin, "CREATE TABLE shop.orders (id INT PRIMARY KEY)")
	mustExec(t, admin, "INSERT INTO shop.orders VALUES (1), (2)")

	created, err := f.api.CreateReadOnlyDBInstance(ctx, &rdsapi.CreateReadOnlyDBInstanceRequest{
		PrimaryDBInstanceID: primary, ZoneID: "cn-hangzhou-i", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", VPCID: "vpc-test", VSwitchID: "vsw-test",
	})
	mustDo(t, "CreateReadOnlyDBInstance", err)
	replica := created.DBInstanceID
	f.clock.advance(createDuration)
	mustDo(t, "ModifySecurityIps", f.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: replica, SecurityIps: "127.0.0.1"}))
	ro, err := f.dial(t, replica, adminAccount, adminPassword, "shop")
	mustDo(t, "connect to the read-only instance with the primary's account", err)
	if got := mustQueryString(t, ro, "SELECT @@read_only"); got != "1" {
		t.Fatalf("@@read_only on a read-only instance = %q, want 1", got)
	}
	if got := mustQueryString(t, ro, "SELECT COUNT(*) FROM orders"); got != "2" {
		t.Fatalf("rows on the read-only instance = %s, want the primary's 2", got)
	}
	mustExec(t, admin, "INSERT INTO shop.orders VALUES (3)")
	if got := mustQueryString(t, ro, "SELECT COUNT(*) FROM orders"); got != "3" {
		t.Fatalf("rows on the read-only instance after a write on the primary = %s, want 3", got)
	}
	for _, write := range []string{"INSERT INTO orders VALUES (9)", "CREATE TABLE t2 (id INT PRIMARY KEY)", "CREATE DATABASE other", "CREATE USER 'x'@'%' IDENTIFIED BY 'Pass-word1'"} {
		err := execSQL(t, ro, write)
		wantMySQLError(t, write+" on the read-only instance", err, erReadOnly)
		if !strings.Contains(err.Error(), "--read-only option") {
			t.Fatalf("%s: %v, want MySQL's ER_OPTION_PREVENTS_STATEMENT text", write, err)
		}
	}
	if got := mustQueryString(t, admin, "SELECT @@read_only"); got != "0" {
		t.Fatalf("@@read_only on the primary = %q, want 0", got)
	}
	if got := f.databasesOf(t, primary); len(got) != 1 {
		t.Fatalf("the refused writes reached the primary's databases: %v", got)
	}
	if n := f.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("internal errors = %d", n)
	}
}
