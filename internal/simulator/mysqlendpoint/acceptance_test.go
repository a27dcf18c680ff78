package mysqlendpoint_test

import (
	"database/sql"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/provider"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

const (
	instanceRes      = "rds_instance.app"
	appPassword      = "Passw0rd-Acc-2026"
	appAccount       = "app_user"
	appDatabase      = "appdb"
	doublewriteQuery = "SELECT @@innodb_doublewrite"
)

// appConfig is an instance with a database and a ReadWrite account, as examples/modules/mysql-app.
func appConfig(url string, atomicWrite bool, securityIP string) string {
	return fmt.Sprintf(`
provider "rds" {
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
}

resource "rds_instance" "app" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  storage_type     = "cloud_essd"
  instance_name    = "endpoint-acc"
  security_ips     = [%q]
  atomic_write_16k = %t
}

resource "rds_database" "app" {
  instance_id   = rds_instance.app.id
  name          = %q
  character_set = "utf8mb4"
}

resource "rds_account" "app" {
  instance_id         = rds_instance.app.id
  name                = %q
  password_wo         = %q
  password_wo_version = 1
}

resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.app.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.app.name]
}
`, url, simulator.DefaultRegion, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret,
		securityIP, atomicWrite, appDatabase, appAccount, appPassword)
}

// withAccountLogin logs in as the account Terraform created, at the address in the instance's state, and runs fn.
func withAccountLogin(t *testing.T, fn func(*sql.Conn) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[instanceRes].Primary.Attributes
		cfg := mysql.NewConfig()
		cfg.User, cfg.Passwd, cfg.Net, cfg.DBName = appAccount, appPassword, "tcp", appDatabase
		cfg.Addr = attrs["connection_string"] + ":" + attrs["port"]
		conn, err := openConn(t, cfg)
		if err != nil {
			return fmt.Errorf("login as %s at %s: %w", appAccount, cfg.Addr, err)
		}
		return fn(conn)
	}
}

func doublewriteIs(t *testing.T, want string) func(*sql.Conn) error {
	return func(conn *sql.Conn) error {
		got, err := queryString(t, conn, doublewriteQuery)
		if err != nil || got != want {
			return fmt.Errorf("%s = %q, %v; want %s", doublewriteQuery, got, err, want)
		}
		return nil
	}
}

// Terraform creates an instance, a database, an account and its privilege; the account logs in at the instance's
// connection_string and port; turning atomic_write_16k off restarts the instance once and turns the doublewrite
// buffer on, keeping the rows; a whitelist without 127.0.0.1 refuses the loopback client.
func TestAccEndpointServesWhatTerraformCreated(t *testing.T) {
	opts := simulator.Options{AccountDuration: 100 * time.Millisecond, Endpoints: mysqlendpoint.ForSimulator}
	sim, srv := simulator.NewTestServer(t, opts)
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"rds": providerserver.NewProtocol6WithError(provider.New("test")()),
	}
	restarts := func(s *terraform.State) int {
		return sim.Stats().Restarts[s.RootModule().Resources[instanceRes].Primary.ID]
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: appConfig(srv.URL, true, "127.0.0.1"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(instanceRes, "connection_string", "127.0.0.1"),
					withAccountLogin(t, doublewriteIs(t, "OFF")),
					withAccountLogin(t, func(conn *sql.Conn) error {
						if version, err := queryString(t, conn, "SELECT @@version"); err != nil || version != "8.0.36" {
							return fmt.Errorf("@@version = %q, %v", version, err)
						}
						for _, q := range []string{"CREATE TABLE orders (id INT PRIMARY KEY)", "INSERT INTO orders VALUES (1), (2), (3)"} {
							if err := execSQL(t, conn, q); err != nil {
								return fmt.Errorf("%s: %w", q, err)
							}
						}
						return nil
					}),
				),
			},
			{
				Config: appConfig(srv.URL, false, "127.0.0.1"),
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						if n := restarts(s); n != 1 {
							return fmt.Errorf("restarts = %d, want 1", n)
						}
						return nil
					},
					withAccountLogin(t, doublewriteIs(t, "ON")),
					withAccountLogin(t, func(conn *sql.Conn) error {
						if n, err := queryString(t, conn, "SELECT COUNT(*) FROM orders"); err != nil || n != "3" {
							return fmt.Errorf("rows after the restart = %q, %v; want 3", n, err)
						}
						return nil
					}),
				),
			},
			{
				Config: appConfig(srv.URL, false, "10.0.0.1"),
				Check: withAccountLogin(t, func(*sql.Conn) error {
					return fmt.Errorf("logged in from 127.0.0.1 with a whitelist of 10.0.0.1")
				}),
				ExpectError: regexp.MustCompile(`Error 1130`),
			},
		},
	})
	if n := sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("internal errors = %d", n)
	}
}
