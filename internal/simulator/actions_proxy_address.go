package simulator

import (
	"net"
	"strconv"
	"strings"
)

// ModifyDBProxyEndpointAddress (README "Database proxy" [P7]): a new prefix and/or port for a proxy
// endpoint's VPC address. The endpoint answers at the new address only: with Options.Endpoints its
// listener restarts, and the name service resolves the new address to it.

func init() { actions["ModifyDBProxyEndpointAddress"] = (*Simulator).modifyDBProxyEndpointAddress }

// proxyDomain is the domain of a proxy endpoint's DNS name.
const proxyDomain = "rwlb.rds.aliyuncs.com"

// The limits of ModifyDBProxyEndpointAddress: the prefix's length (its InvalidConnectionString.Format
// error), the port range (assumption: as ModifyDBInstanceConnectionString's).
const (
	proxyPrefixMin, proxyPrefixMax = 5, 40
	proxyPortMin, proxyPortMax     = 1000, 5999
)

func (s *Simulator) modifyDBProxyEndpointAddress(c *call) (map[string]any, *apiError) {
	in, px, e := s.proxyOf(c)
	if e != nil {
		return nil, e
	}
	id, e := c.p.required("DBProxyEndpointId")
	if e != nil {
		return nil, e
	}
	ep := px.endpoint(id)
	switch {
	case ep == nil:
		return nil, errNoProxyEndpoint(id)
	case px.Status != statusRunning:
		return nil, newErr(400, "InvalidDBProxyStatus", "The database proxy of %s is %s.", in.ID, px.Status)
	}
	netType, e := c.p.oneOf("DBProxyConnectStringNetType", "Classic", "VPC", "Classic", "Public")
	if e != nil {
		return nil, e
	}
	if netType == "Public" {
		return nil, newErr(404, "InvalidDBProxyConnectString.NotFound", "The proxy endpoint %s has no Public address.", id)
	}
	host, port, e := s.newProxyAddress(c, ep)
	if e != nil {
		return nil, e
	}
	ep.Host, ep.Port = host, port
	if ep.Next != nil { // a change waiting for the window keeps the new address
		ep.Next.Host, ep.Next.Port = host, port
	}
	c.dirty = true
	return map[string]any{}, nil
}

// newProxyAddress is the endpoint's address after the request: its prefix and port where they are
// given, checked, and the current ones where not.
func (s *Simulator) newProxyAddress(c *call, ep *proxyEndpoint) (string, string, *apiError) {
	prefix, port := c.p.get("DBProxyNewConnectString"), c.p.get("DBProxyNewConnectStringPort")
	if prefix == "" && port == "" {
		return "", "", errMissing("DBProxyNewConnectString")
	}
	host, current := s.proxyAddress(ep, c.now)
	if prefix != "" {
		if !validProxyPrefix(prefix) {
			return "", "", newErr(400, "InvalidConnectionString.Format", "Specified connection string %q is not valid: %d to %d letters, digits and hyphens.",
				truncate(prefix), proxyPrefixMin, proxyPrefixMax)
		}
		host = strings.ToLower(prefix) + "." + proxyDomainOf(host)
		if other := s.proxyEndpointAt(host); other != nil && other != ep {
			return "", "", newErr(400, "InvalidConnectionString.Duplicate", "The connection string %s is taken by another proxy endpoint.", host)
		}
	}
	if port == "" {
		return host, current, nil
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < proxyPortMin || n > proxyPortMax {
		return "", "", newErr(400, "InvalidPort.Malformed", "Specified port %q is not valid: %d-%d.", truncate(port), proxyPortMin, proxyPortMax)
	}
	return host, strconv.Itoa(n), nil
}

func validProxyPrefix(prefix string) bool {
	return checkPrefix(prefix, proxyPrefixMin, proxyPrefixMax) == nil // the instance's rules, this action's lengths
}

// proxyDomainOf is the domain a new prefix keeps: the host's after its first label, or the proxy
// domain for a listener's loopback address.
func proxyDomainOf(host string) string {
	_, domain, found := strings.Cut(host, ".")
	if net.ParseIP(host) != nil || !found {
		return proxyDomain
	}
	return domain
}

// proxyEndpointAt is the proxy endpoint whose changed address has host, if any.
func (s *Simulator) proxyEndpointAt(host string) *proxyEndpoint {
	for _, in := range s.state.Instances {
		if in.Proxy == nil {
			continue
		}
		for _, ep := range in.Proxy.Endpoints {
			if strings.EqualFold(ep.Host, host) {
				return ep
			}
		}
	}
	return nil
}
