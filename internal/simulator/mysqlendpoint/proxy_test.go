package mysqlendpoint_test

import (
	"context"
	"database/sql"
	"net"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator/simtest"
)

// proxyFixture is a primary with two read-only instances, an account and a table, and its proxy started.
type proxyFixture struct {
	*simFixture
	primary, ro1, ro2, endpointID string
}

func newProxyFixture(t *testing.T) *proxyFixture {
	t.Helper()
	sim, api, _ := simtest.Start(t)
	ctx := context.Background()
	created, err := api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	f := &proxyFixture{simFixture: &simFixture{sim: sim, api: api}, primary: created.DBInstanceID}
	readOnly := func() string {
		ro, err := api.CreateReadOnlyDBInstance(ctx, &rdsapi.CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: f.primary, ZoneID: "cn-hangzhou-i",
			EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", PayType: "Postpaid"})
		mustDo(t, "CreateReadOnlyDBInstance", err)
		mustDo(t, "ModifySecurityIps", api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: ro.DBInstanceID, SecurityIps: "127.0.0.1"}))
		return ro.DBInstanceID
	}
	f.ro1, f.ro2 = readOnly(), readOnly()
	mustDo(t, "CreateDatabase", api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: f.primary, DBName: "shop", CharacterSetName: "utf8mb4"}))
	mustDo(t, "CreateAccount", api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: f.primary, AccountName: "app", AccountPassword: "Passw0rd-2026", AccountType: "Super"}))
	mustDo(t, "Startup", api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: f.primary, Service: rdsapi.ProxyStartup, InstanceNum: 2}))
	px, err := api.DescribeDBProxy(ctx, f.primary)
	if err != nil || len(px.Endpoints) != 1 {
		t.Fatalf("DescribeDBProxy: %+v, %v", px, err)
	}
	f.endpointID = px.Endpoints[0].EndpointID
	return f
}

// weigh sets the default endpoint's weights and delay threshold, at once.
func (f *proxyFixture) weigh(t *testing.T, weights map[string]int64, maxDelay int64) {
	t.Helper()
	mustDo(t, "ModifyDBProxyEndpoint", f.api.ModifyDBProxyEndpoint(context.Background(), &rdsapi.ModifyDBProxyEndpointRequest{
		DBInstanceID: f.primary, EndpointID: f.endpointID, DistributionType: rdsapi.ProxyDistributionCustom, Weights: weights,
		MaxDelaySeconds: &maxDelay, EffectiveTime: "Immediate"}))
}

// dialProxy connects to the default proxy endpoint at the address DescribeDBProxyEndpoint reports.
func (f *proxyFixture) dialProxy(t *testing.T) *testConn {
	t.Helper()
	return f.dialEndpoint(t, f.endpointID)
}

// dialEndpoint connects to the proxy endpoint endpointID at the address DescribeDBProxyEndpoint reports.
func (f *proxyFixture) dialEndpoint(t *testing.T, endpointID string) *testConn {
	t.Helper()
	ep, err := f.api.DescribeDBProxyEndpoint(context.Background(), f.primary, endpointID)
	if err != nil {
		t.Fatal(err)
	}
	if ep.ConnectString != "127.0.0.1" {
		t.Fatalf("the proxy endpoint is %s:%s, not a loopback listener", ep.ConnectString, ep.Port)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName, cfg.Addr = "app", "Passw0rd-2026", "tcp", "shop", net.JoinHostPort(ep.ConnectString, ep.Port)
	conn, err := openConn(t, cfg)
	mustDo(t, "connect to the proxy", err)
	return &testConn{t: t, conn: conn}
}

// answered counts which instance answered each of n plain reads.
func (c *testConn) answered(n int) map[string]int {
	c.t.Helper()
	out := map[string]int{}
	for range n {
		out[mustQueryString(c.t, c.conn, "SELECT @@hostname")]++
	}
	return out
}

// TestProxyRoutesReadsByWeight: 1,000 plain reads with weights 100 and 300 land 250 and 750 on the read-only
// instances; the primary, weighted 0, answers none, but answers writes and every statement of a transaction.
func TestProxyRoutesReadsByWeight(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.primary: 0, f.ro1: 100, f.ro2: 300}, 30)
	c := f.dialProxy(t)
	got := c.answered(1000)
	if got[f.ro1] != 250 || got[f.ro2] != 750 || len(got) != 2 {
		t.Fatalf("1,000 reads landed %v; want %s 250, %s 750", got, f.ro1, f.ro2)
	}
	mustExec(t, c.conn, "BEGIN")
	if host := mustQueryString(t, c.conn, "SELECT @@hostname"); host != f.primary {
		t.Fatalf("a read inside a transaction was answered by %s, not the primary", host)
	}
	mustExec(t, c.conn, "COMMIT")
	if host := mustQueryString(t, c.conn, "SELECT @@hostname"); host == f.primary {
		t.Fatal("a plain read after COMMIT went to the primary")
	}
}

// TestProxyWriteVisibleEverywhere: a write through the proxy reaches the primary and is read on every instance.
func TestProxyWriteVisibleEverywhere(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.ro1: 100, f.ro2: 100}, 30)
	c := f.dialProxy(t)
	mustExec(t, c.conn, "CREATE TABLE orders (id INT PRIMARY KEY)")
	mustExec(t, c.conn, "INSERT INTO orders VALUES (7)")
	for _, id := range []string{f.primary, f.ro1, f.ro2} {
		conn, err := f.dial(t, id, "app", "Passw0rd-2026", "shop")
		mustDo(t, "connect to "+id, err)
		if got := mustQueryString(t, conn, "SELECT COUNT(*) FROM orders WHERE id = 7"); got != "1" {
			t.Fatalf("%s sees %s rows written through the proxy, want 1", id, got)
		}
		if host := mustQueryString(t, conn, "SELECT @@hostname"); host != id {
			t.Fatalf("@@hostname of %s is %q", id, host)
		}
	}
}

// TestProxyDelayMovesShareAway: a read-only instance whose delay is above the threshold receives nothing; back
// under it, its share returns.
func TestProxyDelayMovesShareAway(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.primary: 100, f.ro1: 100, f.ro2: 200}, 10)
	c := f.dialProxy(t)
	if got := c.answered(400); got[f.primary] != 100 || got[f.ro1] != 100 || got[f.ro2] != 200 {
		t.Fatalf("400 reads landed %v; want 100/100/200", got)
	}
	mustDo(t, "SetReplicationDelay", f.sim.SetReplicationDelay(f.ro2, 11))
	if got := c.answered(400); got[f.primary] != 200 || got[f.ro1] != 200 || got[f.ro2] != 0 {
		t.Fatalf("with %s 11 s behind (threshold 10 s), 400 reads landed %v; want 200/200/0", f.ro2, got)
	}
	mustDo(t, "SetReplicationDelay", f.sim.SetReplicationDelay(f.ro2, 10))
	if got := c.answered(400); got[f.ro2] != 200 {
		t.Fatalf("back at the threshold, 400 reads landed %v; want 200 on %s", got, f.ro2)
	}
}

type testConn struct {
	t    *testing.T
	conn *sql.Conn
}
