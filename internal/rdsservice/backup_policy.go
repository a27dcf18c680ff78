package rdsservice

import (
	"slices"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The backup policy's operations: read it into a BackupPolicySpec, and turn a change into the
// ModifyBackupPolicy calls the API needs (one per BackupPolicyMode that changes), in an order
// every intermediate policy is valid in.

// BackupPolicyFromAPI reads DescribeBackupPolicy's answer.
func BackupPolicyFromAPI(p *rdsapi.BackupPolicy) BackupPolicySpec {
	interval, err := strconv.ParseInt(strings.TrimSpace(string(p.BackupInterval)), 10, 64)
	if err != nil {
		interval = -1 // "" or a value the API did not document: no snapshot frequency
	}
	var period []string
	for _, d := range strings.Split(p.PreferredBackupPeriod, ",") {
		if d = strings.TrimSpace(d); d != "" {
			period = append(period, d)
		}
	}
	return BackupPolicySpec{
		PreferredBackupTime: p.PreferredBackupTime, PreferredBackupPeriod: SortWeekDays(period),
		BackupRetentionPeriod: int64(p.BackupRetentionPeriod), BackupInterval: interval, Category: p.Category,
		CompressType: string(p.CompressType), ArchiveBackupRetentionPeriod: int64(p.ArchiveBackupRetentionPeriod),
		ArchiveBackupKeepPolicy: p.ArchiveBackupKeepPolicy, ArchiveBackupKeepCount: int64(p.ArchiveBackupKeepCount),
		LogBackupEnabled: p.LogBackupEnabled(), LocalLogRetentionHours: int64(p.LocalLogRetentionHours),
		LocalLogRetentionSpace: int64(p.LocalLogRetentionSpace), HighSpaceUsageProtection: p.HighSpaceUsageProtection,
		LogBackupRetentionPeriod:      int64(p.LogBackupRetentionPeriod),
		LogBackupLocalRetentionNumber: int64(p.LogBackupLocalRetentionNumber),
	}
}

// SortWeekDays orders days Monday first (unknown spellings last, as given), so that a set of days
// compares equal however it was written.
func SortWeekDays(days []string) []string {
	out := slices.Clone(days)
	rank := func(d string) int {
		if i := slices.Index(WeekDays, d); i >= 0 {
			return i
		}
		return len(WeekDays)
	}
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

func (p BackupPolicySpec) dataPart() []any {
	return []any{p.PreferredBackupTime, strings.Join(SortWeekDays(p.PreferredBackupPeriod), ","), p.BackupRetentionPeriod,
		p.BackupInterval, p.Category, p.CompressType, p.ArchiveBackupRetentionPeriod, p.ArchiveBackupKeepPolicy, p.ArchiveBackupKeepCount}
}

func (p BackupPolicySpec) logPart() []any {
	return []any{p.LogBackupEnabled, p.LocalLogRetentionHours, p.LocalLogRetentionSpace, p.HighSpaceUsageProtection,
		p.LogBackupRetentionPeriod, p.LogBackupLocalRetentionNumber}
}

// BackupPolicyCall is one ModifyBackupPolicy call, or with Cross one
// ModifyInstanceCrossBackupPolicy: exactly one of Data, Log and Cross is set.
type BackupPolicyCall struct {
	Data  *rdsapi.DataBackupPolicyRequest
	Log   *rdsapi.LogBackupPolicyRequest
	Cross *rdsapi.CrossBackupPolicy
}

// ModeCrossRegion names a ModifyInstanceCrossBackupPolicy call among the policy's modes.
const ModeCrossRegion = "CrossRegion"

// Mode names the call's BackupPolicyMode.
func (c BackupPolicyCall) Mode() string {
	switch {
	case c.Data != nil:
		return rdsapi.BackupPolicyModeData
	case c.Cross != nil:
		return ModeCrossRegion
	}
	return rdsapi.BackupPolicyModeLog
}

// BackupPolicyCalls lists the calls that take the policy from current to desired: none when
// nothing changed, one per mode that changed. The log call goes first when the data call lowers
// the data retention below the current log retention (the API refuses a log retention above the
// data retention at every step).
func BackupPolicyCalls(id string, current, desired BackupPolicySpec) []BackupPolicyCall {
	var data, log *BackupPolicyCall
	if !slices.Equal(current.dataPart(), desired.dataPart()) {
		archive := desired.ArchiveBackupRetentionPeriod
		data = &BackupPolicyCall{Data: &rdsapi.DataBackupPolicyRequest{
			DBInstanceID: id, PreferredBackupTime: desired.PreferredBackupTime, PreferredBackupPeriod: SortWeekDays(desired.PreferredBackupPeriod),
			BackupRetentionPeriod: desired.BackupRetentionPeriod, BackupInterval: strconv.FormatInt(desired.BackupInterval, 10),
			Category: desired.Category, CompressType: desired.CompressType, ArchiveBackupRetentionPeriod: &archive,
			ArchiveBackupKeepPolicy: desired.ArchiveBackupKeepPolicy, ArchiveBackupKeepCount: desired.ArchiveBackupKeepCount,
		}}
	}
	if !slices.Equal(current.logPart(), desired.logPart()) {
		log = &BackupPolicyCall{Log: &rdsapi.LogBackupPolicyRequest{
			DBInstanceID: id, EnableBackupLog: desired.LogBackupEnabled, LocalLogRetentionHours: desired.LocalLogRetentionHours,
			LocalLogRetentionSpace: desired.LocalLogRetentionSpace, HighSpaceUsageProtection: desired.HighSpaceUsageProtection,
			LogBackupRetentionPeriod: desired.LogBackupRetentionPeriod, LogBackupLocalRetentionNumber: desired.LogBackupLocalRetentionNumber,
		}}
	}
	var calls []BackupPolicyCall
	if data != nil && log != nil && desired.BackupRetentionPeriod < current.LogBackupRetentionPeriod {
		data, log = log, data
	}
	for _, c := range []*BackupPolicyCall{data, log} {
		if c != nil {
			calls = append(calls, *c)
		}
	}
	return calls
}
