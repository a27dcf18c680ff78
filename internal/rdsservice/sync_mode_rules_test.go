package rdsservice

import (
	"slices"
	"testing"
)

// S1-S3: the modes the High-availability and cluster editions offer, the Basic edition's refusal,
// the warning on a change; the program sends a mode other than the one read back (after a create:
// always, the executor skipping a mode already set).
func TestSyncModeRules(t *testing.T) {
	for _, c := range []struct {
		name     string
		category string
		s        SyncModePlan
		want     []RuleID
		ops      int
	}{
		{"unmanaged", "HighAvailability", SyncModePlan{}, nil, 0},
		{"Sync", "HighAvailability", SyncModePlan{Configured: true, Want: "Sync"}, []RuleID{RuleSyncMode}, 0},
		{"Basic", "Basic", SyncModePlan{Configured: true, Want: "Async"}, []RuleID{RuleSyncModeBasic}, 0},
		{"to Async", "cluster", SyncModePlan{Configured: true, Want: "Async", Prior: "Semi-sync"}, []RuleID{RuleSyncModeChange}, 1},
		{"kept", "HighAvailability", SyncModePlan{Configured: true, Want: "Semi-sync", Prior: "Semi-sync"}, nil, 0},
	} {
		in := PlanInput{Label: "rm-1", Desired: Desired{Category: Known(c.category), SyncMode: c.s}}
		in.Prior = &ExistingInstance{ID: "rm-1", Category: c.category}
		var d Decision
		checkSyncMode(in, &d)
		var got []RuleID
		for _, p := range d.Problems {
			got = append(got, p.Rule)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.want)
		}
		if d.HasErrors() {
			continue
		}
		b := &programBuilder{in: in, d: d}
		b.syncModeOperations("rm-1", WhenNow)
		if len(b.ops) != c.ops {
			t.Errorf("%s: %d operations, want %d", c.name, len(b.ops), c.ops)
		}
	}
}
