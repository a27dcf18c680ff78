package rdsservice

import (
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The replication mode (issue 45 §3): sync_mode on rds_instance, sent with
// ModifyDBInstanceHAConfig after a create and in place, read back with DescribeDBInstanceHAConfig
// only where it is configured (internal/simulator/README.md, "Replication mode"):
//
//   - S1 the High-availability and cluster editions replicate Semi-sync or Async (Sync is the
//     Enterprise edition's, and cannot be changed there);
//   - S2 a Basic-edition instance has no secondary to replicate to;
//   - S3 a change names what it does: no switchover nor restart (assumption: none is documented),
//     and with Async a failover can lose transactions.

// OpSyncMode is the operation that sends sync_mode.
const OpSyncMode = "ModifyDBInstanceHAConfig"

// AttrSyncMode is the attribute the replication rules point at.
const AttrSyncMode = "sync_mode"

const (
	RuleSyncMode       RuleID = "sync-mode"
	RuleSyncModeBasic  RuleID = "sync-mode-basic"
	RuleSyncModeChange RuleID = "sync-mode-change"
)

// SyncModes are sync_mode's values (S1).
var SyncModes = []string{rdsapi.SyncModeSemiSync, rdsapi.SyncModeAsync}

// SyncModePlan is what the planner knows of an instance's sync_mode.
type SyncModePlan struct {
	// Want is the configured mode; Configured is false when sync_mode is left out (not managed);
	// WantUnknown is set while it is known only at apply.
	Want        string
	Configured  bool
	WantUnknown bool
	// Prior is the mode the last refresh read back (empty for a create or when unmanaged).
	Prior string
}

// checkSyncMode raises S1-S3 for a known configured sync_mode.
func checkSyncMode(in PlanInput, d *Decision) {
	s := in.Desired.SyncMode
	if !s.Configured || s.WantUnknown {
		return
	}
	category := in.Desired.Category.Or("")
	if category == "" && in.Prior != nil {
		category = in.Prior.Category
	}
	switch {
	case strings.EqualFold(category, "Basic"):
		d.add(problem(RuleSyncModeBasic, s.Want, s.Want))
	case !slices.Contains(SyncModes, s.Want):
		d.add(problem(RuleSyncMode, s.Want, s.Want))
	case s.Prior != "" && s.Prior != s.Want:
		d.add(problem(RuleSyncModeChange, s.Want, in.Label, s.Prior, s.Want))
	}
}
