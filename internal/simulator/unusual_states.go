package simulator

import (
	"fmt"
	"slices"
	"time"
)

// statusStopped is an instance stopped by its owner (RDS MySQL lets pay-as-you-go cloud-disk
// instances stop); it stays Stopped until it is started again.
const statusStopped = "Stopped"

// Lock modes as DescribeDBInstanceAttribute reports them (LockMode; the official model lists these
// values). lockUnlocked is what an instance that is not locked shows.
const (
	lockUnlocked                   = "Unlock"
	lockManual                     = "ManualLock"
	lockByExpiration               = "LockByExpiration"
	lockByRestoration              = "LockByRestoration"
	lockByDiskQuota                = "LockByDiskQuota"
	lockReadInstanceByDiskQuota    = "LockReadInstanceByDiskQuota"
	defaultLockReasonForExpiration = "instance_expired"
)

var lockModes = []string{lockUnlocked, lockManual, lockByExpiration, lockByRestoration, lockByDiskQuota, lockReadInstanceByDiskQuota}

// lockMode is the LockMode to report ("Unlock" when not locked).
func (in *instance) lockMode() string {
	if in.LockMode == "" {
		return lockUnlocked
	}
	return in.LockMode
}

// writable refuses a mutating action on an instance that cannot take it: not Running
// (OperationDenied.DBInstanceStatus, the code the official provider retries on), or locked
// (IncorrectDBInstanceLockMode, HTTP 403, the code the RDS API reference lists for a locked
// instance). An instance locked because its disk is full may still grow its storage or be
// released, which is how an owner gets out of that lock.
func (in *instance) writable(action string) *apiError {
	if in.Status != statusRunning {
		return errBusy(in.ID, in.Status)
	}
	switch in.lockMode() {
	case lockUnlocked:
		return nil
	case lockByDiskQuota, lockReadInstanceByDiskQuota:
		if action == "ModifyDBInstanceSpec" || action == "DeleteDBInstance" {
			return nil
		}
	}
	return newErr(403, "IncorrectDBInstanceLockMode", "Current DB instance lock mode does not support this operation: %s is locked (%s).", in.ID, in.lockMode())
}

// InstanceState is the body of POST /_simulator/instances/{id}/state (and of SetInstanceState): it
// puts an instance in a state the API cannot produce on demand. Every field is optional; "status" is Running,
// Stopped or Deleting (Deleting ends in removal after DeleteDuration, or after "for_ms", and takes
// a primary's read-only instances with it);
// "lock_mode" is one of the LockMode values ("Unlock" unlocks) with an optional "lock_reason".
type InstanceState struct {
	Status     string `json:"status"`
	LockMode   string `json:"lock_mode"`
	LockReason string `json:"lock_reason"`
	ForMS      int64  `json:"for_ms"`
}

// SetInstanceState puts an instance in a state the API cannot produce on demand (the Go form of
// POST /_simulator/instances/{id}/state).
func (s *Simulator) SetInstanceState(id string, st InstanceState) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.cloudNow())
	if err := s.setInstanceState(id, st); err != nil {
		return err
	}
	return s.saveLocked()
}

// AddIPArray adds or replaces an IP array the way another Alibaba service does (the Go form of
// POST /_simulator/instances/{id}/ip-arrays); attribute is "" or "hidden".
func (s *Simulator) AddIPArray(id, name, ips, attribute string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.cloudNow())
	in, ok := s.state.Instances[id]
	if !ok {
		return fmt.Errorf("no instance %s", id)
	}
	if e := in.addForeignIPArray(name, ips, attribute); e != nil {
		return fmt.Errorf("%s", e.message)
	}
	return s.saveLocked()
}

// setInstanceState applies an admin state change under s.mu.
func (s *Simulator) setInstanceState(id string, ch InstanceState) error {
	in, ok := s.state.Instances[id]
	if !ok {
		return fmt.Errorf("no instance %s", id)
	}
	if ch.ForMS < 0 || ch.ForMS > int64(24*time.Hour/time.Millisecond) {
		return fmt.Errorf("for_ms must be between 0 and 86400000, got %d", ch.ForMS)
	}
	if ch.LockMode != "" && !slices.Contains(lockModes, ch.LockMode) {
		return fmt.Errorf("lock_mode %q is not one of %v", ch.LockMode, lockModes)
	}
	now := s.cloudNow()
	switch ch.Status {
	case "":
	case statusRunning, statusStopped:
		in.Status, in.StatusUntil = ch.Status, time.Time{}
	case statusDeleting:
		d := s.opts.DeleteDuration
		if ch.ForMS > 0 {
			d = time.Duration(ch.ForMS) * time.Millisecond
		}
		// Released elsewhere: a primary goes with its read-only instances, as DeleteDBInstance does.
		for _, roID := range s.state.readOnlyIDs(in.ID) {
			startTransition(s.state.Instances[roID], statusDeleting, now, d)
		}
		startTransition(in, statusDeleting, now, d)
	default:
		return fmt.Errorf("status %q is not one of Running, Stopped, Deleting", ch.Status)
	}
	switch ch.LockMode {
	case "":
	case lockUnlocked:
		in.LockMode, in.LockReason = "", ""
	default:
		in.LockMode, in.LockReason = ch.LockMode, ch.LockReason
		in.LockedStorage, in.UnlockAt = in.Storage, time.Time{}
		if in.LockReason == "" && ch.LockMode == lockByExpiration {
			in.LockReason = defaultLockReasonForExpiration
		}
	}
	return nil
}

// liftDiskQuotaLocks lifts the disk-quota lock of an instance that runs on more storage than it
// was locked on (grown by its owner, in a window or by autoscaling), DiskQuotaUnlockDelay after
// the growth was first seen in effect: Alibaba unlocks such an instance about 5 minutes after the
// expansion takes effect (README "Unusual states"). It reports whether anything changed.
func (s *Simulator) liftDiskQuotaLocks(now time.Time) bool {
	changed := false
	for _, in := range s.state.Instances {
		if (in.LockMode != lockByDiskQuota && in.LockMode != lockReadInstanceByDiskQuota) || in.LockedStorage == 0 || in.Status != statusRunning || in.Storage <= in.LockedStorage {
			continue
		}
		if in.UnlockAt.IsZero() {
			in.UnlockAt, changed = now.Add(s.opts.DiskQuotaUnlockDelay), true
		}
		if !now.Before(in.UnlockAt) {
			in.LockMode, in.LockReason, in.LockedStorage, in.UnlockAt = "", "", 0, time.Time{}
			changed = true
		}
	}
	return changed
}
