package rdsservice

import (
	"slices"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// restore_from's shape: exactly one of backup_id, restore_time and cross_region_backup_id, the last
// with source_region; values not known yet are not judged.
func TestCheckRestoreFromCrossRegion(t *testing.T) {
	t.Parallel()
	none := Null[string]()
	for _, c := range []struct {
		name                      string
		backup, at, cross, region Val[string]
		want                      []RuleID
	}{
		{"copy with its region", none, none, Known("14563"), Known("cn-hangzhou"), nil},
		{"copy without its region", none, none, Known("14563"), none, []RuleID{RuleCrossRestoreSourceRegion}},
		{"region without a copy", Known("b-1"), none, none, Known("cn-hangzhou"), []RuleID{RuleCrossRestoreSourceRegion}},
		{"copy and backup", Known("b-1"), none, Known("14563"), Known("cn-hangzhou"), []RuleID{RuleRestoreFromExactlyOne}},
		{"copy known at apply", none, none, Unknown[string](), Known("cn-hangzhou"), nil},
	} {
		if got := rulesOf(CheckRestoreFrom(c.backup, c.at, c.cross, c.region)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The copy read at plan decides: unreadable, missing, held in another region than the provider's,
// another engine version (the last two at once); a copy in the provider's region of the same
// version passes.
func TestCheckCrossRestore(t *testing.T) {
	t.Parallel()
	r := CrossRestore{SourceID: "rm-1", SourceRegion: "cn-hangzhou", CopyID: "14563"}
	held := &rdsapi.CrossRegionBackup{CrossBackupID: "14563", CrossBackupRegion: "cn-shanghai", Engine: "MySQL", EngineVersion: "8.0"}
	for _, c := range []struct {
		name    string
		facts   CrossCopyFacts
		version string
		want    []RuleID
	}{
		{"unreadable", CrossCopyFacts{Restore: r, Error: "Throttling", Region: "cn-shanghai"}, "8.0", []RuleID{RuleCrossRestoreUnreadable}},
		{"missing", CrossCopyFacts{Restore: r, Region: "cn-shanghai"}, "8.0", []RuleID{RuleCrossRestoreCopyMissing}},
		{"wrong region and version", CrossCopyFacts{Restore: r, Copy: held, Region: "cn-hangzhou"}, "5.7",
			[]RuleID{RuleCrossRestoreRegion, RuleCloneDiffersFromSource}},
		{"fits", CrossCopyFacts{Restore: r, Copy: held, Region: "cn-shanghai"}, "8.0", nil},
	} {
		in := PlanInput{Role: RoleClone, Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known(c.version)}}
		in.Facts.CrossCopy = &c.facts
		var d Decision
		checkCrossRestore(in, &d)
		if got := rulesOf(d.Problems); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
