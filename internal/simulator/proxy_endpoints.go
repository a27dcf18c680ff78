package simulator

import (
	"fmt"
	"maps"
	"net"
	"reflect"
	"slices"
	"strconv"
	"time"
)

// Proxy endpoints that speak MySQL (README "Database proxy"): with Options.Endpoints set, each endpoint of a
// Running proxy is a listener in front of the instances' endpoints, started through the primary's endpoint when
// it is a ProxyHost (mysqlendpoint's are). The simulator decides the read targets: the weighted instances that
// are up, leaving out a read-only instance whose replication delay (SetReplicationDelay) is above the endpoint's
// ReadOnlyInstanceMaxDelayTime, and the primary on a ReadOnly endpoint.

// ProxyRead is an instance plain reads may go to, with its weight.
type ProxyRead struct {
	InstanceID string
	Endpoint   Endpoint
	Weight     int64
}

// ProxyState is what a proxy endpoint must do now.
type ProxyState struct {
	Primary Endpoint
	// Reads are sorted by instance id, so the round-robin's order is repeatable.
	Reads            []ProxyRead
	ReadOnly         bool
	Splitting        bool
	TransactionSplit bool
	AllowedClients   []string
	// Address is the address ModifyDBProxyEndpointAddress gave the endpoint ("": its first); a new one
	// restarts the listener, so the old address stops answering.
	Address string
}

// ProxyServer is one proxy endpoint's listener.
type ProxyServer interface {
	Host() string
	Port() int
	Apply(ProxyState) error
	Close() error
}

// ProxyHost is an Endpoint that can serve a proxy in front of itself and its read-only instances.
type ProxyHost interface {
	StartProxy(ProxyState) (ProxyServer, error)
}

// proxySet is the running proxy endpoints, by proxy endpoint id.
type proxySet struct {
	byID    map[string]ProxyServer
	applied map[string]ProxyState
}

// SetReplicationDelay sets a read-only instance's simulated replication delay, which a proxy compares with its
// endpoints' ReadOnlyInstanceMaxDelayTime.
func (s *Simulator) SetReplicationDelay(instanceID string, seconds int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.state.Instances[instanceID]
	if !ok || in.MasterID == "" {
		return fmt.Errorf("%s is not a read-only instance", instanceID)
	}
	in.ReplicationDelay = seconds
	s.syncEndpointsLocked(s.cloudNow())
	return s.saveLocked()
}

// syncProxiesLocked starts, updates and closes the proxy endpoints to match the proxies; the instances'
// endpoints are already up to date.
func (s *Simulator) syncProxiesLocked(now time.Time) {
	if s.endpoints == nil {
		return
	}
	if s.proxies == nil {
		s.proxies = &proxySet{byID: map[string]ProxyServer{}, applied: map[string]ProxyState{}}
	}
	live := map[string]bool{}
	for _, in := range s.state.Instances {
		px := in.Proxy
		if px == nil || !px.Started || in.Status == statusDeleting {
			continue
		}
		settleProxy(px, now)
		host, ok := s.endpoints.byID[in.ID].(ProxyHost)
		if !ok || px.Status != statusRunning {
			continue
		}
		for _, ep := range px.Endpoints {
			live[ep.ID] = true
			s.syncProxyLocked(host, ep.ID, s.proxyState(in, ep))
		}
	}
	for id, srv := range s.proxies.byID {
		if !live[id] {
			s.closeProxyLocked(id, srv)
		}
	}
}

func (s *Simulator) syncProxyLocked(host ProxyHost, id string, state ProxyState) {
	srv := s.proxies.byID[id]
	switch {
	case srv == nil:
		started, err := host.StartProxy(state)
		if err != nil {
			s.stats.InternalErrors++
			return
		}
		s.proxies.byID[id], s.proxies.applied[id] = started, state
	case s.proxies.applied[id].Address != state.Address:
		s.closeProxyLocked(id, srv)
		s.syncProxyLocked(host, id, state)
	case !reflect.DeepEqual(s.proxies.applied[id], state):
		s.proxies.applied[id] = state
		if err := srv.Apply(state); err != nil {
			s.stats.InternalErrors++
		}
	}
}

func (s *Simulator) closeProxyLocked(id string, srv ProxyServer) {
	if err := srv.Close(); err != nil {
		s.stats.InternalErrors++
	}
	delete(s.proxies.byID, id)
	delete(s.proxies.applied, id)
}

// proxyState is the routing of one proxy endpoint of the primary in.
func (s *Simulator) proxyState(in *instance, ep *proxyEndpoint) ProxyState {
	state := ProxyState{Primary: s.endpoints.byID[in.ID], ReadOnly: ep.Mode == "ReadOnly",
		Splitting: ep.Features["ReadWriteSpliting"] == 1, TransactionSplit: ep.Features["TransactionReadSqlRouteOptimizeStatus"] == 1,
		AllowedClients: splitList(joinIPs(in.SecurityIPs))}
	if ep.Host != "" {
		state.Address = net.JoinHostPort(ep.Host, ep.Port)
	}
	weights := s.readWeights(in, ep)
	for _, id := range slices.Sorted(maps.Keys(weights)) {
		target, endpoint := s.state.Instances[id], s.endpoints.byID[id]
		switch {
		case endpoint == nil || target.Status != statusRunning:
		case id == in.ID && state.ReadOnly:
		case id != in.ID && ep.MaxDelay >= 0 && target.ReplicationDelay > ep.MaxDelay:
		default:
			state.Reads = append(state.Reads, ProxyRead{InstanceID: id, Endpoint: endpoint, Weight: weights[id]})
		}
	}
	return state
}

// proxyAddress is the endpoint's host and port: its listener's when the proxy serves SQL, else a DNS name of the
// cloud's form.
func (s *Simulator) proxyAddress(ep *proxyEndpoint, now time.Time) (string, string) {
	s.syncEndpointsLocked(now)
	var srv ProxyServer
	if s.proxies != nil {
		srv = s.proxies.byID[ep.ID]
	}
	return reportedProxyAddress(ep, srv)
}

// reportedProxyAddress is the address an endpoint is reported at: the one ModifyDBProxyEndpointAddress
// gave it, else its listener's (srv, nil when it has none), else its DNS name.
func reportedProxyAddress(ep *proxyEndpoint, srv ProxyServer) (string, string) {
	switch {
	case ep.Host != "":
		return ep.Host, ep.Port
	case srv != nil:
		return srv.Host(), strconv.Itoa(srv.Port())
	}
	return ep.ID + "." + proxyDomain, "3306"
}

// resolveProxyLocked resolves the address of a running proxy endpoint, as DescribeDBProxy reports it, to its
// listener; any other address does not resolve.
func (s *Simulator) resolveProxyLocked(address string) (string, bool) {
	s.syncEndpointsLocked(s.cloudNow())
	if s.proxies == nil {
		return "", false
	}
	for _, in := range s.state.Instances {
		if in.Proxy == nil {
			continue
		}
		for _, ep := range in.Proxy.Endpoints {
			srv := s.proxies.byID[ep.ID]
			if host, port := reportedProxyAddress(ep, srv); srv != nil && net.JoinHostPort(host, port) == address {
				return net.JoinHostPort(srv.Host(), strconv.Itoa(srv.Port())), true
			}
		}
	}
	return "", false
}

// closeProxiesLocked stops every proxy endpoint (Close).
func (s *Simulator) closeProxiesLocked() {
	if s.proxies == nil {
		return
	}
	for id, srv := range s.proxies.byID {
		s.closeProxyLocked(id, srv)
	}
}
