package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

const backupPolicyRes = "rds_backup_policy.this"

func backupPolicyConfig(e *testEnv, id, body string) string {
	return e.providerBlock() + fmt.Sprintf("resource \"rds_backup_policy\" \"this\" {\n  instance_id = %q\n%s\n}\n", id, body)
}

// policyCalls checks the number of ModifyBackupPolicy requests since the last reset, then resets.
func (e *testEnv) policyCalls(t *testing.T, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := e.requests("ModifyBackupPolicy")
		e.sim.ResetStats()
		if got != want {
			return fmt.Errorf("ModifyBackupPolicy requests = %d, want %d", got, want)
		}
		return nil
	}
}

func (e *testEnv) policyIs(id string, check func(p *rdsapi.BackupPolicy) bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, err := e.api.DescribeBackupPolicy(context.Background(), id)
		if err != nil {
			return err
		}
		if !check(p) {
			return fmt.Errorf("backup policy of %s: %+v", id, p)
		}
		return nil
	}
}

// Every rule is a plan error naming the attribute, the value and the fix, with no write. The
// family's terraform test; TestBackupPolicy_lifecycle (backup_policy_protocol_test.go) plays the
// policy's life at the plugin protocol.
func TestAccBackupPolicy_rules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	ro := env.plantInstance(t, "8.0", id)
	env.sim.ResetStats()
	rule := func(name, instance, body string, want *regexp.Regexp) planErrorCase {
		return planErrorCase{name, backupPolicyConfig(env, instance, "  "+body), want}
	}
	expectPlanErrors(t, []planErrorCase{
		rule("one day", id, `preferred_backup_period = ["Monday"]`, regexp.MustCompile(`(?s)preferred_backup_period.*fewer than two days.*Fix: add another day`)),
		rule("window", id, `preferred_backup_time = "02:00Z-04:00Z"`, regexp.MustCompile(`(?s)preferred_backup_time = "02:00Z-04:00Z".*one-hour window`)),
		rule("retention", id, `backup_retention_period = 731`, regexp.MustCompile(`(?s)backup_retention_period = 731 days is outside 7-730`)),
		rule("log above data", id, "backup_retention_period = 30\n  log_backup_retention_period = 40", regexp.MustCompile(`(?s)log_backup_retention_period = 40 days is longer than\s+backup_retention_period\s+=\s+30`)),
		rule("log above the cloud's data retention", id, "log_backup_retention_period = 10", regexp.MustCompile(`(?s)longer than\s+backup_retention_period\s+=\s+7`)),
		rule("local hours", id, `local_log_retention_hours = 200`, regexp.MustCompile(`(?s)local_log_retention_hours = 200 is outside 0-168`)),
		rule("compress on 8.0", id, `compress_type = "4"`, regexp.MustCompile(`(?s)compress_type = "4" is not offered for.*MySQL 8.0`)),
		rule("flash interval", id, "category = \"Flash\"\n  backup_interval = 30", regexp.MustCompile(`(?s)backup_interval = 30 does not apply with\s+category = "Flash"`)),
		rule("read-only", ro, "", regexp.MustCompile(`(?s)read-only instance.*primary`)),
	})
	if n := env.requests("ModifyBackupPolicy"); n != 0 {
		t.Fatalf("%d ModifyBackupPolicy requests for refused configurations; want 0", n)
	}
}
