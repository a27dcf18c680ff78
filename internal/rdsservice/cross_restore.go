package rdsservice

import (
	"context"
	"fmt"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Restore from a cross-region backup (issue 46 §2): restore_from.cross_region_backup_id names a
// copy (a CrossBackupId of DescribeCrossRegionBackups) of source_instance_id's backups, made from
// source_region; CreateDdrInstance restores it to a new instance in the region that holds the copy,
// which must be the provider's region (a provider creates instances in its own region only). The
// plan reads the copy and refuses a copy that is gone, one held in another region, and an engine or
// version other than the copy's, all before anything is written.

// AttrCrossRestoreID and AttrCrossRestoreRegion are the attributes the cross-region restore
// rules point at.
const (
	AttrCrossRestoreID     = "restore_from.cross_region_backup_id"
	AttrCrossRestoreRegion = "restore_from.source_region"
)

const (
	RuleCrossRestoreSourceRegion RuleID = "restore-cross-region-source-region"
	RuleCrossRestoreCopyMissing  RuleID = "restore-cross-region-copy-missing"
	RuleCrossRestoreRegion       RuleID = "restore-cross-region-provider-region"
	RuleCrossRestoreUnreadable   RuleID = "restore-cross-region-copy-unreadable"
)

// CrossRestore is restore_from's cross-region backup: copy CopyID of SourceID's backups, made
// from SourceRegion.
type CrossRestore struct {
	SourceID, SourceRegion, CopyID string
}

// CrossCopyFacts is the copy as the plan read it: Copy nil when the cloud has none of that id,
// Error when the read failed; Region is the provider's, where the new instance is created.
type CrossCopyFacts struct {
	Restore CrossRestore
	Copy    *rdsapi.CrossRegionBackup
	Error   string
	Region  string
}

// CheckCrossRestoreShape checks that cross_region_backup_id and source_region come together
// (values not known yet are not checked).
func CheckCrossRestoreShape(copyID, sourceRegion Val[string]) []Problem {
	if copyID.IsUnknown() || sourceRegion.IsUnknown() {
		return nil
	}
	if (copyID.Or("") != "") != (sourceRegion.Or("") != "") {
		return []Problem{problem(RuleCrossRestoreSourceRegion, sourceRegion.Or(""), sourceRegion.Or(""))}
	}
	return nil
}

// readCrossCopy reads the copy a cross-region restore names, asked in the source's region (the
// source may be released: a local-disk instance's copies outlive it).
func readCrossCopy(ctx context.Context, env Env, r CrossRestore, in *PlanInput) {
	f := &CrossCopyFacts{Restore: r, Region: env.Region}
	in.Facts.CrossCopy = f
	got, err := env.API.DescribeCrossRegionBackups(ctx, &rdsapi.DescribeCrossRegionBackupsRequest{
		RegionID: r.SourceRegion, DBInstanceID: r.SourceID, CrossBackupID: r.CopyID})
	switch {
	case rdsapi.IsNotFound(err):
		return
	case err != nil:
		f.Error = err.Error()
		return
	}
	for i, c := range got.Items.Item {
		if string(c.CrossBackupID) == r.CopyID {
			f.Copy = &got.Items.Item[i]
		}
	}
}

// checkCrossRestore raises the rules of a cross-region restore against the copy read at plan: the
// copy exists, it is held in the provider's region, and the configured engine and version are the
// copy's (CreateDdrInstance restores the set into the same engine version).
func checkCrossRestore(in PlanInput, d *Decision) {
	f := in.Facts.CrossCopy
	r := f.Restore
	switch {
	case f.Error != "":
		d.add(problem(RuleCrossRestoreUnreadable, r.CopyID, r.CopyID, r.SourceID, r.SourceRegion, f.Error))
		return
	case f.Copy == nil:
		d.add(problem(RuleCrossRestoreCopyMissing, r.CopyID, r.CopyID, r.SourceID, r.SourceRegion))
		return
	}
	if f.Copy.CrossBackupRegion != f.Region {
		d.add(problem(RuleCrossRestoreRegion, r.CopyID, r.CopyID, f.Copy.CrossBackupRegion, f.Region))
	}
	label := "cross-region backup " + r.CopyID
	c := in.Desired
	if c.Engine.IsKnown() && f.Copy.Engine != "" && !strings.EqualFold(c.Engine.Value(), f.Copy.Engine) {
		d.add(problem(RuleCloneDiffersFromSource, c.Engine.Value(), AttrEngine, c.Engine.Value(), label, f.Copy.Engine).At(AttrEngine))
	}
	if c.EngineVersion.IsKnown() && f.Copy.EngineVersion != "" && strings.TrimSpace(c.EngineVersion.Value()) != f.Copy.EngineVersion {
		d.add(problem(RuleCloneDiffersFromSource, c.EngineVersion.Value(), AttrEngineVersion, c.EngineVersion.Value(), label, f.Copy.EngineVersion))
	}
}

// crossRestoreLabel names the new instance of a cross-region restore in messages.
func crossRestoreLabel(r CrossRestore) string {
	return fmt.Sprintf("the new instance restored from cross-region backup %s of %s", r.CopyID, r.SourceID)
}

// readCrossRestore reads what a cross-region restore is planned from: the copy, and its source
// instance when the cloud still has it. A released source is no refusal when its copy is there
// (the new instance's inherited atomic_write_16k is then known only at apply).
func readCrossRestore(ctx context.Context, env Env, r CrossRestore, in *PlanInput) {
	readCloneSource(ctx, env, r.SourceID, in)
	readCrossCopy(ctx, env, r, in)
	in.Label = crossRestoreLabel(r)
	if in.Facts.Source == nil && in.Facts.CrossCopy.Copy != nil {
		in.Facts.SourceError = ""
	}
}

// CreateDdrInstance restores a cross-region backup to a new instance in req.RegionID. The cloud
// takes no tag on this action, so it is journaled and resent as CloneDBInstance is: the instances
// of the destination region listed before the first send are remembered, and an unanswered
// restore is looked for among the new ones with the request's class and zone.
func CreateDdrInstance(ctx context.Context, api rdsapi.API, w *Waiter, req *rdsapi.CreateDdrInstanceRequest) (string, error) {
	r := *req
	if r.ClientToken == "" {
		r.ClientToken = rdsapi.NewClientToken()
	}
	list := &rdsapi.DescribeDBInstancesRequest{RegionID: r.RegionID, DBInstanceType: rdsapi.InstanceTypePrimary}
	existing, err := ListAllDBInstances(ctx, api, list)
	if err != nil {
		return "", fmt.Errorf("listing the instances before restoring (nothing was sent): %w", err)
	}
	before := map[string]bool{}
	for _, it := range existing {
		before[it.DBInstanceID] = true
	}
	send := func(ctx context.Context) (string, error) {
		out, err := api.CreateDdrInstance(ctx, &r)
		if err != nil {
			return "", err
		}
		return out.DBInstanceID, nil
	}
	find := func(ctx context.Context) ([]rdsapi.DBInstanceSummary, bool, error) {
		items, err := ListAllDBInstances(ctx, api, list)
		if err != nil {
			return nil, false, err
		}
		var matches []rdsapi.DBInstanceSummary
		for _, it := range items {
			if !before[it.DBInstanceID] && it.DBInstanceClass == r.DBInstanceClass && (r.ZoneID == "" || it.ZoneID == r.ZoneID) {
				matches = append(matches, it)
			}
		}
		return matches, false, nil
	}
	return createUntilDeadline(ctx, w, OpCreateDdr, r.ClientToken, send, find)
}
