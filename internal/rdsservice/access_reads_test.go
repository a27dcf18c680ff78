package rdsservice

import (
	"context"
	"fmt"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// ListAllAccounts and ListAllDatabases read every page; Find* tell a missing name from an error.
func TestListAllAccessPages(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	ctx := context.Background()
	id, err := e.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.x4.medium.2c", Storage: 100, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 130 // two pages of 100
	for i := range n {
		if err := e.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: fmt.Sprintf("user%03d", i), AccountPassword: "Page-pass1"}); err != nil {
			t.Fatal(err)
		}
		if err := e.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: fmt.Sprintf("db%03d", i), CharacterSetName: "utf8"}); err != nil {
			t.Fatal(err)
		}
	}
	accounts, err := ListAllAccounts(ctx, e.api, id)
	if err != nil || len(accounts) != n {
		t.Fatalf("ListAllAccounts: %d accounts, %v", len(accounts), err)
	}
	dbs, err := ListAllDatabases(ctx, e.api, id)
	if err != nil || len(dbs) != n {
		t.Fatalf("ListAllDatabases: %d databases, %v", len(dbs), err)
	}
	if a, err := FindAccount(ctx, e.api, id, "user129"); err != nil || a == nil || a.AccountName != "user129" {
		t.Fatalf("FindAccount: %+v %v", a, err)
	}
	if a, err := FindAccount(ctx, e.api, id, "nobody"); err != nil || a != nil {
		t.Fatalf("FindAccount of a missing name: %+v %v", a, err)
	}
	if d, err := FindDatabase(ctx, e.api, id, "nothing"); err != nil || d != nil {
		t.Fatalf("FindDatabase of a missing name: %+v %v", d, err)
	}
	if _, err := FindAccount(ctx, e.api, "rm-missing", "x"); !rdsapi.IsNotFound(err) {
		t.Fatalf("FindAccount on a missing instance: %v", err)
	}
}
