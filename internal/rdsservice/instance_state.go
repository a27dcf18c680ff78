package rdsservice

import (
	"fmt"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Instance states that do not end by themselves (simulator README, "Unusual states"): a Stopped
// instance stays stopped until its owner starts it, a locked one stays locked until someone
// renews, grows or unlocks it, and a Deleting one disappears. The cloud refuses every change in
// them, so the plan says so and the apply's waits fail at once instead of polling to the timeout.
const (
	StatusStopped  = "Stopped"
	StatusDeleting = "Deleting"
	// LockUnlocked is the LockMode of an instance that is not locked.
	LockUnlocked = "Unlock"
)

// Lock modes with their own fix (the official model's LockMode values).
const (
	lockManual                  = "ManualLock"
	lockByExpiration            = "LockByExpiration"
	lockByRestoration           = "LockByRestoration"
	lockByDiskQuota             = "LockByDiskQuota"
	lockReadInstanceByDiskQuota = "LockReadInstanceByDiskQuota"
)

// IsLocked reports whether a LockMode locks the instance ("" and "Unlock" do not).
func IsLocked(lockMode string) bool {
	m := strings.TrimSpace(lockMode)
	return m != "" && !strings.EqualFold(m, LockUnlocked)
}

func diskQuotaLock(lockMode string) bool {
	return lockMode == lockByDiskQuota || lockMode == lockReadInstanceByDiskQuota
}

// lockFix is what unlocks an instance locked in lockMode.
func lockFix(lockMode string) string {
	switch lockMode {
	case lockByExpiration:
		return "Renew the subscription with the rds_renew action (terraform apply -invoke=action.rds_renew.NAME), or convert it with billing = { pay_type = \"Postpaid\" }: either lifts the lock (the instance is released if it stays expired)."
	case lockByDiskQuota, lockReadInstanceByDiskQuota:
		return "Its disk is full: grow storage (the one change the cloud takes while this lock holds) or free space; the cloud lifts the lock about 5 minutes after usage is below the quota, and an apply that grows storage waits for that before it changes billing."
	case lockByRestoration:
		return "It is locked for a restore; wait until the restore has finished, or ask Alibaba Cloud support."
	case lockManual:
		return "It was locked by hand (by Alibaba Cloud, e.g. for an overdue payment or a security issue); have it unlocked in the console or by support."
	}
	return "See LockReason in the console and have it unlocked."
}

// StateProblems are the plan's problems for an existing instance in a state that takes no change:
// Deleting refuses a plan that changes it and warns otherwise; Stopped warns when the plan changes
// it; a lock warns, except a disk-quota lock when the plan only grows storage, which is how it is
// lifted. writes says whether the apply sends anything to the instance.
func StateProblems(label, status, lockMode, lockReason string, writes, onlyGrowsStorage bool) []Problem {
	switch status {
	case StatusDeleting:
		if writes {
			return []Problem{problem(RuleInstanceDeleting, status, label)}
		}
		return []Problem{problem(RuleInstanceDeletingNoChange, status, label)}
	}
	var out []Problem
	if status == StatusStopped && writes {
		out = append(out, problem(RuleInstanceStopped, status, label))
	}
	if IsLocked(lockMode) && (!diskQuotaLock(lockMode) || !onlyGrowsStorage) {
		out = append(out, lockProblem(label, lockMode, lockReason))
	}
	return out
}

func lockProblem(label, lockMode, lockReason string) Problem {
	reason := ""
	if lockReason != "" {
		reason = ", reason " + lockReason
	}
	return problem(RuleInstanceLocked, lockMode, label, lockMode, reason, lockFix(lockMode))
}

// planInstanceState adds StateProblems for an update of an existing instance, and for a new
// read-only instance those of its primary (CreateReadOnlyDBInstance is a change of the primary,
// refused in the same states).
func planInstanceState(in PlanInput, d *Decision) {
	if in.Prior == nil && in.Role == RoleReadOnly && in.Facts.Primary != nil {
		p := in.Facts.Primary
		d.add(StateProblems(p.ID, p.Status, p.LockMode, p.LockReason, true, false)...)
		return
	}
	if in.Prior == nil || len(in.Replace) > 0 {
		return
	}
	cur := in.Prior
	writes := d.Action != ActionNoop || in.Desired.InPlaceChanges || len(d.Parameters.Send) > 0
	// A change of pay type beside the growth waits for the growth to lift the lock: only when the
	// growth goes during this apply (disk_quota_rules.go).
	onlyGrowsStorage := growsStorageOnly(in, *d) && (!transformsPayType(in.Desired.Billing) || growsStorageNow(in))
	if ConvertsOutOfExpiry(in.Desired.Billing, cur.LockMode) {
		d.add(problem(RuleBillingLiftsExpiry, cur.LockMode, in.Label))
		d.add(StateProblems(in.Label, cur.Status, "", "", writes, onlyGrowsStorage)...)
		return
	}
	d.add(StateProblems(in.Label, cur.Status, cur.LockMode, cur.LockReason, writes, onlyGrowsStorage)...)
}

// InstanceStateError is a wait or a retry that met an instance in a state that does not end by
// itself: waiting longer would only reach the timeout.
type InstanceStateError struct {
	InstanceID string
	// What the wait or the call needed ("Running", "able to take this change").
	What     string
	Status   string
	LockMode string
	Problem  Problem
}

func (e *InstanceStateError) Error() string {
	return fmt.Sprintf("%s, so it cannot become %s: %s", e.Problem.Summary, e.What, e.Problem.Detail)
}

// stuckState is the InstanceStateError for attr when it is in a state that does not end by itself
// and ready does not hold: Stopped or Deleting, or Running while locked (a locked instance runs,
// but nothing it was asked to do will happen until it is unlocked). A disk-quota lock is no reason:
// the cloud still takes the storage growth that lifts it and the deletion, whose waits go on.
func stuckState(id, what string, attr *rdsapi.DBInstanceAttribute) *InstanceStateError {
	e := &InstanceStateError{InstanceID: id, What: what, Status: attr.DBInstanceStatus, LockMode: attr.LockMode}
	switch {
	case attr.DBInstanceStatus == StatusDeleting:
		e.Problem = problem(RuleInstanceDeleting, attr.DBInstanceStatus, id)
	case attr.DBInstanceStatus == StatusStopped:
		e.Problem = problem(RuleInstanceStopped, attr.DBInstanceStatus, id)
	case attr.DBInstanceStatus == StatusRunning && IsLocked(attr.LockMode) && !diskQuotaLock(attr.LockMode):
		e.Problem = lockProblem(id, attr.LockMode, attr.LockReason)
	default:
		return nil
	}
	return e
}

// ActionStateProblem refuses an action (rds_restart, rds_switchover, rds_apply_pending) on an
// instance in a state the cloud refuses it in; the zero Problem when the state takes it.
func ActionStateProblem(action string, attr *rdsapi.DBInstanceAttribute) Problem {
	id := attr.DBInstanceID
	switch {
	case attr.DBInstanceStatus == StatusDeleting:
		return problem(RuleActionInstanceState, attr.DBInstanceStatus, action, id, "being released (Deleting)", "Nothing runs on an instance being released.")
	case attr.DBInstanceStatus == StatusStopped:
		return problem(RuleActionInstanceState, attr.DBInstanceStatus, action, id, "Stopped", "Start it first (StartDBInstance or the console).")
	case IsLocked(attr.LockMode):
		return problem(RuleActionInstanceState, attr.LockMode, action, id, "locked (lock_mode "+attr.LockMode+")", lockFix(attr.LockMode))
	}
	return Problem{}
}
