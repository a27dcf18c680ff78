package rdsservice

import (
	"context"
	"slices"
	"strings"
)

// RuleProxySpecDropsConnections: a spec change of an instance behind a database proxy whose
// persistent connections are off drops the connections open through the proxy.
const RuleProxySpecDropsConnections RuleID = "proxy-spec-change-drops-connections"

// AttrProxyPersistent is rds_db_proxy's persistent_connections.
const AttrProxyPersistent = "persistent_connections"

// specChangeNow is when a spec change made by the apply switches its instance over.
const specChangeNow = "during this apply"

// ProxySpecChange names, on the plan of instance id (the primary, or a read-only instance of
// primary; label is how its plan's restarts name it), the switchover its own spec change makes
// through primary's database proxy while the proxy keeps no persistent connections: Alibaba's usage
// notes say such a change switches the instance over, and only persistent connections keep the
// clients' connections to the proxy alive. The proxy is read only when the plan orders a class,
// storage type or edition change, or may (instance_type or storage_type known only at apply: named
// as possible), which it records in the run's Ledger for the proxy's plan (ProxyStartSpecChanges).
// A spec change waiting for the window from an earlier run (a task the plan names the restart of)
// is named when the plan says it runs: during this apply when the window after it is open now. With
// a class or storage type known only at apply and apply_restarts = immediately, the order that may be
// sent now replaces the task, so the drop is named possible during this apply (issue 39 §4: it was
// named for the task's window, and the apply's switchover went unnamed; seeds 20261202, 20261206, 3).
// The change's restart is already named, and refused by prevent_restart; this says what else breaks.
func ProxySpecChange(ctx context.Context, env Env, id, label, primary string, dec Decision) []Problem {
	o := dec.Order
	unknown := slices.DeleteFunc(slices.Clone(dec.MayRestart), func(a string) bool { return a != AttrInstanceType && a != AttrStorageType })
	ordered := o.InstanceClass != nil || o.StorageType != nil || o.Category != nil
	task, waits := pendingSwitchWhen(label, dec) // proxy_pending_switch.go
	if primary == "" || id == "" || (!ordered && !waits && len(unknown) == 0) {
		return nil
	}
	when := specChangeWhen(label, dec)
	switch {
	case !ordered && waits && (len(unknown) == 0 || dec.MayRestartWhen != ""):
		when = task // else a possible order sent now replaces the task: named possible, during this apply, below
	case !ordered:
		if dec.MayRestartWhen != "" {
			when = dec.MayRestartWhen // a possible order waits for the window with apply_restarts = in_maintenance_window
		}
		when += " if " + strings.Join(unknown, " or ") + specChangeUnknown // known only at apply: a possible switchover
	}
	env.Ledger.recordSpecChange(id, when)
	px, err := env.API.DescribeDBProxy(ctx, primary)
	if err != nil || !px.Started || px.PersistentConnections {
		return nil // a proxy that cannot be read is not named: the change's restart is
	}
	return []Problem{Raise(RuleProxySpecDropsConnections, id, id, primary, when)}
}

// specChangeUnknown ends when a spec change's attributes are known only at apply.
const specChangeUnknown = " (known only at apply) changes"

// specChangeWhen is when the plan's spec change switches instance label over: during this apply,
// or as its restart says (the maintenance window), or in the window its deferred order waits for,
// unless that window is open now and the cloud runs the order right away (runWindowNow).
func specChangeWhen(label string, dec Decision) string {
	when := specChangeNow
	if dec.Deferred && !runsWindowNow(dec) { // proxy_pending_switch.go
		when = "in the maintenance window"
	}
	for _, r := range dec.Restarts {
		if r.InstanceID == label && r.Task == "" && !r.ByPrimary && r.When != "" {
			when = r.When
		}
	}
	return when
}

// ProxyStartSpecChanges names, on the plan of rds_db_proxy, the spec changes of the primary and
// its read-only instances that this run's plans left for the maintenance window, when the proxy
// leaves this run started without persistent connections although their plans read it off or
// keeping them (a proxy created, or its persistent connections turned off): the window's switchover
// comes after this apply and drops the connections open through the proxy by then. A change made
// during this apply is not named, as nothing through this proxy breaks: Terraform applies the proxy
// after the primary (instance_id) and each read-only instance that read_only_weights references,
// and the apply waits out their spec change, switchover included, before the proxy starts. A
// read-only instance the proxy does not weight may switch over while the proxy starts: a proxy
// still starting serves no client, so that drops nothing either (simulator README "Database proxy").
func ProxyStartSpecChanges(l *Ledger, req ProxyRequest, current *ProxySpec) []Problem {
	p := req.Primary
	if !p.Known || req.Desired.Persistent || (current != nil && !current.Persistent) {
		return nil
	}
	var out []Problem
	for _, id := range append([]string{p.ID}, p.ReadOnlyIDs...) {
		if when := l.specChange(id); when != "" && !strings.HasPrefix(when, specChangeNow) {
			out = append(out, Raise(RuleProxySpecDropsConnections, id, id, p.ID, when).At(AttrProxyPersistent))
		}
	}
	return out
}

// recordSpecChange records that this run's plan of instance id switches it over when.
func (l *Ledger) recordSpecChange(id, when string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.specChanges == nil {
		l.specChanges = map[string]string{}
	}
	l.specChanges[id] = when
}

// specChange is when this run's plan of instance id switches it over ("": no spec change).
func (l *Ledger) specChange(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.specChanges[id]
}
