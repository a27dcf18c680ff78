package rdsservice

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// What a later run does to a change waiting for the maintenance window (issue 39 §2): one
// behaviour for every kind of pending task and every kind of later run, decided here and written
// in PendingBehaviours, which the guide "Changes waiting for the maintenance window" renders
// (RenderPendingDocs), and that the planner follows (the tests of pending_later_protocol_test.go play
// each reported case). The cloud facts behind them:
// ModifyDBInstanceMaintainTime moves waiting tasks to the new window, a later spec order replaces
// a waiting one, and no API call withdraws a scheduled engine or minor version upgrade (simulator
// README, "Maintenance windows"; the last two are assumptions there).

// RuleReadOnlyBehindPendingUpgrade refuses a read-only instance added while its primary's
// upgrade waits for the window (issue 39 item 7; plan_readonly.go).
const RuleReadOnlyBehindPendingUpgrade RuleID = "readonly-behind-pending-upgrade"

// RuleActionPendingNotRunnable refuses rds_apply_pending for a waiting task that a restart does
// not run (a zone move or an upgrade; instance_actions.go).
const RuleActionPendingNotRunnable RuleID = "action-pending-not-runnable"

// PendingKind is what a task waiting for the window does.
type PendingKind string

// The kinds of pending tasks.
const (
	PendingEngineUpgrade PendingKind = "major version upgrade (`engine_version`)"
	PendingMinorUpgrade  PendingKind = "minor version upgrade (`target_minor_version`)"
	PendingZoneMove      PendingKind = "zone move (`zone_id`, `zone_id_slave_a`, `zone_id_slave_b`, `vswitch_id`)"
	PendingSpec          PendingKind = "spec change (`instance_type`, `storage`, `storage_type`, `buffer_pool_extension`)"
	PendingToggle        PendingKind = "16K atomic write toggle (`atomic_write_16k`)"
	PendingParameters    PendingKind = "restart-needing `parameters`"
	PendingFollow        PendingKind = "read-only instance following its primary's toggle"
)

// PendingBehaviour is one row of the table: what the plan says and the apply does when a later
// run meets a task of Kind.
type PendingBehaviour struct {
	Kind PendingKind
	// WindowMoved: maintenance_window changes. Reverted: the configuration sets the attributes
	// back to the instance's running values. MoreWork: another restarting change is deferred to
	// the same window. ReadOnly: a read-only instance of the primary is added or released.
	// ApplyPending: rds_apply_pending runs it now.
	WindowMoved, Reverted, MoreWork, ReadOnly, ApplyPending string
}

const (
	movesWithWindow = "moves with the window (the apply sends only `ModifyDBInstanceMaintainTime`, never the task again); the plan names its restart at the new window's time. " + openNow
	openNow         = "When the new window is open now, the cloud runs the task right away: the plan names its restart (and that of each read-only instance it restarts) during this apply, and the apply waits for it and reads the result back"
	cannotWithdraw  = "refused at plan (no API call withdraws it): keep the attribute as scheduled until the window has passed, or set `maintenance_window` to one open now to run it now"
	notRunnable     = "refused at plan (`action-pending-not-runnable`): a restart does not run it; set `maintenance_window` to one open now instead"
	ownRestart      = "a spec change deferred to the same window makes a restart of its own: the plan names both, and `scheduled_change` keeps this task; restart-needing `parameters` deferred alone to it take effect with this task's restart (one restart, named once with both reasons)"
	sharedRestart   = "the new spec order replaces the waiting one and carries both changes: one restart, named once"
	paramsWaitOn    = "Restart-needing `parameters` deferred with it are a task of their own: values left unmanaged (a `parameter_group_id` the instance leaves, a key removed) keep waiting, and the plan names the window's restart for them (`scheduled_change` then shows their task)"
	grownAtOnce     = "A storage growth of the same run went at once and is not part of the task: storage set back is a reduction of its own (one restart, where the storage type allows it); with `storage_auto_scale` on, storage is a floor and the disk stays as it is; turning autoscaling off below the disk is refused (`storage-auto-scale-off-below-actual`)"
)

// PendingBehaviours is the decided behaviour of every kind of pending task.
var PendingBehaviours = []PendingBehaviour{
	{Kind: PendingEngineUpgrade, WindowMoved: movesWithWindow, Reverted: cannotWithdraw, MoreWork: ownRestart,
		ReadOnly: "adding a read-only instance is refused at plan (`readonly-behind-pending-upgrade`): it would be created on the old version, and the cloud upgrades read-only instances before their primary; releasing one restarts nothing", ApplyPending: notRunnable},
	{Kind: PendingMinorUpgrade, WindowMoved: movesWithWindow, Reverted: cannotWithdraw, MoreWork: ownRestart,
		ReadOnly: "a read-only instance added before the window is created on the running version and upgraded with its primary there: its plan names that restart in the primary's window (as the plans of the read-only instances that exist do, also after the window moved); releasing one restarts nothing", ApplyPending: notRunnable},
	{Kind: PendingZoneMove, WindowMoved: movesWithWindow, Reverted: "cancelled: the apply orders the move to the instance's current zones for the window, which replaces the waiting move and moves nothing; the plan names no restart",
		MoreWork: ownRestart, ReadOnly: "adding or releasing one restarts nothing; a read-only instance's restart deferred to the window is refused in the run that defers the move (`zone-move-read-only-window`)", ApplyPending: notRunnable},
	{Kind: PendingSpec, WindowMoved: "moves with the window; the apply orders the same target for the new window, which replaces the waiting order (one restart, named at the new window's time). " + openNow,
		Reverted: "cancelled: the apply orders the instance's own spec for the window, which replaces the waiting order and restarts nothing. " + paramsWaitOn + ". " + grownAtOnce, MoreWork: sharedRestart,
		ReadOnly: "restarts nothing on read-only instances added or released", ApplyPending: "runs now; the plan names its restart"},
	{Kind: PendingToggle, WindowMoved: "as a spec change", Reverted: "as a spec change (the read-only instances announced to follow it no longer do)", MoreWork: sharedRestart,
		ReadOnly: "a read-only instance added before the window inherits the primary's current value and follows the toggle there (its plan names that restart)", ApplyPending: "runs now; the plan names its restart and that of each read-only instance that follows it"},
	{Kind: PendingParameters, WindowMoved: "moves with the window: the plan sends the waiting values again for it (ModifyParameter with the new window), which replaces the task with one restart, as before. " + openNow, Reverted: "withdrawn: the apply sets the running value back, and the task keeps only the values that still wait; when none is left the cloud cancels the task and the plan names no restart. A value set outside Terraform that waited for a restart before the task is not the task's: it waits on for any restart (`parameters_pending`), and no window restart is named for it",
		MoreWork: "shares the window's one restart with a spec change, a zone move or an upgrade of the same window", ReadOnly: "restarts nothing on read-only instances added or released", ApplyPending: "runs now: one restart"},
	{Kind: PendingFollow, WindowMoved: "follows its primary's window, not its own; when the primary's new window is open now it is turned on during this apply, and its plan says `atomic_write_16k = true` (also at its final plan, after its primary turned on)",
		Reverted: "reverting the primary's toggle cancels the follow (no restart named)",
		MoreWork: "parameters it defers to its own later window share the follow restart (one restart); a spec change of its own waiting for its own window is a restart of its own: an unchanged plan of it names both",
		ReadOnly: "a released read-only instance restarts nothing; adding another one leaves its plan unchanged, and that plan still names the follow beside a task of its own", ApplyPending: "`rds_apply_pending` on the primary turns it on now: the plan names its restart too"},
}

// PendingKinds classifies a pending task by the changes scheduled_change lists (the planner
// wrote them, so their forms are known here).
func (p PendingChange) PendingKinds() []PendingKind {
	var out []PendingKind
	add := func(k PendingKind) {
		for _, have := range out {
			if have == k {
				return
			}
		}
		out = append(out, k)
	}
	for _, c := range p.Changes {
		switch {
		case strings.HasPrefix(c, engineUpgradeReasonPrefix):
			add(PendingEngineUpgrade)
		case strings.HasPrefix(c, minorReasonPrefix):
			add(PendingMinorUpgrade)
		case strings.Contains(c, "MigrateToOtherZone"):
			add(PendingZoneMove)
		case strings.HasPrefix(c, "parameter "), strings.HasPrefix(c, parameterRestartReasonPrefix):
			add(PendingParameters)
		case strings.HasPrefix(c, AttrAtomicWrite+" "):
			add(PendingToggle)
		default:
			add(PendingSpec)
		}
	}
	return out
}

// Has reports whether the pending task does a change of kind k (false for none).
func (p *PendingChange) Has(k PendingKind) bool {
	if p == nil {
		return false
	}
	for _, have := range p.PendingKinds() {
		if have == k {
			return true
		}
	}
	return false
}

// pendingMinorFollow is the minor version upgrade waiting for the primary's window, as its
// read-only instances follow it (the cloud upgrades and restarts them with it); nil when none.
func pendingMinorFollow(d Decision, primaryID string) *MinorFollow {
	for _, r := range d.Restarts {
		if r.Task == "" || !strings.HasPrefix(r.InstanceID, primaryID) || len(r.Reasons) == 0 || !strings.HasPrefix(r.Reasons[0], minorReasonPrefix) {
			continue
		}
		// "target_minor_version changes from <from> to <to> (...)"
		if f := strings.Fields(strings.TrimPrefix(r.Reasons[0], minorReasonPrefix)); len(f) >= 3 && f[1] == "to" {
			return &MinorFollow{Primary: primaryID, To: f[2], When: r.When}
		}
	}
	return nil
}

// parameterRestartReasonPrefix begins the reason of a parameter change's restart
// (ParameterRestartReason), which a deferred one keeps in scheduled_change.changes.
const parameterRestartReasonPrefix = "parameters that take effect only after a restart change ("

// engineUpgradeReasonPrefix begins the reason of an engine upgrade's restart (settleEngineUpgrade).
const engineUpgradeReasonPrefix = AttrEngineVersion + " changes from "

// pendingEngineUpgradeTo: the upgrade to version already waits for the window.
func pendingEngineUpgradeTo(p *PendingChange, version string) bool {
	if p == nil {
		return false
	}
	for _, c := range p.Changes {
		if strings.HasPrefix(c, engineUpgradeReasonPrefix) && strings.Contains(c, " to "+version+" ") {
			return true
		}
	}
	return false
}

// windowMoves reports whether this apply moves the pending task to another window.
func windowMoves(in PlanInput, p PendingChange) bool {
	w := in.Desired.MaintenanceWindow
	return w.IsKnown() && p.Window != "" && w.Value() != p.Window
}

// pendingWhen is when the pending task runs after this apply: in its window, or in the new one
// when the apply moves the window (the task moves with it).
func pendingWhen(in PlanInput, p PendingChange) string {
	if !windowMoves(in, p) {
		return p.when()
	}
	w, err := ParseMaintenanceWindow(in.Desired.MaintenanceWindow.Value())
	if err != nil {
		return p.when()
	}
	return w.When(in.Facts.Now) + " (task " + p.TaskID + " moves there with maintenance_window)"
}

// OpWaitWindowTasks waits until the tasks of a maintenance window that is open now have run
// (runWindowNow): the cloud starts them right away, so the apply reads their result back.
const OpWaitWindowTasks = "wait: the maintenance window is open now; its tasks run"

// windowOpenNow: the maintenance window after this apply is open at the plan's time.
func windowOpenNow(in PlanInput) bool {
	if in.Facts.Now.IsZero() || !in.Desired.MaintenanceWindow.IsKnown() {
		return false
	}
	w, err := ParseMaintenanceWindow(in.Desired.MaintenanceWindow.Value())
	if err != nil {
		return false
	}
	start, _ := w.Next(in.Facts.Now)
	return !in.Facts.Now.Before(start)
}

// runWindowNow: when the maintenance window after this apply is open now, what this apply defers
// to it and the tasks waiting for it (moved there with maintenance_window) run right away: the
// plan names their restarts during this apply, not in a window (PendingBehaviours, window moved).
// A read-only instance that follows its primary's toggle keeps its own account (ByPrimary).
func runWindowNow(in PlanInput, d *Decision) {
	if in.Prior == nil || !windowOpenNow(in) {
		return
	}
	note := "maintenance_window " + in.Desired.MaintenanceWindow.Value() + " is open now: the cloud runs this right away, during the apply"
	for i, r := range d.Restarts {
		if r.When == "" || r.ByPrimary || (r.Task == "" && (!d.Deferred || !restartDeferrable(r.Op))) {
			continue
		}
		d.Restarts[i].When = ""
		d.Restarts[i].Reasons = append(slices.Clone(r.Reasons), note)
		if d.Parameters.PendingKnown {
			d.Parameters.Pending = map[string]string{} // the window's restart applies every waiting value
		}
	}
}

// CancelsPendingTask reports whether the apply withdraws the task waiting for the window without
// ordering another (a zone move set back): scheduled_change is then null.
func (d Decision) CancelsPendingTask() bool {
	return d.ZoneMove != nil && d.ZoneMove.CancelsPending
}

// ScheduledEngineUpgrade is the major version the instance upgrades to in its maintenance window
// ("" when no upgrade waits), from its task's TaskDetail.
func ScheduledEngineUpgrade(ctx context.Context, api rdsapi.API, id string) (string, error) {
	out, err := api.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{InstanceID: id, TaskType: rdsapi.TaskTypeUpgradeEngineVersion,
		Status: rdsapi.TaskStatusScheduled + "," + rdsapi.TaskStatusWaiting})
	if err != nil {
		return "", err
	}
	for _, t := range out.Items {
		var detail struct{ EngineVersion string }
		if t.InstanceID == id && json.Unmarshal([]byte(t.TaskDetail), &detail) == nil && detail.EngineVersion != "" {
			return detail.EngineVersion, nil
		}
	}
	return "", nil
}
