package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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

// rds_backup_policy: adopting shows the cloud's values in the plan and writes nothing; a change of
// both modes is one apply with one call per mode; lowering both retentions works (log first);
// drift shows; import by instance id; destroy leaves the policy as it is, and says so.
func TestAccBackupPolicy_lifecycle(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.sim.ResetStats()
	raised := backupPolicyConfig(env, id, `  preferred_backup_period     = ["Friday", "Monday"]
  backup_retention_period     = 30
  log_backup_retention_period = 30
  local_log_retention_hours   = 0
  category                    = "Flash"`)
	lowered := backupPolicyConfig(env, id, `  preferred_backup_period     = ["Friday", "Monday"]
  backup_retention_period     = 7
  log_backup_retention_period = 7
  local_log_retention_hours   = 0
  category                    = "Flash"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(env.policyCalls(t, 0),
			env.policyIs(id, func(p *rdsapi.BackupPolicy) bool { return p.BackupRetentionPeriod == 7 && p.Category == "Flash" })),
		Steps: []resource.TestStep{
			{
				Config: backupPolicyConfig(env, id, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(backupPolicyRes, tfjsonpath.New("backup_retention_period"), knownvalue.Int64Exact(7)),
					plancheck.ExpectKnownValue(backupPolicyRes, tfjsonpath.New("preferred_backup_time"), knownvalue.StringExact("02:00Z-03:00Z")),
					plancheck.ExpectKnownValue(backupPolicyRes, tfjsonpath.New("log_backup_enabled"), knownvalue.Bool(true)),
				}},
				Check: env.policyCalls(t, 0),
			},
			{
				Config: raised,
				Check: resource.ComposeTestCheckFunc(env.policyCalls(t, 2), env.policyIs(id, func(p *rdsapi.BackupPolicy) bool {
					return p.PreferredBackupPeriod == "Monday,Friday" && p.BackupRetentionPeriod == 30 && p.LogBackupRetentionPeriod == 30 &&
						p.LocalLogRetentionHours == 0 && p.Category == "Flash"
				})),
			},
			{Config: raised, PlanOnly: true}, // the days' order and the read-back make no diff
			{
				Config: lowered,
				Check: resource.ComposeTestCheckFunc(env.policyCalls(t, 2),
					env.policyIs(id, func(p *rdsapi.BackupPolicy) bool {
						return p.BackupRetentionPeriod == 7 && p.LogBackupRetentionPeriod == 7
					})),
			},
			{
				PreConfig: env.apiCall(t, "ModifyBackupPolicy", func(ctx context.Context) error {
					return env.api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "05:00Z-06:00Z",
						PreferredBackupPeriod: []string{"Monday", "Friday"}, BackupRetentionPeriod: 14})
				}),
				Config: lowered,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(backupPolicyRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(backupPolicyRes, tfjsonpath.New("backup_retention_period"), knownvalue.Int64Exact(7)),
				}},
				Check: resource.ComposeTestCheckFunc(env.policyCalls(t, 2), // the drift, plus resetting the hand-made data call
					env.policyIs(id, func(p *rdsapi.BackupPolicy) bool { return p.BackupRetentionPeriod == 7 })),
			},
			{ResourceName: backupPolicyRes, ImportState: true, ImportStateId: id, ImportStateVerify: true},
			{
				Config:  env.providerBlock(),
				Destroy: false,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(backupPolicyRes, plancheck.ResourceActionDestroy),
				}},
				Check: env.policyCalls(t, 0),
			},
		},
	})
}

// Every rule is a plan error naming the attribute, the value and the fix, with no write.
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
