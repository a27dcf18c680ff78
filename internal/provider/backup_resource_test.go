package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

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
