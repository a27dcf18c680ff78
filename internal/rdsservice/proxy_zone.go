package rdsservice

import "slices"

// RuleProxyZone: the primary runs in a zone where RDS for MySQL does not offer the database proxy.
const RuleProxyZone RuleID = "proxy-zone"

// proxyUnofferedZones are the zones whose instances cannot start the database proxy (cloud fact
// P9, internal/simulator/README.md "Database proxy": Alibaba's "Enable the database proxy" lists
// them among the prerequisites). No API action answers it, so, as proxyMinMinor, it is a table.
var proxyUnofferedZones = []string{"cn-hangzhou-c", "cn-hangzhou-d"}

// checkProxyZone refuses a proxy on a primary read in a zone of proxyUnofferedZones; a primary
// not read yet (created in the same run) is the cloud's to check.
func checkProxyZone(p ProxyPrimary) []Problem {
	if !p.Known || !slices.Contains(proxyUnofferedZones, p.Zone) {
		return nil
	}
	return []Problem{Raise(RuleProxyZone, p.Zone, p.ID, p.Zone)}
}
