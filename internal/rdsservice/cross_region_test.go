package rdsservice

import (
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func TestCheckCrossRegion(t *testing.T) {
	offered := []string{"cn-qingdao", "cn-shanghai"}
	for _, c := range []struct {
		want  rdsapi.CrossBackupPolicy
		rules []RuleID
	}{
		{rdsapi.CrossBackupPolicy{Region: "cn-shanghai", Retention: 7}, nil},
		{rdsapi.CrossBackupPolicy{Region: "cn-shanghai", Retention: 1825}, nil},
		{rdsapi.CrossBackupPolicy{Region: "cn-shanghai", Retention: 6}, []RuleID{RuleCrossRegionRetention}},
		{rdsapi.CrossBackupPolicy{Region: "cn-shanghai", Retention: 1826}, []RuleID{RuleCrossRegionRetention}},
		{rdsapi.CrossBackupPolicy{Region: "cn-hangzhou", Retention: 3}, []RuleID{RuleCrossRegionRetention, RuleCrossRegionDestination}},
	} {
		got := CheckCrossRegion(c.want, "cn-hangzhou", offered)
		if len(got) != len(c.rules) {
			t.Errorf("%+v: %v, want %v", c.want, got, c.rules)
			continue
		}
		for i, p := range got {
			if p.Rule != c.rules[i] {
				t.Errorf("%+v: rule %s, want %s", c.want, p.Rule, c.rules[i])
			}
		}
	}
}

func TestCrossRegionLosses(t *testing.T) {
	now := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	copyAt := func(id string, daysAgo int) rdsapi.CrossRegionBackup {
		return rdsapi.CrossRegionBackup{CrossBackupID: rdsapi.FlexString(id), CrossBackupRegion: "cn-shanghai",
			BackupStartTime: now.Add(-time.Duration(daysAgo) * 24 * time.Hour).Format(CrossTimeLayout)}
	}
	copies := []rdsapi.CrossRegionBackup{copyAt("1", 20), copyAt("2", 3)}
	current := rdsapi.CrossBackupPolicy{Enabled: true, Region: "cn-shanghai", Retention: 30}
	loss, ok := CrossRegionRetentionLoss("rm-1", current, 7, copies, now)
	if !ok || loss.Args[0] != 1 || !strings.Contains(loss.Args[5].(string), "1 (in cn-shanghai") || strings.Contains(loss.Args[5].(string), "2 (in") {
		t.Errorf("30 -> 7 days: %v %+v, want copy 1 alone", ok, loss)
	}
	for _, days := range []int64{30, 25} {
		if _, ok := CrossRegionRetentionLoss("rm-1", current, days, copies, now); ok {
			t.Errorf("30 -> %d days: a loss, want none", days)
		}
	}
	if _, ok := CrossRegionRetentionLoss("rm-1", rdsapi.CrossBackupPolicy{}, 7, copies, now); ok {
		t.Error("copying off: a loss, want none")
	}
	if loss, ok := CrossRegionReleaseLoss("rm-1", true, copies, ""); !ok || loss.Args[0] != 2 || loss.Problem(true).Rule != RuleDataLossRefused {
		t.Errorf("cloud disks: %v %+v, want both copies, refused with prevent_data_loss", ok, loss)
	}
	if _, ok := CrossRegionReleaseLoss("rm-1", false, copies, "All"); ok {
		t.Error("local disks: a loss, want none (the copies stay by their retention)")
	}
}

func TestCheckCrossTimeRange(t *testing.T) {
	for _, c := range []struct {
		start, end string
		problems   int
	}{
		{"2026-03-01T00:00:00Z", "2026-03-15T00:00:00Z", 0},
		{"2026-03-01T00:00Z", "2026-03-15T00:00:00Z", 1},
		{"2026-03-01", "yesterday", 2},
		{"2026-03-15T00:00:00Z", "2026-03-01T00:00:00Z", 1},
	} {
		if got := CheckCrossTimeRange(c.start, c.end); len(got) != c.problems {
			t.Errorf("%s - %s: %v, want %d problems", c.start, c.end, got, c.problems)
		}
	}
}
