package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Cross-region backups (issue 46 §2): cross_region on rds_backup_policy copies every backup set
// to another region (ModifyInstanceCrossBackupPolicy), the destination checked at plan against
// DescribeAvailableCrossRegion and the retention against 7-1825 days. Two changes delete copies,
// each a loss of the data-loss family: a shorter retention_days, and releasing an instance on
// cloud disks (Alibaba keeps no cross-region backup of a released cloud-disk instance).

// AttrCrossRegion is the attribute the cross-region rules point at.
const AttrCrossRegion = "cross_region"

const (
	RuleCrossRegionRetention   RuleID = "cross-region-retention"
	RuleCrossRegionDestination RuleID = "cross-region-destination"
	RuleDataLossCrossRegion    RuleID = "data-loss-cross-region-retention"
	RuleDataLossCrossRelease   RuleID = "data-loss-cross-region-release"
	RuleCrossRegionTimeFilter  RuleID = "cross-region-time-filter"
)

// Cross-region retention bounds (days; ModifyInstanceCrossBackupPolicy Retention).
const (
	CrossRegionMinDays = 7
	CrossRegionMaxDays = 1825
)

// CrossTimeLayout is the time format of DescribeCrossRegionBackups.
const CrossTimeLayout = "2006-01-02T15:04:05Z"

// CheckCrossRegion raises the rules of a configured cross-region policy: the retention's range,
// and a destination the source region offers (offered: DescribeAvailableCrossRegion).
func CheckCrossRegion(want rdsapi.CrossBackupPolicy, source string, offered []string) []Problem {
	var out []Problem
	if want.Retention < CrossRegionMinDays || want.Retention > CrossRegionMaxDays {
		out = append(out, Raise(RuleCrossRegionRetention, i64(want.Retention), want.Retention))
	}
	if !slices.Contains(offered, want.Region) {
		list := strings.Join(offered, ", ")
		if list == "" {
			list = "none"
		}
		out = append(out, Raise(RuleCrossRegionDestination, want.Region, want.Region, source, list))
	}
	return out
}

// CrossRegionPlan is what a configured cross_region needs: its problems, or the call that sets it
// (nil when the cloud already has it).
type CrossRegionPlan struct {
	Problems []Problem
	Call     *rdsapi.CrossBackupPolicy
	// Current is the policy the cloud has.
	Current rdsapi.CrossBackupPolicy
}

// PlanCrossRegion reads the destinations offered and the instance's policy, checks want against
// them and decides the call.
func PlanCrossRegion(ctx context.Context, api rdsapi.API, id, source string, want rdsapi.CrossBackupPolicy) (CrossRegionPlan, error) {
	offered, err := api.DescribeAvailableCrossRegion(ctx)
	if err != nil {
		return CrossRegionPlan{}, fmt.Errorf("DescribeAvailableCrossRegion: %w", err)
	}
	current, err := api.DescribeInstanceCrossBackupPolicy(ctx, id)
	if err != nil {
		return CrossRegionPlan{}, fmt.Errorf("DescribeInstanceCrossBackupPolicy %s: %w", id, err)
	}
	plan := CrossRegionPlan{Problems: CheckCrossRegion(want, source, offered), Current: *current}
	want.Enabled, want.EnabledTime = true, ""
	have := *current
	have.EnabledTime = ""
	if len(plan.Problems) == 0 && have != want {
		plan.Call = &want
	}
	return plan, nil
}

// CrossRegionRetentionLoss is what a shorter retention deletes: the copies that started more
// than want days before now. ok is false when none goes.
func CrossRegionRetentionLoss(id string, current rdsapi.CrossBackupPolicy, want int64, copies []rdsapi.CrossRegionBackup, now time.Time) (DataLoss, bool) {
	if !current.Enabled || want >= current.Retention {
		return DataLoss{}, false
	}
	cutoff := now.Add(-time.Duration(want) * 24 * time.Hour)
	gone := crossCopyLines(copies, func(start time.Time) bool { return start.Before(cutoff) })
	if len(gone) == 0 {
		return DataLoss{}, false
	}
	return DataLoss{Rule: RuleDataLossCrossRegion, Value: i64(want),
		Args: []any{len(gone), id, current.Region, current.Retention, want, strings.Join(gone, "\n")}}, true
}

// crossCopyLines names the copies whose start passes keep, one line each.
func crossCopyLines(copies []rdsapi.CrossRegionBackup, keep func(time.Time) bool) []string {
	var out []string
	for _, c := range copies {
		start, err := time.Parse(CrossTimeLayout, c.BackupStartTime)
		if err == nil && keep(start) {
			out = append(out, fmt.Sprintf("  - %s (in %s, started %s)", c.CrossBackupID, c.CrossBackupRegion, c.BackupStartTime))
		}
	}
	return out
}

// ListCrossRegionBackups reads every page of an instance's copies that started in [from, to].
func ListCrossRegionBackups(ctx context.Context, api rdsapi.API, id, region string, from, to time.Time) ([]rdsapi.CrossRegionBackup, error) {
	const pageSize = 100
	var out []rdsapi.CrossRegionBackup
	for page := int64(1); ; page++ {
		got, err := api.DescribeCrossRegionBackups(ctx, &rdsapi.DescribeCrossRegionBackupsRequest{DBInstanceID: id, CrossBackupRegion: region,
			StartTime: from.UTC().Format(CrossTimeLayout), EndTime: to.UTC().Format(CrossTimeLayout), PageNumber: page, PageSize: pageSize})
		if err != nil {
			return nil, fmt.Errorf("DescribeCrossRegionBackups %s: %w", id, err)
		}
		out = append(out, got.Items.Item...)
		if len(got.Items.Item) < pageSize || int64(len(out)) >= int64(got.TotalRecordCount) {
			return out, nil
		}
	}
}

// allCopies lists every copy an instance can still have (the longest retention back from now). An
// instance the cloud no longer knows has none a release of it could delete: its release, whoever
// made it, already took them.
func allCopies(ctx context.Context, api rdsapi.API, id string, now time.Time) ([]rdsapi.CrossRegionBackup, error) {
	copies, err := ListCrossRegionBackups(ctx, api, id, "", now.Add(-CrossRegionMaxDays*24*time.Hour), now)
	if rdsapi.IsNotFound(err) {
		return nil, nil
	}
	return copies, err
}

// PlanCrossRegionRetentionLoss reads the copies when want shortens the retention the cloud has,
// and returns the loss (nil when none goes).
func PlanCrossRegionRetentionLoss(ctx context.Context, api rdsapi.API, id string, current rdsapi.CrossBackupPolicy, want int64, now time.Time) (*DataLoss, error) {
	if !current.Enabled || want >= current.Retention {
		return nil, nil
	}
	copies, err := allCopies(ctx, api, id, now)
	if err != nil {
		return nil, err
	}
	if loss, ok := CrossRegionRetentionLoss(id, current, want, copies, now); ok {
		return &loss, nil
	}
	return nil, nil
}

// CrossRegionReleaseLoss is what releasing a cloud-disk instance deletes: its cross-region copies.
// ok is false for an instance on local disks (its copies stay by their retention) or without copies.
func CrossRegionReleaseLoss(id string, cloudDisk bool, copies []rdsapi.CrossRegionBackup, keep string) (DataLoss, bool) {
	if !cloudDisk || len(copies) == 0 {
		return DataLoss{}, false
	}
	lines := crossCopyLines(copies, func(time.Time) bool { return true })
	if keep == "" {
		keep = "the backup policy's"
	}
	return DataLoss{Rule: RuleDataLossCrossRelease, Value: id, Args: []any{len(copies), id, keep, strings.Join(lines, "\n")}}, true
}

// PlanCrossRegionReleaseLoss reads the copies of a cloud-disk instance about to be released (keep
// is the released_keep_policy the release sends) and returns the loss (nil when none goes).
func PlanCrossRegionReleaseLoss(ctx context.Context, api rdsapi.API, id string, cloudDisk bool, keep string, now time.Time) (*DataLoss, error) {
	if !cloudDisk {
		return nil, nil
	}
	copies, err := allCopies(ctx, api, id, now)
	if err != nil {
		return nil, err
	}
	if loss, ok := CrossRegionReleaseLoss(id, cloudDisk, copies, keep); ok {
		return &loss, nil
	}
	return nil, nil
}

// ReleaseFacts are the cross-region backups of an instance a replacement releases, and the
// released_keep_policy its release sends.
type ReleaseFacts struct {
	KeepPolicy string
	Copies     []rdsapi.CrossRegionBackup
}

// checkReleasedCopies names the cross-region backups a replacement deletes when it releases the
// instance on cloud disks it replaces (the destroy's row); prevent_data_loss refuses it.
func checkReleasedCopies(in PlanInput, d *Decision) {
	r, bp := in.Facts.Release, in.Desired.Billing
	if r == nil || !DestroyReleases(DestroyRequest{InstanceID: in.Label, Prepaid: bp.PriorPrepaid, OnDestroy: bp.OnDestroy}) {
		return // an abandoned subscription stays, with its copies
	}
	if loss, ok := CrossRegionReleaseLoss(in.Label, true, r.Copies, r.KeepPolicy); ok {
		d.add(loss.Problem(in.Desired.PreventDataLoss))
	}
}

// CheckCrossTimeRange checks a DescribeCrossRegionBackups range: both times in CrossTimeLayout,
// the end not before the start.
func CheckCrossTimeRange(start, end string) []Problem {
	var out []Problem
	var bounds [2]time.Time
	for i, f := range [][2]string{{start, "start_time"}, {end, "end_time"}} {
		t, err := time.Parse(CrossTimeLayout, f[0])
		if err != nil {
			out = append(out, Raise(RuleCrossRegionTimeFilter, f[0], f[0], f[1]))
		}
		bounds[i] = t
	}
	if len(out) == 0 && bounds[1].Before(bounds[0]) {
		out = append(out, Raise(RuleCrossRegionTimeFilter, end, end, "end_time"))
	}
	return out
}
