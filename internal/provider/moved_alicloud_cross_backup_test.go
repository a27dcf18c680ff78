package provider

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func init() {
	// Every attribute of the alicloud schema (alicloud/resource_alicloud_rds_instance_cross_backup_policy.go),
	// values as its Read records them from DescribeInstanceCrossBackupPolicy.
	alicloudStateTemplates["rds_instance_cross_backup_policy"] = `{
  "id": "{{.InstanceID}}",
  "timeouts": null,
  "instance_id": "{{.InstanceID}}",
  "backup_enabled": "Enable",
  "log_backup_enabled": "{{.Log}}",
  "cross_backup_region": "{{.Region}}",
  "retention": {{.Retention}},
  "backup_enabled_time": "2026-03-01T05:44:21Z",
  "log_backup_enabled_time": "",
  "db_instance_status": "Running",
  "lock_mode": "Unlock",
  "retent_type": "1",
  "cross_backup_type": "1"
}
`
}

// moved from alicloud_rds_instance_cross_backup_policy into rds_backup_policy: the configuration a
// user writes for the moved policy (its cross_region, log copying left out while off) plans no
// change, and the move writes nothing.
func TestMoveFromAlicloudCrossBackupPolicy(t *testing.T) {
	for _, logOn := range []bool{true, false} {
		c := newMovedCloud(t)
		if err := c.api.ModifyInstanceCrossBackupPolicy(context.Background(), movedPrimary,
			rdsapi.CrossBackupPolicy{Enabled: true, Region: "cn-shanghai", Retention: 90, LogEnabled: logOn}); err != nil {
			t.Fatal(err)
		}
		facts := map[string]any{"InstanceID": movedPrimary, "Region": "cn-shanghai", "Retention": 90, "Log": "Disabled"}
		cross := map[string]any{"region": "cn-shanghai", "retention_days": 90}
		if logOn {
			facts["Log"], cross["log_backup_enabled"] = "Enable", true
		}
		c.w.sim.ResetStats()
		resp := c.move(t, alicloudProvider, "alicloud_rds_instance_cross_backup_policy", "rds_backup_policy",
			renderAlicloudState(t, "rds_instance_cross_backup_policy", facts))
		c.planAfterMove(t, "rds_backup_policy.orders", resp, map[string]any{"instance_id": movedPrimary, "cross_region": cross})
		if n := sumWrites(c.w.sim.Stats().Requests); n != 0 {
			t.Errorf("log copying %v: the move and its plan wrote %d times", logOn, n)
		}
	}
}
