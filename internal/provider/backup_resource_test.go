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
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

const backupRes = "rds_backup.nightly"

// sets lists the instance's manual backup sets (a seeded instance also has the automatic sets of
// its backup policy, which these tests do not make).
func (e *testEnv) sets(t *testing.T, id string) []rdsapi.Backup {
	t.Helper()
	sets, err := rdsservice.ListBackups(context.Background(), e.api, &rdsapi.DescribeBackupsRequest{DBInstanceID: id, BackupMode: "Manual"})
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

// rds_backup makes a set and waits for it; rds_backups lists it newest first; restore_from takes
// its id and the simulator restores that very set (it refuses ids of other instances or unfinished
// sets). Destroying a set RDS still keeps warns and sends no DeleteBackup.
func TestAccBackup_cloneLastBackup(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	backup := env.providerBlock() + fmt.Sprintf("resource \"rds_backup\" \"nightly\" {\n  instance_id = %q\n}\n", src)
	clone := backup + fmt.Sprintf(`
data "rds_backups" "last" {
  instance_id = %q
  depends_on  = [rds_backup.nightly]
}
`, src) + env.restoreConfig("mysql.n2m.medium.2c", "", fmt.Sprintf("    source_instance_id = %q\n    backup_id = data.rds_backups.last.backups[0].backup_id", src))[len(env.providerBlock()):]
	var backupID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := env.requests("DeleteBackup"); n != 0 {
				return fmt.Errorf("DeleteBackup sent %d times for sets RDS keeps", n)
			}
			if sets := env.sets(t, src); len(sets) != 2 {
				return fmt.Errorf("%d sets after destroy, want both kept", len(sets))
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: backup,
				ConfigStateChecks: []statecheck.StateCheck{
					stateValue(backupRes, "backup_method", knownvalue.StringExact("Physical")),
					stateValue(backupRes, "store_status", knownvalue.StringExact("Disabled")),
				},
				Check: func(s *terraform.State) error {
					backupID = s.RootModule().Resources[backupRes].Primary.Attributes["backup_id"]
					if sets := env.sets(t, src); len(sets) != 1 || string(sets[0].BackupID) != backupID {
						return fmt.Errorf("sets %+v, state backup_id %q", sets, backupID)
					}
					return nil
				},
			},
			{
				// A second, newer set (taken by hand): "the latest" must be that one.
				PreConfig: env.apiCall(t, "CreateBackup", func(ctx context.Context) error {
					_, err := rdsservice.CreateBackup(ctx, env.api, env.data.Waiter, &rdsapi.CreateBackupRequest{DBInstanceID: src})
					return err
				}),
				Config: clone,
				Check: func(s *terraform.State) error {
					sets := env.sets(t, src)
					got := s.RootModule().Resources[testRes].Primary.Attributes["restore_from.backup_id"]
					if len(sets) != 2 || got == "" || got == backupID || got != s.RootModule().Resources["data.rds_backups.last"].Primary.Attributes["backups.0.backup_id"] {
						return fmt.Errorf("clone restored %q; sets %+v", got, sets)
					}
					if env.requests("CloneDBInstance") != 1 {
						return fmt.Errorf("CloneDBInstance requests = %d", env.requests("CloneDBInstance"))
					}
					return nil
				},
			},
			{
				Config:           clone,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// The request's shape, the instance's edition and databases: plan errors with the fix, no
// CreateBackup sent. The family's terraform test; backup_protocol_test.go plays the sets' life at
// the plugin protocol.
func TestAccBackup_rules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", id)
	env.sim.ResetStats()
	cfg := func(instance, body string) string {
		return env.providerBlock() + fmt.Sprintf("resource \"rds_backup\" \"nightly\" {\n  instance_id = %q\n  %s\n}\n", instance, body)
	}
	expectPlanErrors(t, []planErrorCase{
		{"method", cfg(id, `backup_method = "Tape"`), regexp.MustCompile(`(?s)backup_method = "Tape" must be Physical, Logical or Snapshot`)},
		{"db without names", cfg(id, "backup_method = \"Logical\"\n  backup_strategy = \"db\""), regexp.MustCompile(`(?s)db_names must name the databases`)},
		{"db physical", cfg(id, "backup_strategy = \"db\"\n  db_names = [\"orders\"]"), regexp.MustCompile(`(?s)backup_method = "Physical".*logical backup`)},
		{"logical without databases", cfg(id, `backup_method = "Logical"`), regexp.MustCompile(`(?s)a logical backup exports databases.*has none`)},
		{"missing database", cfg(id, "backup_method = \"Logical\"\n  backup_strategy = \"db\"\n  db_names = [\"shop\"]"), regexp.MustCompile(`(?s)db_names names "shop"`)},
		{"read-only", cfg(ro, ""), regexp.MustCompile(`(?s)read-only instance.*primary`)},
	})
	if n := env.requests("CreateBackup"); n != 0 {
		t.Fatalf("%d CreateBackup requests for refused configurations; want 0", n)
	}
}
