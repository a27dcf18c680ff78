package mysqlendpoint_test

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/simtest"
)

// An instance's endpoint speaks TLS exactly while SSL is on: ModifyDBInstanceSSL restarts it into
// the new setting, and a client with tls=skip-verify connects only then (the driver refuses a
// server without TLS). Plain connections work either way.
func TestSimulatorEndpointTLSFollowsSSL(t *testing.T) {
	sim, api, _ := simtest.Start(t)
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustDo(t, "ModifySecurityIps", api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1"}))
	mustDo(t, "CreateAccount", api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "root_admin", AccountPassword: "Passw0rd-2026", AccountType: "Super"}))
	dial := func(tlsMode string) error {
		attr, err := api.DescribeDBInstanceAttribute(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		cfg := mysql.NewConfig()
		cfg.User, cfg.Passwd, cfg.Net = "root_admin", "Passw0rd-2026", "tcp"
		cfg.Addr = net.JoinHostPort(attr.ConnectionString, string(attr.Port))
		cfg.TLSConfig = tlsMode
		conn, err := openConn(t, cfg)
		if err != nil {
			return err
		}
		return execSQL(t, conn, "SELECT 1")
	}
	setSSL := func(on bool) {
		attr, err := api.DescribeDBInstanceAttribute(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		mustDo(t, "ModifyDBInstanceSSL", api.ModifyDBInstanceSSL(ctx, &rdsapi.ModifyDBInstanceSSLRequest{DBInstanceID: id, ConnectionString: attr.ConnectionString, Enabled: on}))
	}

	if err := dial("skip-verify"); !errors.Is(err, mysql.ErrNoTLS) {
		t.Fatalf("TLS connect with SSL off: %v, want %v", err, mysql.ErrNoTLS)
	}
	setSSL(true)
	mustDo(t, "TLS connect with SSL on", dial("skip-verify"))
	mustDo(t, "plain connect with SSL on", dial("false"))
	setSSL(false)
	if err := dial("skip-verify"); !errors.Is(err, mysql.ErrNoTLS) {
		t.Fatalf("TLS connect after SSL is off again: %v, want %v", err, mysql.ErrNoTLS)
	}
	if n := sim.Stats().Restarts[id]; n != 2 {
		t.Fatalf("restarts = %d, want 2 (SSL on, SSL off)", n)
	}
}
