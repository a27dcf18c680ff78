package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
	"github.com/openrds/terraform-provider-rds/internal/simulator/simtest"
)

func TestRunPrintsResultsAndReadsThePasswordFromTheEnvironment(t *testing.T) {
	ep, err := mysqlendpoint.Start(mysqlendpoint.Options{AllowedClients: []string{"127.0.0.1"}, Settings: mysqlendpoint.Settings{Version: "8.0.36"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ep.Close() })
	if err := ep.CreateDatabase("appdb", "utf8mb4"); err != nil {
		t.Fatal(err)
	}
	if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Pw-12345"), true); err != nil {
		t.Fatal(err)
	}
	env := func(name string) string {
		if name == "RDS_SQL_PASSWORD" {
			return "Pw-12345"
		}
		return ""
	}
	var out bytes.Buffer
	err = run(context.Background(), []string{"-addr", ep.Addr(), "-user", "app", "-database", "appdb",
		"CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2)",
		"SELECT @@version AS version, @@innodb_doublewrite AS doublewrite, COUNT(*) AS n FROM t"}, env, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "INSERT INTO t VALUES (1), (2): 2 rows affected\nversion\tdoublewrite\tn\n8.0.36\tOFF\t2\n"
	if got := out.String(); !strings.HasSuffix(got, want) {
		t.Fatalf("output:\n%s\nwant it to end with:\n%s", got, want)
	}

	err = run(context.Background(), []string{"-addr", ep.Addr(), "-user", "app", "SELECT 1"}, func(string) string { return "" }, &out)
	if err == nil || !strings.Contains(err.Error(), "Access denied") {
		t.Fatalf("without the password: %v", err)
	}
	if err := run(context.Background(), []string{"-user", "app", "SELECT 1"}, env, &out); err == nil {
		t.Fatal("accepted a missing -addr")
	}
}

// With -simulator, -addr is the public string and port the API handed out; once released it no longer resolves.
func TestRunResolvesThroughTheSimulator(t *testing.T) {
	sim, api, url := simtest.Start(t)
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "root_admin", AccountPassword: "Pw-123456", AccountType: "Super"}); err != nil {
		t.Fatal(err)
	}
	public, err := api.AllocateInstancePublicConnection(ctx, &rdsapi.AllocateInstancePublicConnectionRequest{DBInstanceID: id, ConnectionStringPrefix: "sql-pub", Port: "3306"})
	if err != nil {
		t.Fatal(err)
	}
	env := func(string) string { return "Pw-123456" }
	args := []string{"-simulator", url, "-addr", public + ":3306", "-user", "root_admin", "SELECT 7 AS n"}
	var out bytes.Buffer
	if err := run(ctx, args, env, &out); err != nil || out.String() != "n\n7\n" {
		t.Fatalf("by the public string: %v, output %q", err, out.String())
	}
	if err := api.ReleaseInstancePublicConnection(ctx, id, public); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, args, env, &out); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("the released string: %v", err)
	}
}
