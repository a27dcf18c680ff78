package rdsservice

import (
	"context"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A spec change waiting for the maintenance window from an earlier run switches its instance over
// when the task runs (simulator README "Database proxy": a class, storage type or edition change
// switches over), wherever that run comes from: a later run that moves the window to one open now
// (runWindowNow names the task's restart during this apply), a window moved elsewhere, or
// rds_apply_pending. Behind a started proxy without persistent connections that switchover drops
// the connections through the proxy, as a spec change this plan orders does (ProxySpecChange).

// switchReasonPrefixes begin the reasons (SpecChangeRestarts, as scheduled_change lists them) of a
// spec change that switches its instance over.
var switchReasonPrefixes = []string{AttrInstanceType + " changes from ", AttrStorageType + " changes from ", "category changes from "}

// switchesOver reports whether a restart's reasons include a change that switches the instance over.
func switchesOver(reasons []string) bool {
	for _, r := range reasons {
		for _, part := range strings.Split(r, "; ") {
			for _, p := range switchReasonPrefixes {
				if strings.HasPrefix(part, p) {
					return true
				}
			}
		}
	}
	return false
}

// pendingSwitchWhen is when the task waiting for the window that the plan of instance label names
// the restart of switches it over ("during this apply" when it runs now), and whether one does.
func pendingSwitchWhen(label string, dec Decision) (string, bool) {
	for _, r := range dec.Restarts {
		if r.InstanceID != label || r.Task == "" || r.ByPrimary || !switchesOver(r.Reasons) {
			continue
		}
		if r.When == "" {
			return specChangeNow, true
		}
		return r.When, true
	}
	return "", false
}

// proxyApplyPendingDrop names, on rds_apply_pending's plan for instance attr, the connections
// through its primary's database proxy that the waiting spec change run now drops (restart r names
// what runs); nothing when it does not switch over, or no proxy without persistent connections is
// started, or the proxy cannot be read (the action's restart is named either way).
func proxyApplyPendingDrop(ctx context.Context, api rdsapi.API, attr *rdsapi.DBInstanceAttribute, r *Restart) []Problem {
	if r == nil || !switchesOver(r.Reasons) {
		return nil
	}
	id, primary := attr.DBInstanceID, attr.DBInstanceID
	if attr.MasterInstanceID != "" {
		primary = attr.MasterInstanceID
	}
	px, err := api.DescribeDBProxy(ctx, primary)
	if err != nil || !px.Started || px.PersistentConnections {
		return nil
	}
	return []Problem{Raise(RuleProxySpecDropsConnections, id, id, primary, specChangeNow)}
}

// recordPendingSwitch records in l when the task waiting for the window that unchanged instance
// id's plan (dec) names switches it over, for the proxy's plan (ProxyStartSpecChanges).
func (l *Ledger) recordPendingSwitch(id string, dec Decision) {
	if when, ok := pendingSwitchWhen(id, dec); ok {
		l.recordSpecChange(id, when)
	}
}

// runsWindowNow: the maintenance window after this apply is open now, so what the plan defers to
// it runs during this apply (its program waits for the window's tasks: pending_program.go).
func runsWindowNow(dec Decision) bool {
	return slices.ContainsFunc(dec.Program.Operations, func(o Operation) bool { return o.Action == OpWaitWindowTasks })
}
