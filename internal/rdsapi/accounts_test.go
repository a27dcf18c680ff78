package rdsapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// urlRecorder keeps every request URL the simulator receives.
type urlRecorder struct {
	mu   sync.Mutex
	urls []string
	next http.Handler
}

func (r *urlRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.mu.Unlock()
	r.next.ServeHTTP(w, req)
}

// Every account, database and privilege action round-trips against the simulator, and the
// password travels only in the signed body.
func TestAccountActionsAgainstSimulator(t *testing.T) {
	ctx := context.Background()
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &urlRecorder{next: sim}
	server := httptest.NewServer(rec)
	t.Cleanup(server.Close)
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	c, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreateDBInstance(ctx, newMySQL("accounts"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	const password, newPassword = "Very-Secret-1", "Other-Secret-2"

	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("CreateAccount", c.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "app", AccountPassword: password, AccountDescription: "app account"}))
	err = c.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "app", AccountPassword: password})
	if rdsapi.ErrorCode(err) != rdsapi.CodeAccountDuplicate || strings.Contains(err.Error(), password) {
		t.Fatalf("duplicate CreateAccount: %v", err)
	}
	must("ResetAccountPassword", c.ResetAccountPassword(ctx, id, "app", newPassword))
	must("ModifyAccountDescription", c.ModifyAccountDescription(ctx, id, "app", "renamed"))
	must("CreateDatabase", c.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "orders", CharacterSetName: "utf8mb4", DBDescription: "orders"}))
	must("CreateDatabase", c.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: "audit", CharacterSetName: "utf8"}))
	must("ModifyDBDescription", c.ModifyDBDescription(ctx, id, "orders", "orders db"))
	must("GrantAccountPrivilege", c.GrantAccountPrivilege(ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: id, AccountName: "app", DBNames: []string{"orders", "audit"}, AccountPrivilege: rdsapi.PrivilegeReadOnly}))
	must("RevokeAccountPrivilege", c.RevokeAccountPrivilege(ctx, id, "app", []string{"audit"}))

	accounts, err := c.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: id, AccountName: "app"})
	must("DescribeAccounts", err)
	got := accounts.Accounts.DBInstanceAccount
	if len(got) != 1 || got[0].AccountDescription != "renamed" || got[0].AccountType != rdsapi.AccountTypeNormal ||
		got[0].AccountStatus != rdsapi.AccountStatusAvailable || len(got[0].DatabasePrivileges.DatabasePrivilege) != 1 ||
		got[0].DatabasePrivileges.DatabasePrivilege[0].AccountPrivilege != rdsapi.PrivilegeReadOnly {
		t.Fatalf("DescribeAccounts: %+v", got)
	}
	dbs, err := c.DescribeDatabases(ctx, &rdsapi.DescribeDatabasesRequest{DBInstanceID: id, PageSize: 100})
	must("DescribeDatabases", err)
	if d := dbs.Databases.Database; len(d) != 2 || d[1].DBName != "orders" || d[1].CharacterSetName != "utf8mb4" || d[1].DBDescription != "orders db" ||
		d[1].DBStatus != rdsapi.DatabaseStatusRunning || len(d[1].Accounts.AccountPrivilegeInfo) != 1 || int(dbs.TotalRecordCount) != 2 {
		t.Fatalf("DescribeDatabases: %+v", dbs)
	}
	access, _ := sim.InstanceAccess(id)
	if access.Accounts[0].PasswordHash != simulator.NativePasswordHash(newPassword) {
		t.Fatal("the reset password did not reach the simulator")
	}
	must("DeleteDatabase", c.DeleteDatabase(ctx, id, "audit"))
	must("DeleteAccount", c.DeleteAccount(ctx, id, "app"))
	if err := c.DeleteAccount(ctx, id, "app"); rdsapi.ErrorCode(err) != rdsapi.CodeAccountNotFound {
		t.Fatalf("second DeleteAccount: %v", err)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, u := range rec.urls {
		if strings.Contains(u, "Secret") || strings.Contains(u, "AccountPassword") {
			t.Errorf("a password travelled in the URL: %s", u)
		}
	}
}

// A password reaches the cloud in an application/x-www-form-urlencoded body.
func TestPasswordInBody(t *testing.T) {
	var body, contentType string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		body, contentType = string(data), r.Header.Get("Content-Type")
		_, _ = w.Write([]byte(`{"RequestId":"x"}`))
	}))
	t.Cleanup(server.Close)
	cred, _ := credentials.NewCredential(new(credentials.Config).SetType("access_key").SetAccessKeyId("id").SetAccessKeySecret("secret"))
	c, err := rdsapi.New(rdsapi.Config{RegionID: "cn-hangzhou", Endpoint: server.URL, Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ResetAccountPassword(context.Background(), "rm-1", "app", "Pass&word=1"); err != nil {
		t.Fatal(err)
	}
	if contentType != "application/x-www-form-urlencoded" || body != "AccountPassword=Pass%26word%3D1" {
		t.Fatalf("body %q (%s)", body, contentType)
	}
}
