package rdsservice

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func TestMissingDatabases(t *testing.T) {
	t.Parallel()
	databases := []rdsapi.Database{{DBName: "Orders"}, {DBName: "stock"}, {DBName: "gone", DBStatus: rdsapi.DatabaseStatusDeleting}}
	planned := func(db string) bool { return db == "fresh" }
	got := MissingDatabases(databases, []string{"stock", "orders", "fresh", "gone", "nosuch"}, planned)
	want := []string{`"orders" -> "Orders"`, `"gone"`, `"nosuch"`}
	if !slices.Equal(got, want) {
		t.Errorf("MissingDatabases = %v, want %v", got, want)
	}
}

func TestHeldElsewhere(t *testing.T) {
	t.Parallel()
	account := &rdsapi.DBInstanceAccount{AccountName: "app"}
	for db, p := range map[string]string{"a": "ReadOnly", "b": "ReadWrite", "c": rdsapi.PrivilegeCustom, "d": "DDLOnly", "e": "ReadOnly"} {
		account.DatabasePrivileges.DatabasePrivilege = append(account.DatabasePrivileges.DatabasePrivilege,
			rdsapi.DatabasePrivilege{DBName: db, AccountPrivilege: p})
	}
	dbs := []string{"a", "b", "c", "d"}
	if got, want := HeldElsewhere("rm-1", "ReadWrite", account, dbs, nil), []string{`"a" (ReadOnly)`, `"d" (DDLOnly)`}; !slices.Equal(got, want) {
		t.Errorf("new grant: %v, want %v", got, want)
	}
	prior := &GrantPrior{InstanceID: "rm-1", Account: "app", Privilege: "ReadOnly", DBNames: []string{"a"}}
	if got, want := HeldElsewhere("rm-1", "ReadWrite", account, dbs, prior), []string{`"d" (DDLOnly)`}; !slices.Equal(got, want) {
		t.Errorf("replacing the ReadOnly grant: %v, want %v", got, want)
	}
	prior.InstanceID = "rm-2"
	if got := HeldElsewhere("rm-1", "ReadWrite", account, dbs, prior); len(got) != 2 {
		t.Errorf("a prior grant on another instance gives nothing: %v", got)
	}
	if got := HeldElsewhere("rm-1", "ReadWrite", nil, dbs, nil); got != nil {
		t.Errorf("no account: %v", got)
	}
}

// When the instance is unknown at plan, the plan names exactly the deferred checks this account
// could break (moved from the provider with DeferredAccountChecks).
func TestDeferredAccountChecks(t *testing.T) {
	t.Parallel()
	if got := DeferredAccountChecks(rdsapi.AccountTypeNormal, "app"); got != "" {
		t.Fatalf("a short Normal account defers nothing that can fail, got %q", got)
	}
	if got := DeferredAccountChecks(rdsapi.AccountTypeSuper, "a_very_long_admin_name"); !strings.Contains(got, "privileged") || !strings.Contains(got, "MySQL 5.7") {
		t.Fatalf("deferred checks: %q", got)
	}
}
