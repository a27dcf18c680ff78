package rdsservice

import "context"

// RuleProxySpecDropsConnections: a spec change of an instance behind a database proxy whose
// persistent connections are off drops the connections open through the proxy.
const RuleProxySpecDropsConnections RuleID = "proxy-spec-change-drops-connections"

// ProxySpecChange names, on the plan of instance label (the primary, or a read-only instance of
// primary), the switchover its own spec change makes through primary's database proxy while the
// proxy keeps no persistent connections: Alibaba's usage notes say such a change switches the
// instance over, and only persistent connections keep the clients' connections to the proxy alive.
// The proxy is read only when the plan orders a class, storage type or edition change. The
// change's restart is already named, and refused by prevent_restart; this says what else breaks.
func ProxySpecChange(ctx context.Context, env Env, label, primary string, dec Decision) []Problem {
	o := dec.Order
	if primary == "" || label == "" || (o.InstanceClass == nil && o.StorageType == nil && o.Category == nil) {
		return nil
	}
	px, err := env.API.DescribeDBProxy(ctx, primary)
	if err != nil || !px.Started || px.PersistentConnections {
		return nil // a proxy that cannot be read is not named: the change's restart is
	}
	when := "during this apply"
	for _, r := range dec.Restarts {
		if r.InstanceID == label && r.Task == "" && !r.ByPrimary && r.When != "" {
			when = r.When
		}
	}
	return []Problem{Raise(RuleProxySpecDropsConnections, label, label, primary, when)}
}
