package simulator

import (
	"context"
	"fmt"
	"net"
	"reflect"
	"strconv"
	"syscall"
	"time"
)

// An instance's MySQL endpoint: a real MySQL-protocol server on loopback that serves what the API created
// (accounts, passwords, databases, privileges), enforces the whitelist, reports the engine version and the
// doublewrite setting, and goes down for each restart. The engine lives in package mysqlendpoint, which plugs in
// through Options.Endpoints, so this package (and everything that imports it) links no SQL engine unless asked to.

// EndpointSettings are what an instance's engine reads when it boots, so they change only across a restart.
type EndpointSettings struct {
	// Version is @@version, e.g. "8.0.36" for EngineVersion 8.0.
	Version string
	// Doublewrite is @@innodb_doublewrite: off while 16K atomic write is on, the buffer being what it removes.
	Doublewrite bool
	// SSL: the engine speaks TLS (ModifyDBInstanceSSL, which restarts the instance).
	SSL bool
}

// EndpointState is what an instance's endpoint must serve now.
type EndpointState struct {
	InstanceID string
	// Up is false while the instance is not Running (Creating, restarting): connections are dropped and refused.
	Up bool
	// Restarts counts the instance's restarts since the simulator started; when it grows, the endpoint restarts
	// even if the restart was instant (a zero RestartDuration) and Up never turned false.
	Restarts int
	// Settings apply at the next boot.
	Settings EndpointSettings
	// AllowedClients is the union of the instance's IP whitelists.
	AllowedClients []string
	// Access lists the Available accounts and the Running databases (a read-only instance has its primary's).
	Access InstanceAccess
	// Primary is a read-only instance's primary's endpoint, whose databases and rows it serves, read-only.
	Primary Endpoint
}

// Endpoint is one instance's MySQL server.
type Endpoint interface {
	Host() string
	Port() int
	// Apply brings the endpoint to the state: restarts, whitelist, accounts, databases, privileges.
	Apply(EndpointState) error
	// Close drops every connection and stops listening.
	Close() error
}

// StartEndpoint starts the endpoint of an instance in the given state. beforeAccept must be called before each
// new client connection is admitted: it brings the simulator's timed transitions up to date (they are evaluated
// lazily), so a client connecting after a restart has ended is let in without waiting for an API request.
type StartEndpoint func(state EndpointState, beforeAccept func()) (Endpoint, error)

// endpointSet is the simulator's endpoints, one per MySQL instance, when Options.Endpoints is set.
type endpointSet struct {
	start    StartEndpoint
	byID     map[string]Endpoint
	restarts map[string]int
	// applied is the last state given to each endpoint: every request re-checks every instance, and an unchanged
	// one costs a comparison instead of an Apply.
	applied map[string]EndpointState
}

func newEndpointSet(start StartEndpoint) *endpointSet {
	if start == nil {
		return nil
	}
	return &endpointSet{start: start, byID: map[string]Endpoint{}, restarts: map[string]int{}, applied: map[string]EndpointState{}}
}

// noteRestart records that an instance restarts; a nil set (endpoints off) ignores it.
func (set *endpointSet) noteRestart(id string) {
	if set != nil {
		set.restarts[id]++
	}
}

// Close stops every endpoint; the simulator serves none afterwards.
func (s *Simulator) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.endpoints == nil {
		return nil
	}
	s.closeProxiesLocked()
	var first error
	for id, ep := range s.endpoints.byID {
		if err := ep.Close(); err != nil && first == nil {
			first = err
		}
		delete(s.endpoints.byID, id)
	}
	s.endpoints = nil
	return first
}

// syncEndpoints is the endpoints' beforeAccept.
func (s *Simulator) syncEndpoints() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cloudNow()
	if s.advance(now) {
		_ = s.saveLocked() // a failed save is retried by the next mutation
	}
	s.syncEndpointsLocked(now)
}

// syncEndpointsLocked starts, updates and closes endpoints to match the instances: every MySQL instance that is
// not being deleted has one.
func (s *Simulator) syncEndpointsLocked(now time.Time) {
	if s.endpoints == nil {
		return
	}
	for _, in := range s.state.Instances {
		s.syncEndpointLocked(in, now)
	}
	for id, ep := range s.endpoints.byID {
		if _, ok := s.state.Instances[id]; !ok {
			s.closeEndpointLocked(id, ep)
		}
	}
	s.syncProxiesLocked(now)
}

// syncEndpointLocked brings one instance's endpoint up to date and returns it (nil when it has none).
func (s *Simulator) syncEndpointLocked(in *instance, now time.Time) Endpoint {
	if s.endpoints == nil || !in.isMySQL() {
		return nil
	}
	ep := s.endpoints.byID[in.ID]
	if in.Status == statusDeleting {
		if ep != nil {
			s.closeEndpointLocked(in.ID, ep)
		}
		return nil
	}
	state := s.endpointState(in, now)
	if in.MasterID != "" {
		if primary, ok := s.state.Instances[in.MasterID]; ok {
			state.Primary = s.syncEndpointLocked(primary, now)
		}
	}
	if ep == nil {
		started, err := s.endpoints.start(state, s.syncEndpoints)
		if err != nil {
			// The instance still works through the API; Describe shows its DNS name instead of an address.
			s.stats.InternalErrors++
			return nil
		}
		if reporter, ok := started.(SQLReporter); ok {
			id := in.ID
			reporter.ReportSQLChanges(func(change SQLChange) { s.applySQLChange(id, change) })
		}
		s.endpoints.byID[in.ID] = started
		s.endpoints.applied[in.ID] = state
		return started
	}
	if reflect.DeepEqual(s.endpoints.applied[in.ID], state) {
		return ep
	}
	s.endpoints.applied[in.ID] = state
	if err := ep.Apply(state); err != nil {
		// Every value comes from a request the API validated, so a refusal is a simulator bug.
		s.stats.InternalErrors++
	}
	return ep
}

func (s *Simulator) closeEndpointLocked(id string, ep Endpoint) {
	if err := ep.Close(); err != nil {
		s.stats.InternalErrors++
	}
	delete(s.endpoints.byID, id)
	delete(s.endpoints.applied, id)
}

func (s *Simulator) endpointState(in *instance, now time.Time) EndpointState {
	access := s.accessOf(in, now)
	ready := access
	ready.Accounts, ready.Databases = nil, nil
	for _, a := range access.Accounts {
		if a.Status == accountAvailable {
			ready.Accounts = append(ready.Accounts, a)
		}
	}
	for _, db := range access.Databases {
		if db.Status == databaseRunning {
			ready.Databases = append(ready.Databases, db)
		}
	}
	return EndpointState{
		InstanceID:     in.ID,
		Up:             in.Status == statusRunning,
		Restarts:       s.endpoints.restarts[in.ID],
		Settings:       EndpointSettings{Version: serverVersion(in.EngineVersion), Doublewrite: !in.Optimized, SSL: in.sslOn()},
		AllowedClients: s.allowedClients(in),
		Access:         ready,
	}
}

// serverVersion is the @@version an instance of the engine version reports: the newest minor version RDS offers
// for it (an assumption: the simulator does not model minor versions).
func serverVersion(engineVersion string) string {
	switch engineVersion {
	case "8.0":
		return "8.0.36"
	case "5.7":
		return "5.7.44"
	case "5.6":
		return "5.6.51"
	case "5.5":
		return "5.5.62"
	}
	return engineVersion
}

// connectionString is the address DescribeDBInstanceAttribute reports: the endpoint's when the instance has one,
// else the cloud's DNS name.
func (s *Simulator) connectionString(in *instance, now time.Time) string {
	if ep := s.syncEndpointLocked(in, now); ep != nil {
		return ep.Host()
	}
	return connectionString(in)
}

// connectionPort is the port DescribeDBInstanceAttribute reports, the endpoint's when the instance has one.
func (s *Simulator) connectionPort(in *instance, now time.Time) string {
	if ep := s.syncEndpointLocked(in, now); ep != nil {
		return strconv.Itoa(ep.Port())
	}
	return in.Port
}

// EndpointAddress is the host:port of an instance's MySQL endpoint; ok is false when it has none.
func (s *Simulator) EndpointAddress(instanceID string) (address string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, found := s.state.Instances[instanceID]
	if !found {
		return "", false
	}
	ep := s.syncEndpointLocked(in, s.cloudNow())
	if ep == nil {
		return "", false
	}
	return net.JoinHostPort(ep.Host(), strconv.Itoa(ep.Port())), true
}

// ResolveEndpoint is the simulator's name service: it maps a connection string and port the API hands out
// (DescribeDBInstanceNetInfo, "host:port") to the loopback address of the instance's MySQL endpoint. ok is false
// for a string or port no instance has any more (changed, released) and for an instance without an endpoint.
func (s *Simulator) ResolveEndpoint(address string) (loopback string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, found := s.resolveEndpoint(address)
	if !found {
		return s.resolveProxyLocked(address)
	}
	ep := s.syncEndpointLocked(in, s.cloudNow())
	if ep == nil {
		return "", false
	}
	return net.JoinHostPort(ep.Host(), strconv.Itoa(ep.Port())), true
}

// DialEndpoint connects to an address as ResolveEndpoint maps it; an address that does not resolve is refused,
// as a closed port is. Tests hand it to MySQL clients as their dialer.
func (s *Simulator) DialEndpoint(ctx context.Context, address string) (net.Conn, error) {
	loopback, ok := s.ResolveEndpoint(address)
	if !ok {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: fmt.Errorf("%s: %w", address, syscall.ECONNREFUSED)}
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", loopback)
}
