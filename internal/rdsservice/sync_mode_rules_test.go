package rdsservice

import (
	"testing"
	"time"
)

// S1-S3: the modes the High-availability and cluster editions offer, the Basic edition's refusal,
// the warning on a change; the program sends a mode other than the one read back (after a create:
// always, the executor skipping a mode already set).
func TestSyncModeRules(t *testing.T) {
	row := func(name, category string, m SyncModePlan, want []RuleID, ops int) settingRules {
		return settingRules{name, category, Desired{SyncMode: m}, want, ops}
	}
	checkSettingRules(t, time.Time{}, []settingRules{
		row("unmanaged", "HighAvailability", SyncModePlan{}, nil, 0),
		row("Sync", "HighAvailability", SyncModePlan{Configured: true, Want: "Sync"}, []RuleID{RuleSyncMode}, 0),
		row("Basic", "Basic", SyncModePlan{Configured: true, Want: "Async"}, []RuleID{RuleSyncModeBasic}, 0),
		row("to Async", "cluster", SyncModePlan{Configured: true, Want: "Async", Prior: "Semi-sync"}, []RuleID{RuleSyncModeChange}, 1),
		row("kept", "HighAvailability", SyncModePlan{Configured: true, Want: "Semi-sync", Prior: "Semi-sync"}, nil, 0),
	}, checkSyncMode, (*programBuilder).syncModeOperations)
}
