package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// backupPolicyResources is backupPolicyConfig at the protocol: the policy of instance id with
// attrs.
func backupPolicyResources(id string, attrs map[string]any) []oracleResource {
	all := map[string]any{"instance_id": id}
	for k, v := range attrs {
		all[k] = v
	}
	return []oracleResource{{addr: backupPolicyRes, attrs: all}}
}

// rds_backup_policy: adopting shows the cloud's values in the plan and writes nothing; a change of
// both modes is one apply with one call per mode; lowering both retentions works (log first);
// drift shows; import by instance id; destroy leaves the policy as it is, and says so in the plan.
// The steps and checks of a terraform test, played at the plugin protocol (the family keeps
// TestAccBackupPolicy_rules with terraform).
func TestBackupPolicy_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	id := env.plantInstance(t, "8.0", "")
	env.sim.ResetStats()
	policy := func(retention int) []oracleResource {
		return backupPolicyResources(id, map[string]any{"preferred_backup_period": []string{"Friday", "Monday"},
			"backup_retention_period": retention, "log_backup_retention_period": retention, "local_log_retention_hours": 0,
			"category": "Flash"})
	}
	plan := w.applyChecked(t, "adopt", backupPolicyResources(id, nil), env.policyCalls(t, 0))
	expectAction(t, "adopt", plan, backupPolicyRes, actCreate)
	expectPlanned(t, "adopt", plan, backupPolicyRes, "backup_retention_period", 7)
	expectPlanned(t, "adopt", plan, backupPolicyRes, "preferred_backup_time", "02:00Z-03:00Z")
	expectPlanned(t, "adopt", plan, backupPolicyRes, "log_backup_enabled", true)
	w.applyChecked(t, "raised", policy(30), env.policyCalls(t, 2), env.policyIs(id, func(p *rdsapi.BackupPolicy) bool {
		return p.PreferredBackupPeriod == "Monday,Friday" && p.BackupRetentionPeriod == 30 && p.LogBackupRetentionPeriod == 30 &&
			p.LocalLogRetentionHours == 0 && p.Category == "Flash"
	}))
	// The days' order and the read-back make no diff.
	again, err := w.planWalk(policy(30))
	if err != nil || again.errAt != "" {
		t.Fatalf("raised again: %v %s", err, again.errMsg)
	}
	expectAction(t, "raised again", again, backupPolicyRes, actNoop)
	w.applyChecked(t, "lowered", policy(7), env.policyCalls(t, 2), env.policyIs(id, func(p *rdsapi.BackupPolicy) bool {
		return p.BackupRetentionPeriod == 7 && p.LogBackupRetentionPeriod == 7
	}))
	env.apiCall(t, "ModifyBackupPolicy", func(ctx context.Context) error {
		return env.api.ModifyDataBackupPolicy(ctx, &rdsapi.DataBackupPolicyRequest{DBInstanceID: id, PreferredBackupTime: "05:00Z-06:00Z",
			PreferredBackupPeriod: []string{"Monday", "Friday"}, BackupRetentionPeriod: 14})
	})()
	plan = w.applyChecked(t, "drift", policy(7), env.policyCalls(t, 2), // the drift, plus resetting the hand-made data call
		env.policyIs(id, func(p *rdsapi.BackupPolicy) bool { return p.BackupRetentionPeriod == 7 }))
	expectAction(t, "drift", plan, backupPolicyRes, actUpdate)
	expectPlanned(t, "drift", plan, backupPolicyRes, "backup_retention_period", 7)
	w.importVerify(t, backupPolicyRes)
	// Destroy: the plan says the policy stays; nothing is sent and the cloud keeps it.
	gone, err := w.planWalk(nil)
	if err != nil || gone.errAt != "" {
		t.Fatalf("destroy: %v %s", err, gone.errMsg)
	}
	expectAction(t, "destroy", gone, backupPolicyRes, actDelete)
	expectWarning(t, "destroy", gone, backupPolicyRes, regexp.MustCompile(`The backup policy of `+id+` stays as it is`))
	w.applyChecked(t, "destroy", nil, env.policyCalls(t, 0),
		env.policyIs(id, func(p *rdsapi.BackupPolicy) bool { return p.BackupRetentionPeriod == 7 && p.Category == "Flash" }))
	if _, ok := w.state[backupPolicyRes]; ok {
		t.Error("destroy: the policy is still in state")
	}
}
