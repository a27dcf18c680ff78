package rdsservice

// UnchangedInstance is an instance whose plan equals its state, as the state holds it: what the
// plan of it decides without reading anything (PlanUnchangedInstance), and what says that this run
// must plan it in full all the same (Ledger.Replans).
type UnchangedInstance struct {
	Role                           Role
	ID, Category, Status, LockMode string
	PreventRestart                 bool
	// Pending is the task scheduled_change records (nil: none).
	Pending *PendingChange
	// ParameterGroup is parameter_group_id ("": none).
	ParameterGroup string
	// PrimaryID, AtomicWrite and AtomicWriteSupported are a read-only instance's primary and its
	// 16K atomic write flag and eligibility.
	PrimaryID                         string
	AtomicWrite, AtomicWriteSupported bool
}

// Replans reports whether this run must plan unchanged instance u in full: its parameter group
// changes in this run, or (a read-only instance) this run planned its primary, or found the primary
// unchanged with a task waiting for its window while u has none of its own (the primary's plan or
// task may restart it; a pending change of u's own is named by its unchanged plan, and planning it
// again would order it anew).
func (l *Ledger) Replans(u UnchangedInstance) bool {
	if _, ok := l.Group(u.ParameterGroup); ok && u.ParameterGroup != "" {
		return true
	}
	if u.Role != RoleReadOnly || u.PrimaryID == "" {
		return false
	}
	if !l.Primary(u.PrimaryID).AtomicWrite.IsNull() {
		return true
	}
	return u.Pending == nil && l.PendingTask(u.PrimaryID)
}

// UnchangedPlan is the plan of an unchanged instance: the problems of the state the refresh found
// (a status or lock that refuses writes), and the decision of a task waiting for its window (nil
// when none).
type UnchangedPlan struct {
	StateProblems []Problem
	Pending       *Decision
}

// PlanUnchangedInstance plans unchanged instance u (PlanUnchanged) and records in l what the plans
// that follow read: a primary's waiting task, the minor version upgrade and the toggle it makes in
// the window.
func PlanUnchangedInstance(l *Ledger, u UnchangedInstance) UnchangedPlan {
	out := UnchangedPlan{StateProblems: StateProblems(u.ID, u.Status, u.LockMode, "", false, false)}
	if u.Pending == nil {
		return out
	}
	follow := Follow{}
	if u.Role == RoleReadOnly {
		follow = Follow{PrimaryID: u.PrimaryID, Scheduled: l.Primary(u.PrimaryID).Scheduled, Enabled: u.AtomicWrite, Supported: u.AtomicWriteSupported}
	} else {
		l.RecordPendingTask(u.ID)
	}
	dec := PlanUnchanged(u.Role, u.ID, u.Category, u.PreventRestart, u.Pending, follow)
	l.recordPendingSwitch(u.ID, dec) // proxy_pending_switch.go
	if u.Role == RolePrimary {
		l.RecordMinor(u.ID, PlannedMinorFollow(dec, u.ID))
		l.RecordScheduled(u.ID, u.Pending.ToggleOn())
	}
	out.Pending = &dec
	return out
}
