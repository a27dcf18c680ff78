package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Restore from a cross-region backup (issue 46 §2), run by terraform itself: the new instance is
// created by an aliased provider configured for the copy's region (what only a terraform process
// shows: two providers of one type in one configuration).

const crossDest = "cn-shanghai"

// crossCopy turns cross-region backup to crossDest on for src, takes a backup and lets the
// simulator's clock copy it; it returns the copy's id.
func (e *testEnv) crossCopy(t *testing.T, src string) string {
	t.Helper()
	ctx := context.Background()
	if err := e.api.ModifyInstanceCrossBackupPolicy(ctx, src, rdsapi.CrossBackupPolicy{Enabled: true, Region: crossDest, Retention: 30}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.api.CreateBackup(ctx, &rdsapi.CreateBackupRequest{DBInstanceID: src, BackupMethod: "Physical"}); err != nil {
		t.Fatal(err)
	}
	e.sim.AdvanceClock(2 * time.Hour)
	copies, err := rdsservice.ListCrossRegionBackups(ctx, e.api, src, crossDest, time.Now().Add(-48*time.Hour), time.Now().Add(48*time.Hour))
	if err != nil || len(copies) == 0 {
		t.Fatalf("the copy of %s: %v, %d copies", src, err, len(copies))
	}
	return string(copies[0].CrossBackupID)
}

// crossRestoreConfig restores copy of src with the provider of region, aliased "dr".
func (e *testEnv) crossRestoreConfig(region, src, copyID, version string) string {
	return e.providerBlock() + fmt.Sprintf(`
provider "rds" {
  alias      = "dr"
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
}

resource "rds_instance" "test" {
  provider       = rds.dr
  engine         = "MySQL"
  engine_version = %q
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  restore_from = {
    source_instance_id     = %q
    source_region          = %q
    cross_region_backup_id = %q
  }
}
`, e.srv.URL, region, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, version, src, simulator.DefaultRegion, copyID)
}

// instanceIn checks that the instance is listed in region and not in the source's.
func (e *testEnv) instanceIn(id *string, region string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for r, want := range map[string]int{region: 1, simulator.DefaultRegion: 0} {
			items, err := rdsservice.ListAllDBInstances(context.Background(), e.api, &rdsapi.DescribeDBInstancesRequest{RegionID: r, DBInstanceID: *id})
			if err != nil {
				return err
			}
			if len(items) != want {
				return fmt.Errorf("DescribeDBInstances in %s lists %d of %s, want %d", r, len(items), *id, want)
			}
		}
		return nil
	}
}

// The plan refuses, with nothing written, a provider in another region than the copy's, a copy
// that does not exist and a version other than the copy's (all at once); the apply in the copy's
// region is one CreateDdrInstance, the instance is in that region and inherits the source's flag,
// and the next plan is empty.
func TestAccInstance_restoreFromCrossRegionBackup(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	copyID := env.crossCopy(t, src)
	noWrites := func(*terraform.State) error {
		if n := env.mutations() + env.requests("CreateDdrInstance"); n != 0 {
			return fmt.Errorf("a refused plan wrote %d times", n)
		}
		return nil
	}
	env.sim.ResetStats()
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.crossRestoreConfig(simulator.DefaultRegion, src, copyID, "5.7"),
				ExpectError: regexp.MustCompile(`(?s)held in ` + crossDest + `, not in the provider's region.*cannot differ from its source`),
			},
			{
				Config:      env.crossRestoreConfig(crossDest, src, "99999", "8.0"),
				ExpectError: regexp.MustCompile(`Cross-region backup 99999 of ` + src + ` does not exist`),
			},
			{
				PreConfig: func() {
					if err := noWrites(nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: env.crossRestoreConfig(crossDest, src, copyID, "8.0"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("atomic_write_16k"), knownvalue.Bool(true)),
				}},
				Check: resource.ComposeTestCheckFunc(idOf(&id), env.instanceIn(&id, crossDest),
					resource.TestCheckResourceAttr(testRes, "atomic_write_16k", "true"),
					func(*terraform.State) error {
						if n := env.requests("CreateDdrInstance"); n != 1 || env.requests("CloneDBInstance") != 0 || env.requests("ModifyDBInstanceSpec") != 0 {
							return fmt.Errorf("%d CreateDdrInstance, %d CloneDBInstance, %d ModifyDBInstanceSpec requests; want one restore and nothing else",
								n, env.requests("CloneDBInstance"), env.requests("ModifyDBInstanceSpec"))
						}
						return nil
					}),
			},
			{
				Config:           env.crossRestoreConfig(crossDest, src, copyID, "8.0"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// A copy of a released instance on local disks (its copies outlive it) is restored: the plan reads
// the copy while the source is gone, plans the inherited atomic_write_16k as known after apply, and
// the next plan is empty.
func TestAccInstance_restoreCrossRegionCopyOfReleasedInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "local_ssd", Category: "HighAvailability", PurchaseTime: time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	copyID := env.crossCopy(t, src)
	if err := env.api.DeleteDBInstance(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	env.sim.AdvanceClock(time.Hour)
	if _, err := env.api.DescribeDBInstanceAttribute(context.Background(), src); !rdsapi.IsNotFound(err) {
		t.Fatalf("the source after its release: %v, want not found", err)
	}
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.crossRestoreConfig(crossDest, src, copyID, "8.0"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(testRes, tfjsonpath.New("atomic_write_16k")),
			}},
			Check: resource.ComposeTestCheckFunc(idOf(&id), env.instanceIn(&id, crossDest), func(*terraform.State) error {
				if n := env.requests("CreateDdrInstance"); n != 1 {
					return fmt.Errorf("%d CreateDdrInstance requests, want 1", n)
				}
				return nil
			}),
		}},
	})
}
