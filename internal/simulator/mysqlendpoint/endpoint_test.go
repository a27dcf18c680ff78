package mysqlendpoint_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

func init() {
	// The client logs every connection the endpoint drops on purpose.
	_ = mysql.SetLogger(log.New(io.Discard, "", 0))
}

func startEndpoint(t *testing.T, opts mysqlendpoint.Options) *mysqlendpoint.Endpoint {
	t.Helper()
	if opts.AllowedClients == nil {
		opts.AllowedClients = []string{"127.0.0.1"}
	}
	ep, err := mysqlendpoint.Start(opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := ep.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return ep
}

// connect opens one client connection (database/sql pins it) as user/password, with database as default schema.
func connect(t testing.TB, ep *mysqlendpoint.Endpoint, user, password, database string) (*sql.Conn, error) {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = user, password, "tcp", ep.Addr(), database
	return openConn(t, cfg)
}

// openConn opens one client connection with the driver configuration.
func openConn(t testing.TB, cfg *mysql.Config) (*sql.Conn, error) {
	t.Helper()
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 5*time.Second, 5*time.Second, 5*time.Second
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatalf("connector: %v", err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { _ = db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, nil
}

func mustConnect(t testing.TB, ep *mysqlendpoint.Endpoint, user, password, database string) *sql.Conn {
	t.Helper()
	conn, err := connect(t, ep, user, password, database)
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	return conn
}

func execSQL(t *testing.T, conn *sql.Conn, query string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := conn.ExecContext(ctx, query)
	return err
}

func mustExec(t *testing.T, conn *sql.Conn, query string) {
	t.Helper()
	if err := execSQL(t, conn, query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func queryString(t *testing.T, conn *sql.Conn, query string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var value string
	err := conn.QueryRowContext(ctx, query).Scan(&value)
	return value, err
}

func mustQueryString(t *testing.T, conn *sql.Conn, query string) string {
	t.Helper()
	value, err := queryString(t, conn, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return value
}

func mysqlErrorNumber(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

func wantMySQLError(t *testing.T, what string, err error, number uint16) {
	t.Helper()
	if got := mysqlErrorNumber(err); got != number {
		t.Fatalf("%s: want MySQL error %d, got %v", what, number, err)
	}
}

const (
	erAccessDenied      = 1045 // bad password or unknown account
	erDBAccessDenied    = 1044 // no privilege on the database
	erTableAccessDenied = 1142 // a command the account may not run
	erHostNotAllowed    = 1130
	erServerShutdown    = 1053
)

func TestLoginWithNativePasswordHash(t *testing.T) {
	ep := startEndpoint(t, mysqlendpoint.Options{})
	if _, err := connect(t, ep, "app", "Secret-123", ""); mysqlErrorNumber(err) != erAccessDenied {
		t.Fatalf("login before the account exists: want %d, got %v", erAccessDenied, err)
	}
	// The simulator stores SHA1(SHA1(password)); bare hex and "*HEX" are both accepted.
	if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Secret-123")[1:], false); err != nil {
		t.Fatal(err)
	}
	mustConnect(t, ep, "app", "Secret-123", "")
	_, err := connect(t, ep, "app", "wrong", "")
	wantMySQLError(t, "wrong password", err, erAccessDenied)

	if err := ep.SetPasswordHash("app", mysqlendpoint.NativePasswordHash("Other-456")); err != nil {
		t.Fatal(err)
	}
	_, err = connect(t, ep, "app", "Secret-123", "")
	wantMySQLError(t, "old password after reset", err, erAccessDenied)
	mustConnect(t, ep, "app", "Other-456", "")

	if err := ep.DropAccount("app"); err != nil {
		t.Fatal(err)
	}
	_, err = connect(t, ep, "app", "Other-456", "")
	wantMySQLError(t, "dropped account", err, erAccessDenied)

	if err := ep.CreateAccount("bad", "not-a-hash", false); err == nil {
		t.Fatal("CreateAccount accepted a malformed hash")
	}
}

func TestPrivilegesFollowAlibabaModes(t *testing.T) {
	ep := startEndpoint(t, mysqlendpoint.Options{})
	for _, db := range []string{"app", "other"} {
		if err := ep.CreateDatabase(db, "utf8mb4"); err != nil {
			t.Fatal(err)
		}
	}
	hash := mysqlendpoint.NativePasswordHash("Pw-12345")
	for _, a := range []struct {
		name       string
		privileged bool
		privilege  mysqlendpoint.Privilege
	}{{"admin", true, ""}, {"rw", false, mysqlendpoint.ReadWrite}, {"ro", false, mysqlendpoint.ReadOnly},
		{"ddl", false, mysqlendpoint.DDLOnly}, {"dml", false, mysqlendpoint.DMLOnly}} {
		if err := ep.CreateAccount(a.name, hash, a.privileged); err != nil {
			t.Fatal(err)
		}
		if a.privilege != "" {
			if err := ep.Grant(a.name, "app", a.privilege); err != nil {
				t.Fatal(err)
			}
		}
	}

	// The privileged account can do everything on every database.
	admin := mustConnect(t, ep, "admin", "Pw-12345", "")
	mustExec(t, admin, "CREATE TABLE other.o (id INT PRIMARY KEY)")
	mustExec(t, admin, "CREATE TABLE app.t (id INT PRIMARY KEY, v VARCHAR(20))")
	mustExec(t, admin, "INSERT INTO app.t VALUES (1, 'one')")

	rw := mustConnect(t, ep, "rw", "Pw-12345", "app")
	mustExec(t, rw, "INSERT INTO t VALUES (2, 'two')")
	mustExec(t, rw, "CREATE TABLE rw_t (id INT PRIMARY KEY)")
	wantMySQLError(t, "rw reads another database", execSQL(t, rw, "SELECT * FROM other.o"), erDBAccessDenied)
	_, err := connect(t, ep, "rw", "Pw-12345", "other")
	wantMySQLError(t, "rw opens another database", err, erDBAccessDenied)

	ro := mustConnect(t, ep, "ro", "Pw-12345", "app")
	if got := mustQueryString(t, ro, "SELECT COUNT(*) FROM t"); got != "2" {
		t.Fatalf("ro sees %s rows, want 2", got)
	}
	wantMySQLError(t, "ro inserts", execSQL(t, ro, "INSERT INTO t VALUES (3, 'x')"), erTableAccessDenied)
	wantMySQLError(t, "ro creates a table", execSQL(t, ro, "CREATE TABLE ro_t (id INT PRIMARY KEY)"), erTableAccessDenied)

	ddl := mustConnect(t, ep, "ddl", "Pw-12345", "app")
	mustExec(t, ddl, "CREATE TABLE ddl_t (id INT PRIMARY KEY)")
	wantMySQLError(t, "ddl inserts", execSQL(t, ddl, "INSERT INTO t VALUES (3, 'x')"), erTableAccessDenied)

	dml := mustConnect(t, ep, "dml", "Pw-12345", "app")
	mustExec(t, dml, "INSERT INTO t VALUES (3, 'three')")
	wantMySQLError(t, "dml creates a table", execSQL(t, dml, "CREATE TABLE dml_t (id INT PRIMARY KEY)"), erTableAccessDenied)

	// A revoke applies to the next statement of an open session too.
	if err := ep.Revoke("ro", "app"); err != nil {
		t.Fatal(err)
	}
	wantMySQLError(t, "ro after revoke", execSQL(t, ro, "SELECT * FROM t"), erDBAccessDenied)

	// Dropping a database drops it with its grants.
	if err := ep.DropDatabase("app"); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ep.Databases()); got != "[other]" {
		t.Fatalf("databases after drop: %s", got)
	}
	if err := ep.CreateDatabase("app", ""); err != nil {
		t.Fatal(err)
	}
	_, err = connect(t, ep, "rw", "Pw-12345", "app")
	wantMySQLError(t, "rw on a re-created database", err, erDBAccessDenied)

	if err := ep.Grant("rw", "app", "Owner"); err == nil {
		t.Fatal("Grant accepted an unknown privilege")
	}
}

func TestWhitelistRefusesOtherClients(t *testing.T) {
	ep := startEndpoint(t, mysqlendpoint.Options{AllowedClients: []string{"10.0.0.0/8", "192.168.1.7"}})
	if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Pw-12345"), true); err != nil {
		t.Fatal(err)
	}
	_, err := connect(t, ep, "app", "Pw-12345", "")
	wantMySQLError(t, "loopback client outside the whitelist", err, erHostNotAllowed)

	for _, list := range [][]string{{"127.0.0.1"}, {"127.0.0.0/8"}, {"0.0.0.0/0"}} {
		if err := ep.SetAllowedClients(list); err != nil {
			t.Fatal(err)
		}
		mustConnect(t, ep, "app", "Pw-12345", "")
	}
	if err := ep.SetAllowedClients(nil); err != nil {
		t.Fatal(err)
	}
	_, err = connect(t, ep, "app", "Pw-12345", "")
	wantMySQLError(t, "empty whitelist", err, erHostNotAllowed)

	if err := ep.SetAllowedClients([]string{"300.1.1.1"}); err == nil {
		t.Fatal("SetAllowedClients accepted a bad address")
	}
}

func TestRestartDropsAndRefusesConnectionsKeepsDataAndAppliesSettings(t *testing.T) {
	ep := startEndpoint(t, mysqlendpoint.Options{Settings: mysqlendpoint.Settings{Version: "8.0.36", Doublewrite: true}})
	if err := ep.CreateDatabase("app", "utf8mb4"); err != nil {
		t.Fatal(err)
	}
	if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Pw-12345"), false); err != nil {
		t.Fatal(err)
	}
	if err := ep.Grant("app", "app", mysqlendpoint.ReadWrite); err != nil {
		t.Fatal(err)
	}
	conn := mustConnect(t, ep, "app", "Pw-12345", "app")
	if got := mustQueryString(t, conn, "SELECT @@version"); got != "8.0.36" {
		t.Fatalf("@@version = %q, want 8.0.36", got)
	}
	if got := mustQueryString(t, conn, "SELECT VERSION()"); got != "8.0.36" {
		t.Fatalf("VERSION() = %q, want 8.0.36", got)
	}
	if got := mustQueryString(t, conn, "SELECT @@innodb_doublewrite"); got != "ON" {
		t.Fatalf("@@innodb_doublewrite = %q, want ON", got)
	}
	if err := execSQL(t, conn, "SET innodb_doublewrite = 'OFF'"); err == nil || !strings.Contains(err.Error(), "read only") {
		t.Fatalf("SET innodb_doublewrite: want a read-only error, got %v", err)
	}
	mustExec(t, conn, "CREATE TABLE kept (id INT PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO kept VALUES (1), (2), (3)")
	if n := ep.OpenConnections(); n != 1 {
		t.Fatalf("open connections = %d, want 1", n)
	}

	ep.BeginRestart()
	if n := ep.OpenConnections(); n != 0 {
		t.Fatalf("open connections during restart = %d, want 0", n)
	}
	if err := execSQL(t, conn, "SELECT 1"); err == nil {
		t.Fatal("a connection opened before the restart still works during it")
	}
	_, err := connect(t, ep, "app", "Pw-12345", "app")
	wantMySQLError(t, "connect during restart", err, erServerShutdown)

	if err := ep.EndRestart(mysqlendpoint.Settings{Version: "8.0.36", Doublewrite: false}); err != nil {
		t.Fatal(err)
	}
	after := mustConnect(t, ep, "app", "Pw-12345", "app")
	if got := mustQueryString(t, after, "SELECT @@innodb_doublewrite"); got != "OFF" {
		t.Fatalf("@@innodb_doublewrite after restart = %q, want OFF", got)
	}
	var name, value string
	if err := after.QueryRowContext(context.Background(), "SHOW VARIABLES LIKE 'innodb_doublewrite'").Scan(&name, &value); err != nil || value != "OFF" {
		t.Fatalf("SHOW VARIABLES LIKE 'innodb_doublewrite' = %q, %v; want OFF", value, err)
	}
	if got := mustQueryString(t, after, "SELECT COUNT(*) FROM kept"); got != "3" {
		t.Fatalf("rows after restart = %s, want 3", got)
	}
	if err := ep.EndRestart(mysqlendpoint.Settings{}); err == nil {
		t.Fatal("EndRestart without BeginRestart succeeded")
	}
}

func TestCloseDropsConnectionsAndStopsListening(t *testing.T) {
	ep, err := mysqlendpoint.Start(mysqlendpoint.Options{AllowedClients: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Pw-12345"), true); err != nil {
		t.Fatal(err)
	}
	conn := mustConnect(t, ep, "app", "Pw-12345", "")
	if err := ep.Close(); err != nil {
		t.Fatal(err)
	}
	if err := execSQL(t, conn, "SELECT 1"); err == nil {
		t.Fatal("a connection survived Close")
	}
	if _, err := connect(t, ep, "app", "Pw-12345", ""); err == nil {
		t.Fatal("connected after Close")
	}
	if err := ep.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// Account statements answer like MySQL's instead of dropping the connection (issue 24 §4: errno 2013): a user
// created, granted, changed and dropped with SQL logs in, reads what it was granted, and is gone after DROP USER.
func TestAccountStatementsAnswer(t *testing.T) {
	ep := startEndpoint(t, mysqlendpoint.Options{})
	if err := ep.CreateAccount("admin", mysqlendpoint.NativePasswordHash("Pw-12345"), true); err != nil {
		t.Fatal(err)
	}
	admin := mustConnect(t, ep, "admin", "Pw-12345", "")
	mustExec(t, admin, "CREATE DATABASE shop")
	mustExec(t, admin, "CREATE TABLE shop.t (id INT PRIMARY KEY)")
	mustExec(t, admin, "CREATE USER 'sqluser'@'%' IDENTIFIED BY 'First-pass1'")
	mustExec(t, admin, "GRANT SELECT ON shop.* TO 'sqluser'@'%'")
	user := mustConnect(t, ep, "sqluser", "First-pass1", "shop")
	if got := mustQueryString(t, user, "SELECT COUNT(*) FROM t"); got != "0" {
		t.Fatalf("sqluser counts %s rows", got)
	}
	wantMySQLError(t, "sqluser inserts", execSQL(t, user, "INSERT INTO t VALUES (1)"), erTableAccessDenied)
	mustExec(t, admin, "ALTER USER 'sqluser'@'%' IDENTIFIED BY 'Second-pass2'")
	mustConnect(t, ep, "sqluser", "Second-pass2", "shop")
	mustExec(t, admin, "REVOKE SELECT ON shop.* FROM 'sqluser'@'%'")
	mustExec(t, admin, "DROP USER 'sqluser'@'%'")
	if _, err := connect(t, ep, "sqluser", "Second-pass2", "shop"); err == nil {
		t.Fatal("a dropped user logged in")
	}
	if got := mustQueryString(t, admin, "SELECT 1"); got != "1" {
		t.Fatalf("the admin session after the statements answers %s", got)
	}
}
