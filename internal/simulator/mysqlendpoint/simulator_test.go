package mysqlendpoint_test

import (
	"context"
	"database/sql"
	"net"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
	"github.com/openrds/terraform-provider-rds/internal/simulator/simtest"
)

// clock is the simulator's injected clock: the test moves it, so restarts last exactly as long as the test says.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const (
	createDuration  = time.Minute
	restartDuration = time.Minute
	accountDuration = 10 * time.Second
)

type simFixture struct {
	sim   *simulator.Simulator
	api   *rdsapi.Client
	clock *clock
}

func newSimFixture(t *testing.T) *simFixture {
	t.Helper()
	clk := &clock{now: time.Now().UTC()}
	sim, err := simulator.New(simulator.Options{
		CreateDuration: createDuration, RestartDuration: restartDuration, DeleteDuration: time.Minute,
		FlagLag: time.Second, AccountDuration: accountDuration, Now: clk.Now, Endpoints: mysqlendpoint.ForSimulator,
	})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(sim)
	t.Cleanup(server.Close)
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Errorf("closing the endpoints: %v", err)
		}
	})
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	api, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &simFixture{sim: sim, api: api, clock: clk}
}

// dial opens one client connection to the instance's endpoint at the address Describe reports.
func (f *simFixture) dial(t *testing.T, id, user, password, database string) (*sql.Conn, error) {
	t.Helper()
	attr, err := f.api.DescribeDBInstanceAttribute(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName = user, password, "tcp", database
	cfg.Addr = net.JoinHostPort(attr.ConnectionString, string(attr.Port))
	return openConn(t, cfg)
}

func TestSimulatorInstanceServesWhatTheAPICreated(t *testing.T) {
	f := newSimFixture(t)
	ctx := context.Background()
	created, err := f.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "127.0.0.1",
		OptimizedWrites: rdsapi.OptimizedWritesOn,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	attr, err := f.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if attr.ConnectionString != "127.0.0.1" || attr.Port == "3306" || attr.Port == "" {
		t.Fatalf("Describe reports %s:%s, want the loopback endpoint", attr.ConnectionString, attr.Port)
	}
	if address, ok := f.sim.EndpointAddress(id); !ok || address != net.JoinHostPort(attr.ConnectionString, string(attr.Port)) {
		t.Fatalf("EndpointAddress = %q, %v; Describe says %s:%s", address, ok, attr.ConnectionString, attr.Port)
	}
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "")
	wantMySQLError(t, "connect while Creating", err, erServerShutdown)

	f.clock.advance(createDuration)
	mustDo(t, "CreateDatabase", f.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "appdb", CharacterSetName: "utf8mb4"}))
	mustDo(t, "CreateAccount", f.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "app_user", AccountPassword: "Passw0rd-2026"}))
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "")
	wantMySQLError(t, "login while the account is Unavailable", err, erAccessDenied)
	f.clock.advance(accountDuration)
	mustDo(t, "GrantAccountPrivilege", f.api.GrantAccountPrivilege(ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: id, AccountName: "app_user", DBNames: []string{"appdb"}, AccountPrivilege: "ReadWrite"}))

	_, err = f.dial(t, id, "app_user", "wrong-Passw0rd", "appdb")
	wantMySQLError(t, "wrong password", err, erAccessDenied)
	conn, err := f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	mustDo(t, "connect", err)
	if got := mustQueryString(t, conn, "SELECT @@version"); got != "8.0.36" {
		t.Fatalf("@@version = %q for EngineVersion 8.0", got)
	}
	if got := mustQueryString(t, conn, "SELECT @@innodb_doublewrite"); got != "OFF" {
		t.Fatalf("@@innodb_doublewrite = %q with 16K atomic write on, want OFF", got)
	}
	mustExec(t, conn, "CREATE TABLE orders (id INT PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO orders VALUES (1), (2)")

	// Turning 16K atomic write off restarts the instance: the open connection is dropped, new ones are refused
	// until the restart ends, and only then does the engine report the doublewrite buffer on.
	restartsBefore := f.sim.Stats().Restarts[id]
	if _, err := f.api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: "mysql.n2.medium.2c", OptimizedWrites: rdsapi.OptimizedWritesOff}); err != nil {
		t.Fatal(err)
	}
	if got := f.sim.Stats().Restarts[id]; got != restartsBefore+1 {
		t.Fatalf("restarts = %d, want %d", got, restartsBefore+1)
	}
	if err := execSQL(t, conn, "SELECT 1"); err == nil {
		t.Fatal("a connection opened before the restart still works during it")
	}
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	wantMySQLError(t, "connect during the restart", err, erServerShutdown)
	f.clock.advance(restartDuration / 2)
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	wantMySQLError(t, "connect half-way through the restart", err, erServerShutdown)

	// The restart ends with no API request in between: the connection attempt itself brings the endpoint up.
	f.clock.advance(restartDuration / 2)
	after, err := f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	mustDo(t, "connect", err)
	if got := mustQueryString(t, after, "SELECT @@innodb_doublewrite"); got != "ON" {
		t.Fatalf("@@innodb_doublewrite = %q after turning 16K atomic write off, want ON", got)
	}
	if got := mustQueryString(t, after, "SELECT COUNT(*) FROM orders"); got != "2" {
		t.Fatalf("rows after the restart = %s, want 2", got)
	}

	// The whitelist: without 127.0.0.1 a loopback client is refused.
	mustDo(t, "ModifySecurityIps", f.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "10.0.0.0/8"}))
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	wantMySQLError(t, "loopback client outside the whitelist", err, erHostNotAllowed)
	mustDo(t, "ModifySecurityIps", f.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1"}))

	// A new password applies to the next login; a revoked privilege to the next statement.
	mustDo(t, "ResetAccountPassword", f.api.ResetAccountPassword(ctx, id, "app_user", "NewPassw0rd-2026"))
	_, err = f.dial(t, id, "app_user", "Passw0rd-2026", "appdb")
	wantMySQLError(t, "old password after ResetAccountPassword", err, erAccessDenied)
	fresh, err := f.dial(t, id, "app_user", "NewPassw0rd-2026", "appdb")
	mustDo(t, "connect", err)
	mustDo(t, "RevokeAccountPrivilege", f.api.RevokeAccountPrivilege(ctx, id, "app_user", []string{"appdb"}))
	wantMySQLError(t, "select after the revoke", execSQL(t, fresh, "SELECT * FROM orders"), erDBAccessDenied)

	// Deleting the instance closes its endpoint.
	port, _ := strconv.Atoi(string(attr.Port))
	mustDo(t, "DeleteDBInstance", f.api.DeleteDBInstance(ctx, id))
	if _, ok := f.sim.EndpointAddress(id); ok {
		t.Fatal("the endpoint of a deleted instance is still served")
	}
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second); err == nil {
		_ = c.Close()
		t.Fatal("the endpoint's port still accepts connections after DeleteDBInstance")
	}
	if n := f.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("internal errors = %d", n)
	}
}

func mustDo(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// With instant transitions (zero durations) a restart never shows a non-Running status, yet it still drops the
// connections open before it.
func TestSimulatorInstantRestartStillDropsConnections(t *testing.T) {
	sim, api, _ := simtest.Start(t)
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "5.7", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	f := &simFixture{sim: sim, api: api}
	ctx := context.Background()
	mustDo(t, "ModifySecurityIps", api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1"}))
	mustDo(t, "CreateAccount", api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "root_admin", AccountPassword: "Passw0rd-2026", AccountType: "Super"}))
	conn, err := f.dial(t, id, "root_admin", "Passw0rd-2026", "")
	mustDo(t, "connect", err)
	if got := mustQueryString(t, conn, "SELECT @@version"); got != "5.7.44" {
		t.Fatalf("@@version = %q for EngineVersion 5.7", got)
	}
	mustDo(t, "RestartDBInstance", api.RestartDBInstance(ctx, id))
	if err := execSQL(t, conn, "SELECT 1"); err == nil {
		t.Fatal("a connection opened before an instant restart still works after it")
	}
	again, err := f.dial(t, id, "root_admin", "Passw0rd-2026", "")
	mustDo(t, "connect after the restart", err)
	mustQueryString(t, again, "SELECT 1")
}
