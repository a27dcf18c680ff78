package rdsservice

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The executor plans rds_backup_policy again before each call: a policy someone else already
// brought to the configured values sends nothing, and a configuration the policy as it is now
// refuses (log retention above a data retention lowered outside) sends nothing and says why.
func TestBackupPolicyProgramPlansAgainBeforeEachCall(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	retentions := func(data, log int64) BackupPolicyRequest {
		return BackupPolicyRequest{InstanceID: id, Desired: func(cur *BackupPolicySpec) BackupPolicySpec {
			want := *cur
			if data > 0 {
				want.BackupRetentionPeriod = data
			}
			want.LogBackupRetentionPeriod = log
			return want
		}}
	}
	plan := func(req BackupPolicyRequest) BackupPolicyPlan {
		t.Helper()
		p, err := PlanBackupPolicy(ctx, e.api, req)
		if err != nil || len(p.Problems) > 0 || len(p.Program.Operations) == 0 {
			t.Fatalf("plan: %+v, %v; want calls", p, err)
		}
		return p
	}
	stale := plan(retentions(30, 30))
	if out := ExecuteBackupPolicy(ctx, e.api, e.waiter, plan(retentions(30, 30))); out.Err != nil { // someone else's apply
		t.Fatal(out.Err)
	}
	e.sim.ResetStats()
	if out := ExecuteBackupPolicy(ctx, e.api, e.waiter, stale); out.Err != nil {
		t.Fatal(out.Err)
	}
	if st := e.sim.Stats(); st.Requests["ModifyBackupPolicy"] != 0 || st.Requests["DescribeBackupPolicy"] == 0 {
		t.Fatalf("a policy already as configured: %d ModifyBackupPolicy after %d reads, want none after a read",
			st.Requests["ModifyBackupPolicy"], st.Requests["DescribeBackupPolicy"])
	}

	raiseLog := plan(retentions(0, 25)) // allowed while the data retention is 30
	if out := ExecuteBackupPolicy(ctx, e.api, e.waiter, plan(retentions(10, 10))); out.Err != nil {
		t.Fatal(out.Err)
	}
	e.sim.ResetStats()
	out := ExecuteBackupPolicy(ctx, e.api, e.waiter, raiseLog)
	var changed *ChangedSincePlanError
	if !errors.As(out.Err, &changed) || len(changed.Problems) == 0 || changed.Problems[0].Rule != RuleLogRetentionAboveData {
		t.Fatalf("log retention above the data retention lowered outside: %v, want changed-since-plan naming %s", out.Err, RuleLogRetentionAboveData)
	}
	if n := e.sim.Stats().Requests["ModifyBackupPolicy"]; n != 0 {
		t.Fatalf("the refused change sent %d ModifyBackupPolicy", n)
	}
}
