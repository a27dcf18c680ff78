package sweep

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// TestSweepersReleaseWhatTestsLeft leaves tf-rds-acc-* objects in a simulator on purpose (a
// protected primary with a read-only instance and a manual backup set, a read-only instance and an
// account on a shared primary), beside objects that are not the tests', then runs the registered
// sweepers in their order, as `go test -sweep` does, through the environment they read.
func TestSweepersReleaseWhatTestsLeft(t *testing.T) {
	sim, err := simulator.New(simulator.Options{}) // zero durations: instant transitions
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", simulator.DefaultAccessKeyID)
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET", simulator.DefaultAccessKeySecret)
	t.Setenv("ALIBABA_CLOUD_SECURITY_TOKEN", "")
	t.Setenv("ALIBABA_CLOUD_RDS_ENDPOINT", srv.URL)
	api := testClient(t, srv.URL)
	ctx := context.Background()

	left := create(t, api, "tf-rds-acc-left", true)
	leftRO := readOnly(t, api, left, "tf-rds-acc-left-ro")
	shared := create(t, api, "shared-orders", false)
	sharedRO := readOnly(t, api, shared, "tf-rds-acc-ro")
	reporting := readOnly(t, api, shared, "reporting")
	kept := create(t, api, "keep-me", false)
	for _, name := range []string{"tf_rds_acc_app", "app"} {
		if err := api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: shared, AccountName: name, AccountPassword: "Sweep-pass-1234"}); err != nil {
			t.Fatal(err)
		}
	}
	// A manual set the retention lets go: data kept 14 days, logs 7, the set 8 days old.
	if err := api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: left, PreferredBackupTime: "02:00Z-03:00Z",
		PreferredBackupPeriod: []string{"Monday", "Thursday"}, BackupRetentionPeriod: 14}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: left}); err != nil {
		t.Fatal(err)
	}
	sim.AdvanceClock(8 * 24 * time.Hour)
	if n := len(manualSets(t, api, left)); n != 1 {
		t.Fatalf("%d manual sets before the sweep, want 1", n)
	}

	ran := map[string]bool{}
	for _, s := range sweepers {
		for _, dep := range s.Dependencies {
			if !ran[dep] {
				t.Fatalf("sweeper %s runs before its dependency %s", s.Name, dep)
			}
		}
		if err := s.F(simulator.DefaultRegion); err != nil {
			t.Fatalf("sweeper %s: %v", s.Name, err)
		}
		ran[s.Name] = true
		if s.Name == "rds_backup" {
			if n := len(manualSets(t, api, left)); n != 0 {
				t.Fatalf("%d manual sets of %s after the backup sweeper", n, left)
			}
		}
	}

	var remaining []string
	all, err := instances(ctx, api)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range all {
		remaining = append(remaining, in.DBInstanceID)
	}
	if want := []string{shared, reporting, kept}; !slices.Equal(slices.Sorted(slices.Values(remaining)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("after the sweep: %v, want %v (released %s, %s, %s)", remaining, want, left, leftRO, sharedRO)
	}
	accounts, err := api.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: shared})
	if err != nil {
		t.Fatal(err)
	}
	if a := accounts.Accounts.DBInstanceAccount; len(a) != 1 || a[0].AccountName != "app" {
		t.Fatalf("accounts of %s after the sweep: %+v", shared, a)
	}
	// A second run finds nothing and fails on nothing.
	for _, s := range sweepers {
		if err := s.F(simulator.DefaultRegion); err != nil {
			t.Fatalf("second run of %s: %v", s.Name, err)
		}
	}
}

func testClient(t *testing.T, endpoint string) *rdsapi.Client {
	t.Helper()
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	c, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: endpoint, Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func create(t *testing.T, api rdsapi.API, name string, protected bool) string {
	t.Helper()
	out, err := api.CreateDBInstance(context.Background(), &rdsapi.CreateDBInstanceRequest{ZoneID: "cn-hangzhou-i", Engine: "MySQL",
		EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd",
		Category: "HighAvailability", VPCID: "vpc-1", VSwitchID: "vsw-1", SecurityIPList: "10.0.0.0/8",
		DBInstanceDescription: name, DeletionProtection: protected})
	if err != nil {
		t.Fatal(err)
	}
	return out.DBInstanceID
}

func readOnly(t *testing.T, api rdsapi.API, primary, name string) string {
	t.Helper()
	out, err := api.CreateReadOnlyDBInstance(context.Background(), &rdsapi.CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: primary,
		ZoneID: "cn-hangzhou-i", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c", DBInstanceStorage: 20,
		DBInstanceStorageType: "cloud_essd", VPCID: "vpc-1", VSwitchID: "vsw-1", DBInstanceDescription: name})
	if err != nil {
		t.Fatal(err)
	}
	return out.DBInstanceID
}

func manualSets(t *testing.T, api rdsapi.API, id string) []rdsapi.Backup {
	t.Helper()
	out, err := api.DescribeBackups(context.Background(), &rdsapi.DescribeBackupsRequest{DBInstanceID: id, BackupMode: "Manual", PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	return out.Items.Backup
}
