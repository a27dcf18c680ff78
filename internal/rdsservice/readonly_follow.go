package rdsservice

import (
	"slices"
	"time"
)

// A read-only instance that follows its primary's scheduled toggle restarts when the primary's
// window comes (followScheduledPrimary). Parameters it defers to its own window on their own (no
// spec order) wait for its next restart; when the follow comes first (the primary's window starts
// no later than its own), that restart applies them and the parameter task then has nothing left
// to restart for (simulator README "Parameters": a parameter task whose values an earlier restart
// of any kind applied succeeds without a second restart; an assumption there). So the plan names
// one restart, not two.

// followComesFirst: the primary's scheduled toggle starts no later than the instance's own
// deferred change (both in the API's time layout).
func followComesFirst(primary *ScheduledFlag, ownStart string) bool {
	if primary == nil {
		return false
	}
	p, err1 := time.Parse(APITimeLayout, primary.StartsAt)
	o, err2 := time.Parse(APITimeLayout, ownStart)
	return err1 == nil && err2 == nil && !p.After(o)
}

// PlannedScheduledFlag is the primary's toggle that waits for its window after this apply, as its
// read-only instances' plans follow it: the one this apply defers, or a waiting one that runs now
// because its window is open now (runWindowNow; StartsAt is then now, so that the read-only
// instances follow it during this apply). nil when none.
func PlannedScheduledFlag(d Decision, now time.Time) *ScheduledFlag {
	if d.Deferred && d.Order.AtomicWrite != nil {
		return &ScheduledFlag{On: *d.Order.AtomicWrite, StartsAt: d.DeferredStartsAt}
	}
	for _, r := range d.Restarts {
		if r.Task != "" && r.When == "" && r.TurnsAtomicWriteOn {
			return &ScheduledFlag{On: true, StartsAt: now.UTC().Format(APITimeLayout)}
		}
	}
	return nil
}

// followsNow: the primary's toggle starts no later than now (its window is open now), so the
// read-only instance follows it during this apply.
func followsNow(s *ScheduledFlag, now time.Time) bool {
	at, err := time.Parse(APITimeLayout, s.StartsAt)
	return err == nil && !now.IsZero() && !at.After(now)
}

// Follow is what the plan of an unchanged read-only instance (PlanUnchanged) knows of its primary's
// toggle waiting for the primary's window: the toggle this run's plan of the primary recorded (nil:
// none), and the instance's flag and eligibility in state.
type Follow struct {
	PrimaryID          string
	Scheduled          *ScheduledFlag
	Enabled, Supported bool
}

// restarts is the restart of following that toggle (rule 7), as the plan that deferred it named it:
// a task of the read-only instance's own does not replace it (the two run in their own windows).
func (f Follow) restarts(label string) []Restart {
	if f.Scheduled == nil {
		return nil
	}
	in := PlanInput{Role: RoleReadOnly, Label: label, Facts: Facts{PrimaryScheduled: f.Scheduled, Primary: &ExistingInstance{ID: f.PrimaryID}}}
	d := Decision{AtomicWrite: Known(f.Enabled), AtomicWriteSupported: Known(f.Supported)}
	followScheduledPrimary(in, &d)
	return d.Restarts
}

// ToggleOn is the toggle of atomic_write_16k on that the waiting task makes in its window, as the
// instance's read-only instances follow it; nil when the task makes none.
func (p *PendingChange) ToggleOn() *ScheduledFlag {
	if p == nil || !slices.ContainsFunc(p.Changes, turnsAtomicWriteOn) {
		return nil
	}
	return &ScheduledFlag{On: true, StartsAt: p.StartsAt}
}
