package simulator

import "time"

// Instance statuses (DBInstanceStatus).
const (
	statusCreating      = "Creating"
	statusRunning       = "Running"
	statusDeleting      = "Deleting"
	statusRebooting     = "Rebooting"
	statusClassChanging = "DBInstanceClassChanging"
)

// advance applies every timed transition due at now: a transitional status whose time is up
// becomes Running (or, for Deleting, the instance is gone), and a toggled flag becomes visible.
// Transitions are evaluated lazily on each request, so an injected clock drives them exactly.
// It reports whether anything changed.
func (s *Simulator) advance(now time.Time) bool {
	changed := s.finishTransitions(now)
	changed = s.expireSubscriptions(now) || changed
	changed = s.liftDiskQuotaLocks(now) || changed
	// A change scheduled for a maintenance window starts at the window's start; the transitions
	// it starts may already be over at now.
	if s.runDueTasks(now) {
		s.finishTransitions(now)
		changed = true
	}
	if s.autoUpgradeMinor(now) {
		s.finishTransitions(now)
		changed = true
	}
	if s.autoScaleAll(now) {
		changed = true
	}
	if s.copyAllCrossBackups(now) {
		changed = true
	}
	return changed
}

// finishTransitions ends the timed statuses and flag lags that are over at now.
func (s *Simulator) finishTransitions(now time.Time) bool {
	changed := false
	for id, in := range s.state.Instances {
		if in.Status != statusRunning && !in.StatusUntil.IsZero() && !now.Before(in.StatusUntil) {
			if in.Status == statusDeleting {
				s.keepReleasedBackups(in, now)
				s.releaseCrossBackups(in, now)
				s.recordReleasedDatabases(in)
				delete(s.state.Instances, id)
				changed = true
				continue
			}
			in.Status = statusRunning
			in.StatusUntil = time.Time{}
			changed = true
		}
		if !in.FlagVisibleAt.IsZero() && !now.Before(in.FlagVisibleAt) {
			in.FlagVisibleAt = time.Time{}
			in.ShownOptimized = in.Optimized
			changed = true
		}
	}
	return changed
}

// shownOptimized is the flag as DescribeDBInstanceAttribute reports it at now.
func (in *instance) shownOptimized(now time.Time) bool {
	if !in.FlagVisibleAt.IsZero() && now.Before(in.FlagVisibleAt) {
		return in.ShownOptimized
	}
	return in.Optimized
}

// startRestart takes a Running instance out of service for RestartDuration with the given
// status and counts the restart. When the flag changes with it, the new value shows FlagLag
// after the instance is Running again.
func (s *Simulator) startRestart(in *instance, status string, now time.Time, newOptimized bool) {
	shown := in.shownOptimized(now)
	in.Status = status
	in.StatusUntil = now.Add(s.opts.RestartDuration)
	if newOptimized != in.Optimized || !in.FlagVisibleAt.IsZero() {
		in.ShownOptimized = shown
		in.FlagVisibleAt = in.StatusUntil.Add(s.opts.FlagLag)
	}
	in.Optimized = newOptimized
	in.applyPendingParams()
	s.stats.Restarts[in.ID]++
	s.endpoints.noteRestart(in.ID)
	if s.opts.RestartDuration == 0 {
		in.Status = statusRunning
		in.StatusUntil = time.Time{}
	}
}

// startTransition puts an instance in a timed status that ends in Running (or removal).
func startTransition(in *instance, status string, now time.Time, d time.Duration) {
	if d == 0 {
		if status == statusDeleting {
			in.Status = statusDeleting
			in.StatusUntil = now
			return
		}
		in.Status = statusRunning
		in.StatusUntil = time.Time{}
		return
	}
	in.Status = status
	in.StatusUntil = now.Add(d)
}
