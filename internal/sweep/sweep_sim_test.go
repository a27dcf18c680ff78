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
	left := leaveObjects(t, sim, api)

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
		if s.Name != "rds_backup" {
			continue
		}
		if n := len(manualSets(t, api, left.primary)); n != 0 {
			t.Fatalf("%d manual sets of %s after the backup sweeper", n, left.primary)
		}
	}
	left.check(t, api)
	// The sweep's writes, as the simulator counted them: one per object it released; a second
	// run finds nothing and writes nothing.
	want := map[string]int{"DeleteAccount": 1, "DeleteBackup": 1, "ModifyDBInstanceDeletionProtection": 1, "DeleteDBInstance": 2}
	writes := func(when string) {
		for action, n := range want {
			if got := sim.Stats().Requests[action]; got != n {
				t.Errorf("%s: %d %s requests, want %d", when, got, action, n)
			}
		}
	}
	writes("after the sweep")
	for _, s := range sweepers {
		if err := s.F(simulator.DefaultRegion); err != nil {
			t.Fatalf("second run of %s: %v", s.Name, err)
		}
	}
	writes("after a second sweep")
}

// leftObjects are the ids leaveObjects made: the tests' (released by the sweep) and the others.
type leftObjects struct {
	primary, primaryRO, sharedRO string
	shared, reporting, kept      string
}

// leaveObjects makes what killed tests leave (a protected tf-rds-acc primary with a read-only
// instance and a manual set the retention lets go, a tf-rds-acc read-only instance and a
// tf_rds_acc account on a shared primary) beside a shared primary, its other read-only instance,
// another instance and another account.
func leaveObjects(t *testing.T, sim *simulator.Simulator, api rdsapi.API) leftObjects {
	t.Helper()
	ctx := context.Background()
	o := leftObjects{primary: create(t, api, "tf-rds-acc-left", true)}
	o.primaryRO = readOnly(t, api, o.primary, "tf-rds-acc-left-ro")
	o.shared = create(t, api, "shared-orders", false)
	o.sharedRO = readOnly(t, api, o.shared, "tf-rds-acc-ro")
	o.reporting = readOnly(t, api, o.shared, "reporting")
	o.kept = create(t, api, "keep-me", false)
	for _, name := range []string{"tf_rds_acc_app", "app"} {
		if err := api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: o.shared, AccountName: name, AccountPassword: "Sweep-pass-1234"}); err != nil {
			t.Fatal(err)
		}
	}
	// Data kept 14 days, logs 7, the set 8 days old: DeleteBackup may delete it.
	if err := api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: o.primary, PreferredBackupTime: "02:00Z-03:00Z",
		PreferredBackupPeriod: []string{"Monday", "Thursday"}, BackupRetentionPeriod: 14}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: o.primary}); err != nil {
		t.Fatal(err)
	}
	sim.AdvanceClock(8 * 24 * time.Hour)
	if n := len(manualSets(t, api, o.primary)); n != 1 {
		t.Fatalf("%d manual sets before the sweep, want 1", n)
	}
	return o
}

// check: only the objects that are not the tests' remain, and the shared primary keeps its
// other account.
func (o leftObjects) check(t *testing.T, api rdsapi.API) {
	t.Helper()
	ctx := context.Background()
	all, err := instances(ctx, api)
	if err != nil {
		t.Fatal(err)
	}
	var remaining []string
	for _, in := range all {
		remaining = append(remaining, in.DBInstanceID)
	}
	if want := []string{o.shared, o.reporting, o.kept}; !slices.Equal(slices.Sorted(slices.Values(remaining)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("after the sweep: %v, want %v (released %s, %s, %s)", remaining, want, o.primary, o.primaryRO, o.sharedRO)
	}
	accounts, err := api.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: o.shared})
	if err != nil {
		t.Fatal(err)
	}
	if a := accounts.Accounts.DBInstanceAccount; len(a) != 1 || a[0].AccountName != "app" {
		t.Fatalf("accounts of %s after the sweep: %+v", o.shared, a)
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
