package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// guardRestarts turns the restarts, certain or possible, into the warning, or with prevent_restart
// into the error. A plan refused for another reason shows only that reason.
func guardRestarts(in PlanInput, d *Decision) {
	if len(d.Restarts) > 0 {
		d.Action = maxAction(d.Action, ActionUpdateWithRestart)
	}
	deferToWindow(in, d)
	checkReadOnlyBesideZoneMove(in, d)
	followScheduledPrimary(in, d)
	planPendingChange(in, d)
	runWindowNow(in, d)
	d.MayRestartWhen = possibleRestartsWhen(in, *d)
	pendingMayBeApplied(d)
	d.Program = programOf(in, *d)
	if d.HasErrors() {
		return
	}
	withdrawFollows(in, d)
	at := d.RestartAttribute
	if at == "" {
		at = AttrAtomicWrite
	}
	restarts := d.Program.Restarts()
	switch {
	case len(restarts) > 0 && in.Desired.PreventRestart:
		d.Guard = GuardPreventRestart
		d.add(RestartProblem(restarts, false, true, at))
	case len(restarts) > 0:
		d.add(RestartProblem(restarts, false, false, at))
	case len(d.MayRestart) > 0:
		// A possible restart is refused as a certain one: the apply could only fail after
		// other resources of the run have changed.
		if in.Desired.PreventRestart {
			d.Guard = GuardPreventRestart
		}
		d.add(RestartProblem([]Restart{{InstanceID: in.Label, When: d.MayRestartWhen,
			Reasons:  []string{strings.Join(d.MayRestart, ", ") + " known only at apply"},
			Downtime: downtimeOf(in)}}, true, in.Desired.PreventRestart, at))
	}
	if in.Desired.PreventRestartUnknown && (len(restarts) > 0 || len(d.MayRestart) > 0) {
		d.add(problem(RuleRestartGuardUnknown, "", in.Label, map[bool]string{true: "a restart", false: "a possible restart"}[len(restarts) > 0]))
	}
}

// followScheduledPrimary: a read-only instance that is off, and eligible, after this apply is
// turned on with a restart when its primary's scheduled toggle runs (rule 7), in the primary's
// window. Its plan names that restart, and prevent_restart refuses it, as the primary's own guard
// refuses the toggle. A toggle whose window is open now runs during this apply: at the read-only
// instance's final plan its primary may be on already, and it still follows.
func followScheduledPrimary(in PlanInput, d *Decision) {
	s, primary := in.Facts.PrimaryScheduled, in.Facts.Primary
	if in.Role != RoleReadOnly || s == nil || !s.On || primary == nil || primary.Enabled && !followsNow(s, in.Facts.Now) ||
		!d.AtomicWrite.Is(false) || !d.AtomicWriteSupported.Is(true) {
		return
	}
	if in.Desired.AtomicWrite.Is(false) {
		d.add(problem(Rule16KReadOnlyOff, "false", in.Label, primary.ID, "will have", readOnlyOffFix(in, primary.ID, false)))
		return
	}
	when := "in the maintenance window of its primary " + primary.ID + " (starts " + s.StartsAt + ")"
	reason := followReasonPrefix + primary.ID + " turning atomic_write_16k on in the primary's maintenance window (atomic_write_16k changes from false to true)"
	if followsNow(s, in.Facts.Now) {
		when, reason = "", reason+"; that window is open now: during this apply"
		d.AtomicWrite = Known(true)
	}
	reasons := []string{reason}
	if s.MayBeCancelled {
		reasons = append(reasons, "unless the primary's values known only at apply cancel its waiting task")
	}
	d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, When: when, ByPrimary: true, Possible: s.MayBeCancelled,
		Downtime: ExpectedDowntime("", true), Reasons: reasons})
	if d.RestartAttribute == "" {
		d.RestartAttribute = AttrAtomicWrite
	}
}

// planBufferPoolExtension decides Buffer Pool Extension (primary only): the configured value,
// else the current one (off when the storage type no longer allows it).
func (u *updatePlan) planBufferPoolExtension() {
	cur, c, d := u.cur, u.c, u.d
	bpe := c.BufferPoolExtension
	switch {
	case c.BufferPoolExtension.IsKnown():
	case c.BufferPoolExtension.IsUnknown() || c.StorageType.IsUnknown():
		bpe = Unknown[bool]()
	default:
		bpe = Known(cur.BufferPoolExtension && strings.EqualFold(u.newType, "general_essd"))
	}
	d.BufferPoolExtension = bpe
	if bpe.IsUnknown() {
		d.MayRestart = append(d.MayRestart, AttrBufferPoolExtension)
	} else if bpe.Value() != cur.BufferPoolExtension {
		d.Order.BufferPoolExtension = bpe.Ptr()
		u.trigger(AttrBufferPoolExtension)
		if c.StorageType.IsKnown() {
			d.add(CheckBufferPoolExtension(u.newType, bpe.Value())...)
		}
	}
}

// planRestarts lists this instance's restarts: every spec change is one ModifyDBInstanceSpec,
// one restart (or none for an online storage growth alone).
func (u *updatePlan) planRestarts() {
	cur, in, d := u.cur, u.in, u.d
	var wantFlag *bool
	if u.flagChanged && !d.FollowsPrimary {
		wantFlag = u.flag.Ptr()
	}
	reasons := SpecChangeRestarts(cur, wantFlag, u.change)
	if d.Order.BufferPoolExtension != nil {
		reasons = append(reasons, fmt.Sprintf("buffer_pool_extension changes from %t to %t", cur.BufferPoolExtension, *d.Order.BufferPoolExtension))
	}
	if len(reasons) > 0 && endsWithSwitchover(in, d.Order) {
		reasons = append(reasons, switchoverReason)
	}
	if d.FollowsPrimary {
		// The cloud's own restart, apart from any spec change this plan sends (rule 7).
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label,
			Reasons:  []string{"follows its primary " + cur.MasterID + " turning atomic_write_16k on (atomic_write_16k changes from false to true)"},
			Downtime: ExpectedDowntime(cur.Category, u.readOnly)})
	}
	switch {
	case len(reasons) > 0 && cur.Status != "" && cur.Status != StatusRunning && cur.Status != StatusStopped && cur.Status != StatusDeleting:
		// A change is still under way (e.g. an update that timed out): the apply waits for it and
		// sends only what is still missing, so the plan cannot promise this restart.
		d.add(problem(RuleChangeInProgress, cur.Status, in.Label, cur.Status))
		d.MayRestart = append(d.MayRestart, "the change under way (status "+cur.Status+")")
	case len(reasons) > 0:
		r := Restart{InstanceID: in.Label, Reasons: reasons, Downtime: ExpectedDowntime(cur.Category, u.readOnly)}
		if classMayKeepTask(in) { // pending_spec_task.go
			r.Possible, r.Reasons = true, append(reasons, classMayKeepTaskReason)
		}
		d.Restarts = append(d.Restarts, r)
	}
	if !d.Order.Empty() || d.FollowsPrimary {
		d.Action = ActionUpdate
	}
}

// planFollowers: turning a primary on turns on its read-only instances that have it off (one
// restart each).
func (u *updatePlan) planFollowers() {
	in, d := u.in, u.d
	if u.readOnly || !u.flagChanged || !u.flag.Value() || d.HasErrors() {
		return
	}
	if in.Facts.ReadOnlyError != "" {
		d.add(problem(Rule16KReadOnlyNotKnown, "true", in.Label, in.Facts.ReadOnlyError))
	}
	d.Followers = FollowingReadOnly(u.cur.Enabled, true, in.Facts.ReadOnly)
	for _, ro := range d.Followers {
		d.Restarts = append(d.Restarts, Restart{InstanceID: ro + " (read-only instance)",
			Reasons: []string{"follows its primary turning atomic_write_16k on"}, Downtime: ExpectedDowntime("", true)})
	}
}

// settleActionAndStatus: attributes known only at apply make it an update; the status of an
// instance not Running is known only after the apply.
func (u *updatePlan) settleActionAndStatus() {
	d := u.d
	if d.Action == ActionNoop && len(d.MayRestart) > 0 {
		d.Action = ActionUpdate
	}
	if d.Action != ActionNoop && d.Status.Is(u.cur.Status) && u.cur.Status != StatusRunning {
		d.Status = Unknown[string]()
	}
}

// readOnlyOffFix is rule 7's advice for a read-only instance planned off while its primary has
// 16K atomic write on; byChange: the planned change itself makes it ineligible, so true is
// refused too. Both can change in one apply only when the primary's change is not deferred.
func readOnlyOffFix(in PlanInput, primary string, byChange bool) string {
	fix := "Remove atomic_write_16k (the read-only instance then inherits the primary's value) or set it to true"
	if byChange {
		fix = "Keep an instance_type and storage_type with which this read-only instance can have 16K atomic write"
	}
	fix += ", or turn 16K atomic write off on the primary " + primary + " first"
	if in.Facts.PrimaryScheduled != nil {
		return fix + " and let that apply finish: the primary's change waits for its maintenance window, so both cannot change in one apply."
	}
	return fix + " (both can change in one apply)."
}

// permanence says when turning 16K atomic write off by a change is for good: an instance bought
// before 2025-05-14 whose product type changes (x86 <-> YiTian) never gets it back (rule 9).
func permanence(cur ExistingInstance, change SpecChange) string {
	if ChangesProductType(cur, change) && boughtBeforeCutoff(cur) {
		return fmt.Sprintf(" The loss is permanent: %s was bought before 2025-05-14 and its product type changes, so it never gets 16K atomic write back, even on its current architecture.", cur.ID)
	}
	return ""
}

func attrIf(cond bool, name string) string {
	if cond {
		return name
	}
	return ""
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func describeChange(cur ExistingInstance, change SpecChange) string {
	var parts []string
	if change.InstanceClass != "" {
		parts = append(parts, fmt.Sprintf("instance_type %q -> %q", cur.InstanceClass, change.InstanceClass))
	}
	if change.StorageType != "" {
		parts = append(parts, fmt.Sprintf("storage_type %q -> %q", cur.StorageType, change.StorageType))
	}
	return strings.Join(parts, ", ")
}

// classProblems checks instance_type and storage against the class catalogue's answer.

// deferToWindow marks an update's restarts for the maintenance window when apply_restarts asks
// for it: the spec order and the parameters that need a restart wait for the window, and every
// restart they cause (the instance's and its followers') happens there, as one restart of the
// instance. A deferred restart is still a restart: prevent_restart refuses it. A read-only
// instance that follows its primary's toggle restarts when its primary does: not deferred here.
func deferToWindow(in PlanInput, d *Decision) {
	if in.Prior == nil || in.Desired.ApplyRestarts != ApplyRestartsInWindow || len(d.Restarts) == 0 || d.FollowsPrimary ||
		(d.Order.Empty() && !d.Parameters.NeedsRestart() && d.Upgrade == nil && d.Minor.Upgrade == nil && d.ZoneMove == nil) {
		return
	}
	window, err := ParseMaintenanceWindow(in.Desired.MaintenanceWindow.Or(""))
	if err != nil {
		return // an invalid window is refused by its own rule; the plan then stops there
	}
	d.Deferred = true
	start, _ := window.Next(in.Facts.Now)
	d.DeferredStartsAt = start.UTC().Format(APITimeLayout)
	when := window.When(in.Facts.Now)
	for i := range d.Restarts {
		if restartDeferrable(d.Restarts[i].Op) { // SSL and TDE cannot wait for the window (security_rules.go)
			d.Restarts[i].When = when
		}
	}
	// Until the window the restart-needing values wait, with those already waiting.
	if d.Parameters.PendingKnown && in.Facts.Parameters != nil {
		pending := map[string]string{}
		for name, v := range in.Facts.Parameters.Pending {
			if !slices.Contains(d.Parameters.Withdrawn, name) && !securityRestartsNow(*d) { // an SSL or TDE restart applies them now
				pending[name] = v
			}
		}
		for _, name := range d.Parameters.Restart {
			pending[name] = d.Parameters.Send[name]
		}
		d.Parameters.Pending = pending
	}
}
