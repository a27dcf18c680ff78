package rdsservice

import (
	"slices"
	"strings"
)

// RuleProxyZone: the primary runs in a zone where RDS for MySQL does not offer the database proxy.
const RuleProxyZone RuleID = "proxy-zone"

// proxyUnofferedZones are the zones whose instances cannot start the database proxy (cloud fact
// P9, internal/simulator/README.md "Database proxy": Alibaba's "Enable the database proxy" lists
// them among the prerequisites). No API action answers it, so, as proxyMinMinor, it is a table.
var proxyUnofferedZones = []string{"cn-hangzhou-c", "cn-hangzhou-d"}

// checkProxyZone refuses a proxy on a primary read in a zone of proxyUnofferedZones, or deployed
// across zones one of which is (a multi-zone id); a primary not read yet (created in the same run)
// is the cloud's to check.
func checkProxyZone(p ProxyPrimary) []Problem {
	if !p.Known {
		return nil
	}
	for _, z := range zonesOf(p.Zone) {
		if !slices.Contains(proxyUnofferedZones, z) {
			continue
		}
		if z != p.Zone {
			z = p.Zone + " (its zone " + z + ")"
		}
		return []Problem{Raise(RuleProxyZone, p.Zone, p.ID, z)}
	}
	return nil
}

// zonesOf are the zones of an instance's zone id: the members of a multi-zone id, which names
// its region, "MAZ" and a number, and its zones' letters in brackets (cn-hangzhou-MAZ6(b,f),
// cn-hangzhou-MAZ5(b,e,f): DescribeRegions' reference, simulator README "Database proxy" [P10]),
// else the id itself.
func zonesOf(id string) []string {
	if i := strings.Index(id, "-MAZ"); i > 0 {
		if members := multiZoneMembers(id[:i], id); members != nil {
			return members
		}
	}
	return []string{id}
}
