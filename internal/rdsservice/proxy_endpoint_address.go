package rdsservice

import (
	"net"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_db_proxy_endpoint's own address (issue 44 §1): connection_string_prefix and port change the
// endpoint's VPC address in place with ModifyDBProxyEndpointAddress (at once: the action takes no
// EffectiveTime). As for an instance's endpoint (endpoint_rules.go), the prefix (5-40 characters for
// this action, its InvalidConnectionString.Format) and the port are checked at plan (rules
// endpoint-prefix and endpoint-port), and the plan names the address that stops answering
// (endpoint-stops-resolving), which prevent_endpoint_change refuses (prevent-endpoint-change-refuses).
// Sources: internal/simulator/README.md, "Database proxy" [P6-P8].

// OpProxyEndpointAddress changes an rds_db_proxy_endpoint's address.
const OpProxyEndpointAddress = "ModifyDBProxyEndpointAddress"

// ProxyDomain is the DNS domain of proxy endpoint addresses (<prefix>.rwlb.rds.aliyuncs.com).
const ProxyDomain = "rwlb.rds.aliyuncs.com"

// ProxyEndpointAddress is an rds_db_proxy_endpoint's address as configured and as it is.
type ProxyEndpointAddress struct {
	// Want is connection_string_prefix and port as configured ("" and 0 keep the current ones).
	Want Endpoint
	// Current is the address now: the state's at plan, the cloud's at apply; nil for a new endpoint.
	Current *NetEndpoint
	// PreventChange is prevent_endpoint_change.
	PreventChange bool
	// Holders are the other endpoints of the proxy by prefix, read when the prefix changes (nil:
	// not read; proxy_endpoint_prefix.go).
	Holders map[string]ProxyPrefixHolder
}

// ProxyAddressAfter is the address of an endpoint now at current once want is applied: the new
// prefix replaces the first label and keeps the domain (ProxyDomain for an address that is an IP,
// which has no DNS name), the port is want's when set.
func ProxyAddressAfter(current NetEndpoint, want Endpoint) NetEndpoint {
	out := current.With(want)
	if want.Prefix != "" && net.ParseIP(current.ConnectionString) != nil {
		out.ConnectionString = strings.ToLower(want.Prefix) + "." + ProxyDomain
	}
	return out
}

// changes reports whether the configured address differs from the current one (a new endpoint's
// does when a prefix or port is configured).
func (a ProxyEndpointAddress) changes() bool {
	if a.Current == nil {
		return a.Want != (Endpoint{})
	}
	return ProxyAddressAfter(*a.Current, a.Want) != *a.Current
}

// PlannedAddress is the address after the apply; false when it is known only then (a new endpoint).
func (a ProxyEndpointAddress) PlannedAddress() (NetEndpoint, bool) {
	if a.Current == nil {
		return NetEndpoint{}, false
	}
	return ProxyAddressAfter(*a.Current, a.Want), true
}

// addressProblems checks a changed prefix and port, then names the address that stops answering
// (label names the endpoint).
func (a ProxyEndpointAddress) addressProblems(label string) []Problem {
	var out []Problem
	if changesPrefix(a.Current, a.Want) {
		out = append(out, prefixProblems(AttrConnectionPrefix, a.Want.Prefix, AllocPrefixMin, AllocPrefixMax)...)
	}
	if a.Want.Port != 0 && (a.Current == nil || a.Current.Port != a.Want.Port) {
		out = append(out, portProblems(AttrPort, a.Want.Port)...)
	}
	if len(out) > 0 || a.Current == nil || !a.changes() {
		return out
	}
	id := RuleEndpointStops
	if a.PreventChange {
		id = RuleEndpointChangeRefused
	}
	old, after := a.Current.Address(), ProxyAddressAfter(*a.Current, a.Want).Address()
	return []Problem{problem(id, old, old, after, label, OpProxyEndpointAddress)}
}

// ProxyNetEndpoint is a proxy endpoint's address as DescribeDBProxyEndpoint reads it.
func ProxyNetEndpoint(ep *rdsapi.DBProxyEndpoint) NetEndpoint {
	port, _ := strconv.ParseInt(ep.Port, 10, 64)
	return NetEndpoint{ConnectionString: ep.ConnectString, Port: port}
}
