package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Provider-defined actions (Terraform 1.14+, issue 28) are one-off operations on an instance. Their
// plan shows a restart as a resource's plan does (RestartProblem: the warning naming the instance,
// or the prevent_restart refusal), and they run with the waits every other write uses.

// actionRestart is the restart the action named action causes.
func actionRestart(action string, attr *rdsapi.DBInstanceAttribute) Restart {
	return Restart{
		InstanceID: attr.DBInstanceID,
		Reasons:    []string{action + " restarts it now (RestartDBInstance)"},
		Downtime:   ExpectedDowntime(attr.Category, attr.MasterInstanceID != ""),
	}
}

// restartInstance restarts a Running instance and waits until it is Running again. A busy
// instance is retried until ctx's deadline, as every write is.
func restartInstance(ctx context.Context, api rdsapi.API, w *Waiter, id string) (*rdsapi.DBInstanceAttribute, error) {
	if err := w.RetryBusy(ctx, func() error { return api.RestartDBInstance(ctx, id) }); err != nil {
		return nil, fmt.Errorf("RestartDBInstance %s: %w", id, err)
	}
	return w.WaitRunning(ctx, id)
}

// SwitchoverPlan is what rds_switchover will do: the node that becomes the primary, and the plan's
// warning or refusal.
type SwitchoverPlan struct {
	Target  *rdsapi.HANode
	Problem Problem
}

// PlanSwitchover reads the instance's nodes and plans the switch to its secondary: the warning that
// names the interruption, the prevent_restart refusal, or the error for an instance without a
// secondary node.
func PlanSwitchover(ctx context.Context, api rdsapi.API, attr *rdsapi.DBInstanceAttribute, preventRestart bool) (SwitchoverPlan, error) {
	id := attr.DBInstanceID
	if attr.MasterInstanceID != "" {
		return SwitchoverPlan{Problem: Raise(RuleActionNoSecondary, id, id, "a read-only instance")}, nil
	}
	ha, err := api.DescribeDBInstanceHAConfig(ctx, id)
	if err != nil {
		return SwitchoverPlan{}, fmt.Errorf("DescribeDBInstanceHAConfig %s: %w", id, err)
	}
	target := ha.Node(rdsapi.NodeTypeSlave)
	if target == nil {
		return SwitchoverPlan{Problem: Raise(RuleActionNoSecondary, id, id, "a "+attr.Category+"-edition instance")}, nil
	}
	node := string(target.NodeID)
	if preventRestart {
		return SwitchoverPlan{Target: target, Problem: Raise(RuleActionSwitchoverRefused, id, id, node)}, nil
	}
	return SwitchoverPlan{Target: target, Problem: Raise(RuleActionSwitchover, id, id, node, target.ZoneID, ExpectedDowntimeHA)}, nil
}

// switchOverTo switches a Running instance to node (its secondary) and waits until
// DescribeDBInstanceHAConfig shows node as the primary and the instance is Running. Busy answers
// are retried; the client never resends the switch itself (a second switch would switch back).
func switchOverTo(ctx context.Context, api rdsapi.API, w *Waiter, id, node string) (*rdsapi.DBInstanceAttribute, error) {
	if err := w.RetryBusy(ctx, func() error { return api.SwitchDBInstanceHA(ctx, id, node) }); err != nil {
		return nil, fmt.Errorf("SwitchDBInstanceHA %s to node %s: %w", id, node, err)
	}
	err := w.Poll(ctx, fmt.Sprintf("node %s to be the primary of %s", node, id), func() (bool, string, error) {
		ha, err := api.DescribeDBInstanceHAConfig(ctx, id)
		if err != nil {
			return false, "", err
		}
		master := ha.Node(rdsapi.NodeTypeMaster)
		return master != nil && string(master.NodeID) == node, "primary node " + nodeIDOf(master), nil
	})
	if err != nil {
		return nil, err
	}
	return w.WaitRunning(ctx, id)
}

func nodeIDOf(n *rdsapi.HANode) string {
	if n == nil {
		return "none"
	}
	return string(n.NodeID)
}

// PendingPlan is what rds_apply_pending will do: the change waiting for the maintenance window
// (nil when none waits) and the plan's message.
type PendingPlan struct {
	Task    *ScheduledTask
	Problem Problem
	// Restart is the restart running the task now causes (nil when none waits).
	Restart *Restart
	// Followers are the restarts of the read-only instances that follow it now.
	Followers []Restart
	// Notes are further warnings: the connections through the database proxy it drops.
	Notes []Problem
}

// PlanApplyPending reads the change waiting for the instance's window. None: a warning that the
// action has nothing to do. One: the restart warning naming what runs now, or with
// preventRestart the refusal.
func PlanApplyPending(ctx context.Context, api rdsapi.API, attr *rdsapi.DBInstanceAttribute, preventRestart bool) (PendingPlan, error) {
	id := attr.DBInstanceID
	task, err := PendingTask(ctx, api, id)
	if err != nil {
		return PendingPlan{}, fmt.Errorf("DescribeHistoryTasks %s: %w", id, err)
	}
	scheduled := ScheduledTaskOf(task)
	if scheduled == nil {
		return PendingPlan{Problem: Raise(RuleActionNothingPending, id, id)}, nil
	}
	if task.TaskType != rdsapi.TaskTypeModifySpec && task.TaskType != rdsapi.TaskTypeModifyParameter {
		// A restart would not run it: the task keeps waiting (PendingBehaviours, rds_apply_pending).
		return PendingPlan{Problem: Raise(RuleActionPendingNotRunnable, id, id, task.TaskType, task.TaskID)}, nil
	}
	changes := []string{"what waits for the maintenance window runs now"}
	if cur, err := ExistingFromAttribute(attr); err == nil {
		changes = append(changes, scheduled.Changes(cur)...)
	}
	r := Restart{InstanceID: id, Reasons: changes, Downtime: ExpectedDowntime(attr.Category, attr.MasterInstanceID != "")}
	followers, err := pendingFollowers(ctx, api, attr, scheduled)
	if err != nil {
		return PendingPlan{}, err
	}
	restarts := append([]Restart{r}, followers...)
	out := PendingPlan{Task: scheduled, Problem: RestartProblem(restarts, false, preventRestart, AttrPreventRestart), Restart: &r, Followers: followers}
	if !preventRestart { // a refused action drops nothing
		out.Notes = proxyApplyPendingDrop(ctx, api, attr, &r) // proxy_pending_switch.go
	}
	return out, nil
}

// pendingFollowers are the restarts of the read-only instances that follow a waiting toggle of
// atomic_write_16k on (rule 7): run now, it turns them on now too, each with its restart (the row
// "read-only follow restart" of PendingBehaviours, event rds_apply_pending).
func pendingFollowers(ctx context.Context, api rdsapi.API, attr *rdsapi.DBInstanceAttribute, task *ScheduledTask) ([]Restart, error) {
	if task.Spec == nil || !task.Spec.AtomicWrite || attr.MasterInstanceID != "" {
		return nil, nil
	}
	cur, err := ExistingFromAttribute(attr)
	if err != nil || cur.Enabled {
		return nil, nil //nolint:nilerr // an unreadable flag: the primary's own restart is still named
	}
	var ros []ExistingInstance
	for _, id := range attr.ReadOnlyDBInstanceIDs {
		a, err := api.DescribeDBInstanceAttribute(ctx, id)
		if rdsapi.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("DescribeDBInstanceAttribute %s (read-only instance of %s): %w", id, attr.DBInstanceID, err)
		}
		if ro, err := ExistingFromAttribute(a); err == nil {
			ros = append(ros, ro)
		}
	}
	var out []Restart
	for _, id := range FollowingReadOnly(false, true, ros) {
		out = append(out, Restart{InstanceID: id + " (read-only instance)", Downtime: ExpectedDowntime("", true),
			Reasons: []string{"follows its primary " + attr.DBInstanceID + " turning atomic_write_16k on now (it was announced for the primary's maintenance window)"}})
	}
	return out, nil
}

// applyPendingNow runs the waiting change of a Running instance now: a spec change is sent again with EffectiveTime
// Immediate (an order replaces the pending one; its restart also applies the parameters that wait
// for a restart), parameters alone take a restart. It waits until the instance is Running with
// the change in effect.
func applyPendingNow(ctx context.Context, api rdsapi.API, w *Waiter, id string, task *ScheduledTask) (*rdsapi.DBInstanceAttribute, error) {
	if s := task.Spec; s != nil {
		flag, bpe := rdsapi.OptimizedWritesOff, ""
		if s.AtomicWrite {
			flag = rdsapi.OptimizedWritesOn
		}
		switch {
		case s.BufferPoolExtension:
			bpe = "1"
		case s.StorageType == "general_essd": // the only storage type that has it to turn off
			bpe = "0"
		}
		req := &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: s.InstanceClass, DBInstanceStorage: s.Storage,
			DBInstanceStorageType: s.StorageType, EffectiveTime: "Immediate", OptimizedWrites: flag, IoAccelerationEnabled: bpe}
		return ApplySpecChange(ctx, api, w, id, req, &s.AtomicWrite)
	}
	if _, err := restartInstance(ctx, api, w, id); err != nil {
		return nil, err
	}
	return WaitParametersRunning(ctx, api, w, id, task.Parameters)
}
