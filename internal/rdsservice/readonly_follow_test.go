package rdsservice

import (
	"testing"
	"time"
)

// A waiting toggle that runs now (its window is open now) is what the primary's read-only
// instances follow during this apply: PlannedScheduledFlag reads it from the task's restart, which
// says whether it turns atomic_write_16k on, whatever its reasons list first or add.
func TestPlannedScheduledFlagReadsTheTaskRestart(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC)
	task := func(changes ...string) Decision {
		restarts := pendingRestarts("rm-1", "", PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-03T02:00:00Z", Changes: changes})
		for i := range restarts {
			restarts[i].When = "" // the window is open now (runWindowNow)
			restarts[i].Reasons = append([]string{"maintenance_window 10:00Z-13:00Z is open now"}, restarts[i].Reasons...)
		}
		return Decision{Restarts: restarts}
	}
	for _, c := range []struct {
		name string
		dec  Decision
		want bool
	}{
		{"toggle on", task("atomic_write_16k changes from false to true"), true},
		{"class change and toggle on", task(`instance_type changes from "a" to "b"`, "atomic_write_16k changes from false to true"), true},
		{"toggle off", task("atomic_write_16k changes from true to false"), false},
		{"class change alone", task(`instance_type changes from "a" to "b"`), false},
		{"parameters alone", task("parameter back_log is set to 4000"), false},
	} {
		got := PlannedScheduledFlag(c.dec, now)
		if (got != nil) != c.want {
			t.Errorf("%s: %+v, want a toggle on now %t", c.name, got, c.want)
			continue
		}
		if got != nil && (!got.On || !followsNow(got, now)) {
			t.Errorf("%s: %+v, want on and starting now", c.name, got)
		}
	}
}
