package rdsservice

import (
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A prefix another endpoint of the same proxy already answers at is refused by the cloud when the
// endpoint moves there (ModifyDBProxyEndpointAddress: InvalidConnectionString.Duplicate, simulator
// README "Database proxy"). The plan refuses it first, from the proxy's endpoints as DescribeDBProxy
// lists them, read only when the configured prefix changes the endpoint's address.

// RuleProxyEndpointPrefixTaken refuses a prefix another endpoint of the proxy has.
const RuleProxyEndpointPrefixTaken RuleID = "proxy-endpoint-prefix-taken"

// RuleProxyEndpointPrefixCase refuses a prefix that is not in lower case: the cloud stores it in
// lower case (an assumption: DNS names ignore case), so a configured upper-case letter would show as
// a change after an import, where no configured spelling is known.
const RuleProxyEndpointPrefixCase RuleID = "proxy-endpoint-prefix-case"

// ProxyPrefixHolder is an address of another endpoint of the proxy, by the prefix it answers at
// (lower case: DNS names ignore case, and the cloud stores the prefix in lower case).
type ProxyPrefixHolder struct {
	EndpointID, Address string
}

// ProxyPrefixHolders are the addresses of px's endpoints other than self, by lower-case prefix.
func ProxyPrefixHolders(px *rdsapi.DBProxy, self string) map[string]ProxyPrefixHolder {
	out := map[string]ProxyPrefixHolder{}
	for _, a := range px.Endpoints {
		if a.EndpointID == self || a.ConnectString == "" {
			continue
		}
		prefix := strings.ToLower(NetEndpoint{ConnectionString: a.ConnectString}.Prefix())
		out[prefix] = ProxyPrefixHolder{EndpointID: a.EndpointID, Address: a.ConnectString}
	}
	return out
}

// NeedsPrefixHolders reports whether the plan must read the proxy's endpoints: the configured
// prefix changes the endpoint's address (or a new endpoint's is configured).
func (a ProxyEndpointAddress) NeedsPrefixHolders() bool { return changesPrefix(a.Current, a.Want) }

// prefixProblems are the refusals of a configured prefix not in lower case, and of one another
// endpoint of instance's proxy has.
func (a ProxyEndpointAddress) prefixProblems(instance string) []Problem {
	var out []Problem
	lower := strings.ToLower(a.Want.Prefix)
	if lower != a.Want.Prefix {
		out = append(out, Raise(RuleProxyEndpointPrefixCase, a.Want.Prefix, a.Want.Prefix, lower))
	}
	if h, ok := a.Holders[lower]; ok && changesPrefix(a.Current, a.Want) {
		out = append(out, Raise(RuleProxyEndpointPrefixTaken, a.Want.Prefix, a.Want.Prefix, h.EndpointID, instance, h.Address))
	}
	return out
}
