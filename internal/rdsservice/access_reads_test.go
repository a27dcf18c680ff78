package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Poll waits through busy answers and pending states on the Waiter's schedule, stops at once on a
// permanent error, and at the deadline names what it last saw.
func TestWaiterPoll(t *testing.T) {
	clock := newFakeClock()
	w := &Waiter{Clock: clock, MinInterval: time.Second, MaxInterval: 10 * time.Second}
	busy := &rdsapi.Error{HTTPStatus: 403, Code: "IncorrectDBInstanceState"}

	calls := 0
	err := w.Poll(clock.withDeadline(time.Hour), "account to be Available", func() (bool, string, error) {
		calls++
		switch {
		case calls == 1:
			return false, "", busy
		case calls < 5:
			return false, "status Unavailable", nil
		}
		return true, "", nil
	})
	if err != nil || calls != 5 {
		t.Fatalf("Poll: %v after %d checks", err, calls)
	}
	for _, d := range clock.sleeps {
		if d < time.Second || d > 10*time.Second {
			t.Fatalf("a sleep of %v is outside the Waiter's 1s..10s", d)
		}
	}

	calls = 0
	permanent := &rdsapi.Error{HTTPStatus: 400, Code: "InvalidAccountName.Format"}
	err = w.Poll(clock.withDeadline(time.Hour), "x", func() (bool, string, error) { calls++; return false, "", permanent })
	if !errors.Is(err, permanent) || calls != 1 {
		t.Fatalf("a permanent error: %v after %d checks", err, calls)
	}

	err = w.Poll(clock.withDeadline(30*time.Second), "database orders to be Running", func() (bool, string, error) {
		return false, "status Creating", nil
	})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "status Creating") ||
		!strings.Contains(err.Error(), "database orders to be Running") {
		t.Fatalf("timeout: %v", err)
	}
}

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
