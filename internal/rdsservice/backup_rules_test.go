package rdsservice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func goodPolicy() BackupPolicySpec {
	return BackupPolicySpec{
		PreferredBackupTime: "02:00Z-03:00Z", PreferredBackupPeriod: []string{"Monday", "Thursday"}, BackupRetentionPeriod: 30,
		BackupInterval: -1, Category: "Standard", CompressType: "8", ArchiveBackupKeepPolicy: "ByMonth", ArchiveBackupKeepCount: 1,
		LogBackupEnabled: true, LocalLogRetentionHours: 18, LocalLogRetentionSpace: 30, HighSpaceUsageProtection: "Enable",
		LogBackupRetentionPeriod: 7, LogBackupLocalRetentionNumber: 60,
	}
}

var essd80 = BackupFacts{Known: true, InstanceID: "rm-1", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability"}

// Every range, cross-field and edition rule of the policy raises its own row, naming the
// attribute; a valid policy raises none.
func TestCheckBackupPolicyRows(t *testing.T) {
	if got := CheckBackupPolicy(goodPolicy(), essd80); len(got) != 0 {
		t.Fatalf("valid policy: %v", got)
	}
	local57 := BackupFacts{Known: true, InstanceID: "rm-2", EngineVersion: "5.7", StorageType: "local_ssd"}
	for _, tc := range []struct {
		change func(*BackupPolicySpec)
		facts  BackupFacts
		rule   RuleID
		attr   string
	}{
		{func(p *BackupPolicySpec) { p.PreferredBackupTime = "02:00Z-04:00Z" }, essd80, RuleBackupTimeFormat, AttrBackupTime},
		{func(p *BackupPolicySpec) { p.PreferredBackupTime = "2am" }, essd80, RuleBackupTimeFormat, AttrBackupTime},
		{func(p *BackupPolicySpec) { p.PreferredBackupPeriod = []string{"Monday"} }, essd80, RuleBackupPeriodTwoDays, AttrBackupPeriod},
		{func(p *BackupPolicySpec) { p.PreferredBackupPeriod = []string{"Monday", "monday"} }, essd80, RuleBackupPeriodDay, AttrBackupPeriod},
		{func(p *BackupPolicySpec) { p.BackupRetentionPeriod = 6 }, essd80, RuleBackupRetentionRange, AttrBackupRetention},
		{func(p *BackupPolicySpec) { p.BackupRetentionPeriod = 731 }, essd80, RuleBackupRetentionRange, AttrBackupRetention},
		{func(p *BackupPolicySpec) { p.BackupInterval = 45 }, essd80, RuleBackupIntervalValue, AttrBackupInterval},
		{func(p *BackupPolicySpec) { p.Category = "Fast" }, essd80, RuleBackupCategoryValue, AttrBackupCategory},
		{func(p *BackupPolicySpec) { p.Category, p.BackupInterval = "Flash", 30 }, essd80, RuleBackupIntervalFlash, AttrBackupInterval},
		{func(p *BackupPolicySpec) { p.BackupInterval, p.CompressType = 30, "4" }, local57, RuleBackupSnapshotDisk, AttrBackupInterval},
		{func(p *BackupPolicySpec) { p.CompressType = "3" }, essd80, RuleBackupCompressValue, AttrCompressType},
		{func(p *BackupPolicySpec) { p.CompressType = "4" }, essd80, RuleBackupCompressVersion, AttrCompressType},
		{func(p *BackupPolicySpec) {}, local57, RuleBackupCompressVersion, AttrCompressType}, // 8 on 5.7
		{func(p *BackupPolicySpec) { p.ArchiveBackupRetentionPeriod = 29 }, essd80, RuleBackupArchiveRange, AttrArchiveRetention},
		{func(p *BackupPolicySpec) { p.ArchiveBackupKeepPolicy = "Daily" }, essd80, RuleBackupArchivePolicy, AttrArchiveKeepPolicy},
		{func(p *BackupPolicySpec) { p.ArchiveBackupKeepPolicy, p.ArchiveBackupKeepCount = "ByWeek", 8 }, essd80, RuleBackupArchiveCount, AttrArchiveKeepCount},
		{func(p *BackupPolicySpec) { p.LocalLogRetentionHours = 169 }, essd80, RuleLogLocalHoursRange, AttrLocalLogHours},
		{func(p *BackupPolicySpec) { p.LocalLogRetentionSpace = 51 }, essd80, RuleLogLocalSpaceRange, AttrLocalLogSpace},
		{func(p *BackupPolicySpec) { p.HighSpaceUsageProtection = "On" }, essd80, RuleLogHighSpaceValue, AttrHighSpaceProtection},
		{func(p *BackupPolicySpec) { p.LogBackupRetentionPeriod = 6 }, essd80, RuleLogRetentionRange, AttrLogRetention},
		{func(p *BackupPolicySpec) { p.LogBackupRetentionPeriod = 31 }, essd80, RuleLogRetentionAboveData, AttrLogRetention},
		{func(p *BackupPolicySpec) { p.LogBackupLocalRetentionNumber = 5 }, essd80, RuleLogLocalNumberRange, AttrLocalLogNumber},
		{func(p *BackupPolicySpec) {}, BackupFacts{Known: true, InstanceID: "rr-1", EngineVersion: "8.0", StorageType: "cloud_essd", ReadOnly: true}, RuleBackupOnReadOnly, AttrInstanceID},
	} {
		p := goodPolicy()
		tc.change(&p)
		got := CheckBackupPolicy(p, tc.facts)
		found := false
		for _, g := range got {
			if g.Rule == tc.rule && g.Attribute == tc.attr && strings.Contains(g.Detail, "Fix:") && !strings.Contains(g.Detail, "%!") {
				found = true
			}
		}
		if !found || len(got) > 2 {
			t.Errorf("%s: got %+v", tc.rule, got)
		}
	}
}

// Checks wait for what the plan does not know: unknown attributes and unknown instance facts.
func TestCheckBackupPolicyWaitsForUnknowns(t *testing.T) {
	p := goodPolicy()
	p.LogBackupRetentionPeriod, p.CompressType = 31, "4"
	p.Unknown = map[string]bool{AttrBackupRetention: true}
	got := CheckBackupPolicy(p, BackupFacts{})
	if len(got) != 0 {
		t.Fatalf("unknown data retention and facts: %+v", got)
	}
	p.Unknown = nil
	if got := CheckBackupPolicy(p, BackupFacts{}); len(got) != 1 || got[0].Rule != RuleLogRetentionAboveData {
		t.Fatalf("facts unknown: %+v", got)
	}
}

// One call per mode that changed; none when nothing did; the log call first when the data
// retention drops below the current log retention.
func TestBackupPolicyCalls(t *testing.T) {
	cur := goodPolicy()
	if calls := BackupPolicyCalls("rm-1", cur, cur); len(calls) != 0 {
		t.Fatalf("no change: %+v", calls)
	}
	reordered := cur
	reordered.PreferredBackupPeriod = []string{"Thursday", "Monday"}
	if calls := BackupPolicyCalls("rm-1", cur, reordered); len(calls) != 0 {
		t.Fatalf("same days in another order: %+v", calls)
	}
	data := cur
	data.Category = "Flash"
	if calls := BackupPolicyCalls("rm-1", cur, data); len(calls) != 1 || calls[0].Data == nil || calls[0].Data.Category != "Flash" {
		t.Fatalf("data only: %+v", calls)
	}
	cur.LogBackupRetentionPeriod = 30
	down := cur
	down.BackupRetentionPeriod, down.LogBackupRetentionPeriod = 7, 7
	if calls := BackupPolicyCalls("rm-1", cur, down); len(calls) != 2 || calls[0].Mode() != "LogBackupPolicy" || calls[1].Mode() != "DataBackupPolicy" {
		t.Fatalf("lowering both: %+v", calls)
	}
	up := down
	up.BackupRetentionPeriod, up.LogBackupRetentionPeriod = 60, 60
	if calls := BackupPolicyCalls("rm-1", down, up); len(calls) != 2 || calls[0].Mode() != "DataBackupPolicy" {
		t.Fatalf("raising both: %+v", calls)
	}
}

// Against the simulator, through PlanBackupPolicy and the executor: lowering both retentions from
// 30 to 7 days in one apply succeeds (the order matters: data first is refused), and the policy
// reads back as desired.
func TestApplyBackupPolicyOnSimulator(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	id := seedYiTian(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	apply := func(retention int64) {
		t.Helper()
		plan, err := PlanBackupPolicy(ctx, e.api, BackupPolicyRequest{InstanceID: id, Desired: func(cur *BackupPolicySpec) BackupPolicySpec {
			want := *cur
			want.BackupRetentionPeriod, want.LogBackupRetentionPeriod = retention, retention
			return want
		}})
		if err != nil || len(plan.Problems) > 0 || len(plan.Program.Operations) != 2 {
			t.Fatalf("plan for %d days: %+v, %v; want two calls", retention, plan, err)
		}
		if out := ExecuteBackupPolicy(ctx, e.api, e.waiter, plan); out.Err != nil {
			t.Fatalf("%s: %v", out.Step, out.Err)
		}
	}
	apply(30)
	apply(7)
	p, err := e.api.DescribeBackupPolicy(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := BackupPolicyFromAPI(p); got.BackupRetentionPeriod != 7 || got.LogBackupRetentionPeriod != 7 {
		t.Fatalf("read back %+v", got)
	}
	if n := e.sim.Stats().Requests["ModifyBackupPolicy"]; n != 4 {
		t.Fatalf("ModifyBackupPolicy requests = %d, want 4", n)
	}
}

// A policy change on a locked instance is named at plan (the cloud refuses ModifyBackupPolicy
// there); a plan that sends no call, or a read-only instance's (which has no policy), is not.
func TestPolicyStateProblemsWarnOfALock(t *testing.T) {
	locked := essd80
	locked.Status, locked.LockMode, locked.LockReason = StatusRunning, "LockByExpiration", "instance_expired"
	current, longer := goodPolicy(), goodPolicy()
	longer.BackupRetentionPeriod = 60
	got := PolicyStateProblems(locked, &current, longer, false)
	if len(got) != 1 || got[0].Rule != RuleInstanceLocked || got[0].Severity != SeverityWarning {
		t.Fatalf("locked instance, retention change: %+v, want one %s warning", got, RuleInstanceLocked)
	}
	if got := PolicyStateProblems(locked, &current, current, false); len(got) != 0 {
		t.Errorf("locked instance, nothing to send: %+v", got)
	}
	readOnly := locked
	readOnly.ReadOnly = true
	if got := PolicyStateProblems(readOnly, &current, longer, false); len(got) != 0 {
		t.Errorf("read-only instance: %+v", got)
	}
	if got := PolicyStateProblems(essd80, &current, longer, false); len(got) != 0 {
		t.Errorf("running, unlocked instance: %+v", got)
	}
	// The cross-region call alone is refused there too (sweep seed 68: the plan passed unwarned).
	if got := PolicyStateProblems(locked, &current, current, true); len(got) != 1 || got[0].Rule != RuleInstanceLocked {
		t.Errorf("locked instance, cross-region policy only: %+v, want one %s warning", got, RuleInstanceLocked)
	}
}

// The rds_backup rows: shape rules without facts, edition and state rules with them.
func TestCheckBackupRows(t *testing.T) {
	running := BackupInstanceState{Known: true, Status: StatusRunning, Databases: []string{"orders"}}
	local := BackupFacts{Known: true, InstanceID: "rm-2", EngineVersion: "5.7", StorageType: "local_ssd"}
	for _, tc := range []struct {
		req   BackupRequest
		facts BackupFacts
		st    BackupInstanceState
		rule  RuleID
	}{
		{BackupRequest{Method: "Tape", Strategy: "instance"}, BackupFacts{}, BackupInstanceState{}, RuleBackupMethodValue},
		{BackupRequest{Method: "Physical", Strategy: "table"}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyValue},
		{BackupRequest{Method: "Logical", Strategy: "db"}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyDBNames},
		{BackupRequest{Method: "Physical", Strategy: "instance", DBNames: []string{"orders"}}, BackupFacts{}, BackupInstanceState{}, RuleBackupStrategyDBNames},
		{BackupRequest{Method: "Physical", Strategy: "db", DBNames: []string{"orders"}}, BackupFacts{}, BackupInstanceState{}, RuleBackupDBNamesLogical},
		{BackupRequest{Method: "Snapshot", Strategy: "instance"}, local, running, RuleBackupSnapshotNoCloud},
		{BackupRequest{Method: "Logical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning}, RuleBackupLogicalNoDB},
		{BackupRequest{Method: "Logical", Strategy: "db", DBNames: []string{"shop"}}, essd80, running, RuleBackupDBNotFound},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning, SetsToday: 20}, RuleBackupDailyLimit},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: StatusRunning, JobRunning: "7"}, RuleBackupInProgress},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, essd80, BackupInstanceState{Known: true, Status: "Rebooting"}, RuleBackupInstanceNotReady},
		{BackupRequest{Method: "Physical", Strategy: "instance"}, BackupFacts{Known: true, InstanceID: "rr-1", ReadOnly: true}, running, RuleBackupOnReadOnly},
	} {
		got := CheckBackup(tc.req, tc.facts, tc.st)
		if len(got) != 1 || got[0].Rule != tc.rule {
			t.Errorf("%s: got %+v", tc.rule, got)
		}
	}
	if got := CheckBackup(BackupRequest{Method: "Logical", Strategy: "db", DBNames: []string{"orders"}}, essd80, running); len(got) != 0 {
		t.Errorf("valid request: %+v", got)
	}
	if got := CheckBackup(BackupRequest{Method: "Tape", Unknown: map[string]bool{AttrBackupMethod: true, AttrBackupStrategy: true}}, BackupFacts{}, BackupInstanceState{}); len(got) != 0 {
		t.Errorf("unknown values: %+v", got)
	}
}
