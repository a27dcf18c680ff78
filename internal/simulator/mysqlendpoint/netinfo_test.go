package mysqlendpoint_test

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// dialByName connects with go-sql-driver/mysql to a connection string and port the API handed out, through the
// simulator's name service.
func (f *simFixture) dialByName(t *testing.T, address, user, password, database string) (*sql.Conn, error) {
	t.Helper()
	network := "rdssim-" + t.Name()
	mysql.RegisterDialContext(network, f.sim.DialEndpoint)
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName, cfg.Addr = user, password, network, database, address
	return openConn(t, cfg)
}

// endpointAddress is the instance's public (or internal) connection string and port as DescribeDBInstanceNetInfo
// lists them.
func (f *simFixture) endpointAddress(t *testing.T, id string, public bool) string {
	t.Helper()
	info, err := f.api.DescribeDBInstanceNetInfo(context.Background(), id)
	mustDo(t, "DescribeDBInstanceNetInfo", err)
	ep, ok := info.Endpoint(public)
	if !ok {
		t.Fatalf("%s has no endpoint public=%v: %+v", id, public, info)
	}
	return net.JoinHostPort(ep.ConnectionString, string(ep.Port))
}

func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("%s: %v, want the connection refused", what, err)
	}
}

// A real MySQL client connects by the public string; after the port changes the old address refuses and the new
// one serves the same rows; the internal string's old prefix stops resolving when it changes; a released public
// string refuses.
func TestSimulatorEndpointsAnswerOnTheStringsHandedOut(t *testing.T) {
	f := newSimFixture(t)
	ctx := context.Background()
	created, err := f.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "127.0.0.1",
	})
	mustDo(t, "CreateDBInstance", err)
	id := created.DBInstanceID
	f.clock.advance(createDuration)
	mustDo(t, "CreateDatabase", f.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "appdb", CharacterSetName: "utf8mb4"}))
	mustDo(t, "CreateAccount", f.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "root_admin", AccountPassword: "Passw0rd-2026", AccountType: "Super"}))
	f.clock.advance(accountDuration)

	public, err := f.api.AllocateInstancePublicConnection(ctx, &rdsapi.AllocateInstancePublicConnectionRequest{DBInstanceID: id, ConnectionStringPrefix: "orders-pub", Port: "3306"})
	mustDo(t, "AllocateInstancePublicConnection", err)
	oldAddress := f.endpointAddress(t, id, true)
	if oldAddress != net.JoinHostPort(public, "3306") {
		t.Fatalf("DescribeDBInstanceNetInfo lists %s, Allocate answered %s", oldAddress, public)
	}
	conn, err := f.dialByName(t, oldAddress, "root_admin", "Passw0rd-2026", "appdb")
	mustDo(t, "connect by the public string", err)
	mustExec(t, conn, "CREATE TABLE orders (id INT PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO orders VALUES (1), (2), (3)")

	mustDo(t, "ModifyDBInstanceConnectionString", f.api.ModifyDBInstanceConnectionString(ctx, &rdsapi.ModifyDBInstanceConnectionStringRequest{
		DBInstanceID: id, CurrentConnectionString: public, ConnectionStringPrefix: "orders-pub", Port: "3307"}))
	_, err = f.dialByName(t, oldAddress, "root_admin", "Passw0rd-2026", "appdb")
	wantRefused(t, "the old port after the change", err)
	newAddress := f.endpointAddress(t, id, true)
	if newAddress != net.JoinHostPort(public, "3307") {
		t.Fatalf("after the port change DescribeDBInstanceNetInfo lists %s", newAddress)
	}
	moved, err := f.dialByName(t, newAddress, "root_admin", "Passw0rd-2026", "appdb")
	mustDo(t, "connect on the new port", err)
	if got := mustQueryString(t, moved, "SELECT COUNT(*) FROM orders"); got != "3" {
		t.Fatalf("rows on the new port = %s, want 3", got)
	}

	internal := f.endpointAddress(t, id, false)
	host, _, _ := net.SplitHostPort(internal)
	mustDo(t, "ModifyDBInstanceConnectionString (internal)", f.api.ModifyDBInstanceConnectionString(ctx, &rdsapi.ModifyDBInstanceConnectionStringRequest{
		DBInstanceID: id, CurrentConnectionString: host, ConnectionStringPrefix: "orders-internal", Port: "3306"}))
	_, err = f.dialByName(t, internal, "root_admin", "Passw0rd-2026", "appdb")
	wantRefused(t, "the old internal prefix", err)
	inside, err := f.dialByName(t, f.endpointAddress(t, id, false), "root_admin", "Passw0rd-2026", "appdb")
	mustDo(t, "connect by the new internal string", err)
	if got := mustQueryString(t, inside, "SELECT COUNT(*) FROM orders"); got != "3" {
		t.Fatalf("rows by the new internal string = %s, want 3", got)
	}

	mustDo(t, "ReleaseInstancePublicConnection", f.api.ReleaseInstancePublicConnection(ctx, id, public))
	_, err = f.dialByName(t, newAddress, "root_admin", "Passw0rd-2026", "appdb")
	wantRefused(t, "the released public string", err)
	if n := f.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("internal errors = %d", n)
	}
}
