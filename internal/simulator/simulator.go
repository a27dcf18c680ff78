// Package simulator is a local stand-in for the ApsaraDB RDS OpenAPI (version 2014-08-15). It
// speaks the real wire protocol (RPC style, V1 and V3 signatures, the standard error body) and
// implements the cloud's instance rules, including 16K atomic write (OptimizedWrites), on its own:
// it plays a foreign system and shares no rule code with the provider. README.md lists every
// decision and error code.
//
// Entry points:
//   - [New] builds a [Simulator] from [Options] (durations, keys, persistence, MySQL endpoints);
//     it is an http.Handler ([Simulator.ServeHTTP], server.go dispatches the actions, actions_*.go
//     implement them). cmd/rds-simulator serves it; tests use [NewTestServer].
//   - Test control: [Simulator.Stats] (requests per action, restarts per instance),
//     [Simulator.SetFaults], [Simulator.AddInstance] (seed.go), [Simulator.SetInstanceState],
//     [Simulator.AdvanceClock]; the same over HTTP under /_simulator/ (admin.go).
package simulator

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Demo credentials used when Options leaves the keys empty.
const (
	DefaultAccessKeyID     = "demo-access-key-id"
	DefaultAccessKeySecret = "demo-access-key-secret"
	DefaultRegion          = "cn-hangzhou"
)

// Options configures a Simulator. Zero durations mean instant transitions; NewTestServer fills in
// short non-zero ones so that tests see the status machine.
type Options struct {
	AccessKeyID     string
	AccessKeySecret string
	// Region is the simulator's own region; it also serves the regions its cross-region backups copy to (README "Tags, regions and unanswered creates").
	Region string
	// CreateDuration is how long a new instance stays Creating.
	CreateDuration time.Duration
	// RestartDuration is how long a spec change (DBInstanceClassChanging) or a restart
	// (Rebooting) takes.
	RestartDuration time.Duration
	// DeleteDuration is how long an instance stays Deleting before it is gone.
	DeleteDuration time.Duration
	// FlagLag is how long after the return to Running a toggled OptimizedWrites flag becomes
	// visible (spec rule 6).
	FlagLag time.Duration
	// AccountDuration is how long a new account stays Unavailable, a new database Creating and a
	// deleted database Deleting.
	AccountDuration time.Duration
	// DiskQuotaUnlockDelay is how long after a storage growth takes effect a disk-quota lock
	// lifts (Alibaba: about 5 minutes; README "Unusual states").
	DiskQuotaUnlockDelay time.Duration
	// Seed plants the built-in pre-existing instances into a fresh state.
	Seed bool
	// StatePath, when set, is loaded at start and rewritten atomically after each mutation.
	StatePath string
	Faults    Faults
	// FaultSeed, when not zero, seeds the draws that decide which requests the fault rates hit, so
	// a sequential test can replay its faults; zero seeds from the clock.
	FaultSeed uint64
	// Endpoints, when set, serves a MySQL endpoint per MySQL instance (mysqlendpoint.ForSimulator; endpoints.go).
	// Call Close to stop them.
	Endpoints StartEndpoint
	// Now is the clock; time.Now when nil. Tests inject a fake to drive transitions.
	Now func() time.Time
	// NoQuotaHeader leaves the x-ratelimit-user-api header out of the answers of actions under a
	// quota, for clients that must learn the quota from throttling answers alone (quota.go).
	NoQuotaHeader bool
}

// Faults are injected failures for reliability tests. Rates are probabilities in [0,1].
type Faults struct {
	// ThrottleRate answers Throttling.User (HTTP 400) before any side effect.
	ThrottleRate float64 `json:"throttle_rate"`
	// ErrorRate answers ServiceUnavailable (HTTP 503) before any side effect.
	ErrorRate float64 `json:"error_rate"`
	// LatencyMS delays every API request.
	LatencyMS int `json:"latency_ms"`
	// DropResponseRate carries the action out, then closes the connection without an answer.
	DropResponseRate float64 `json:"drop_response_rate"`
	// QPS is a quota per action in calls per second ("*": every other action); calls beyond it
	// are answered Throttling.Api before any side effect (quota.go).
	QPS map[string]int `json:"qps,omitempty"`
}

func (f Faults) validate() error {
	for name, rate := range map[string]float64{"throttle_rate": f.ThrottleRate, "error_rate": f.ErrorRate, "drop_response_rate": f.DropResponseRate} {
		if rate < 0 || rate > 1 {
			return fmt.Errorf("%s must be between 0 and 1, got %v", name, rate)
		}
	}
	if f.LatencyMS < 0 || f.LatencyMS > 600000 {
		return fmt.Errorf("latency_ms must be between 0 and 600000, got %d", f.LatencyMS)
	}
	return validateQPS(f.QPS)
}

// Stats counts API requests per Action (those that passed authentication and named a known
// action, faulted or not) and restarts per instance (counted when each restart starts).
type Stats struct {
	Requests map[string]int `json:"requests"`
	Restarts map[string]int `json:"restarts"`
	// ProxyDrops counts, per instance, the switchovers of its spec change that dropped the
	// connections open through its database proxy (proxy_drops.go).
	ProxyDrops map[string]int `json:"proxy_drops"`
	// Throttled counts, per action, the requests answered with a throttling code (injected or
	// over the quota); they are also in Requests.
	Throttled map[string]int `json:"throttled"`
	// InternalErrors counts handler panics turned into InternalError answers; always 0 unless
	// the simulator has a bug.
	InternalErrors int `json:"internal_errors"`
	// Spans holds, per action, when its first and last request arrived (stats_spans.go).
	Spans map[string]CallSpan `json:"spans"`
	// Deleted records the data deleted for good since the last reset (data_deleted.go).
	Deleted []Deletion `json:"deleted"`
}

// Simulator is the RDS API (at "/") and its admin endpoints (at "/_simulator/") as an http.Handler.
type Simulator struct {
	opts Options
	now  func() time.Time

	mu     sync.Mutex // guards everything below
	state  *state
	nonces map[string]time.Time // "key\x00nonce" -> when it may be forgotten
	faults Faults
	stats  Stats
	rnd    *rand.Rand
	// clockOffset is how far AdvanceClock moved the cloud's clock ahead of now (not persisted).
	clockOffset time.Duration
	// accessHook is OnAccessChange's function (access.go).
	accessHook func(InstanceAccess)
	// quotaWindows counts the calls served per action in the current second (quota.go).
	quotaWindows map[string]*quotaWindow
	// nonceSweepAt is the size of nonces at which expired ones are next swept (auth.go).
	nonceSweepAt int
	// endpoints are the instances' MySQL endpoints, nil when Options.Endpoints is not set (endpoints.go).
	endpoints *endpointSet
	// proxies are the database proxies' endpoints, when endpoints are on (proxy_endpoints.go).
	proxies *proxySet
}

// New builds a Simulator, loading Options.StatePath when the file exists.
func New(opts Options) (*Simulator, error) {
	if opts.AccessKeyID == "" {
		opts.AccessKeyID = DefaultAccessKeyID
	}
	if opts.AccessKeySecret == "" {
		opts.AccessKeySecret = DefaultAccessKeySecret
	}
	if opts.Region == "" {
		opts.Region = DefaultRegion
	}
	for name, d := range map[string]time.Duration{"CreateDuration": opts.CreateDuration, "RestartDuration": opts.RestartDuration,
		"DeleteDuration": opts.DeleteDuration, "FlagLag": opts.FlagLag, "AccountDuration": opts.AccountDuration,
		"DiskQuotaUnlockDelay": opts.DiskQuotaUnlockDelay} {
		if d < 0 {
			return nil, fmt.Errorf("simulator: %s must not be negative", name)
		}
	}
	if err := opts.Faults.validate(); err != nil {
		return nil, fmt.Errorf("simulator: faults: %w", err)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s := &Simulator{
		opts:   opts,
		now:    func() time.Time { return now().UTC() },
		nonces: map[string]time.Time{},
		faults: opts.Faults,
		stats:  newStats(),
		rnd:    rand.New(rand.NewPCG(cmp.Or(opts.FaultSeed, uint64(time.Now().UnixNano())), 0x5eed)),
	}
	s.endpoints = newEndpointSet(opts.Endpoints)
	st, err := loadState(opts.StatePath)
	if err != nil {
		return nil, err
	}
	s.state = st
	if opts.Seed && !st.Seeded {
		if err := s.plantSeeds(); err != nil {
			return nil, err
		}
	}
	if err := s.save(); err != nil {
		return nil, err
	}
	return s, nil
}

// Stats returns a copy of the counters.
func (s *Simulator) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := newStats()
	out.InternalErrors = s.stats.InternalErrors
	maps.Copy(out.Requests, s.stats.Requests)
	maps.Copy(out.Restarts, s.stats.Restarts)
	maps.Copy(out.ProxyDrops, s.stats.ProxyDrops)
	maps.Copy(out.Throttled, s.stats.Throttled)
	out.Deleted = slices.Clone(s.stats.Deleted)
	for action, span := range s.stats.Spans {
		span.PerSecond = slices.Clone(span.PerSecond)
		out.Spans[action] = span
	}
	return out
}

// ResetStats zeroes the counters.
func (s *Simulator) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = newStats()
}

func newStats() Stats {
	return Stats{Requests: map[string]int{}, Restarts: map[string]int{}, ProxyDrops: map[string]int{}, Throttled: map[string]int{}, Spans: map[string]CallSpan{}}
}

// SetFaults replaces the injected faults; invalid rates are clamped to [0,1].
func (s *Simulator) SetFaults(f Faults) {
	f.ThrottleRate = clamp01(f.ThrottleRate)
	f.ErrorRate = clamp01(f.ErrorRate)
	f.DropResponseRate = clamp01(f.DropResponseRate)
	f.LatencyMS = max(f.LatencyMS, 0)
	f.QPS = maps.Clone(f.QPS)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

// ServeHTTP routes admin requests and API requests; a panic becomes an InternalError answer.
func (s *Simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v) // the server closes the connection without logging
			}
			s.mu.Lock()
			s.stats.InternalErrors++
			s.mu.Unlock()
			writeError(w, r, formatJSON, newRequestID(), errInternal(fmt.Sprint(v)))
		}
	}()
	if isAdminPath(r.URL.Path) {
		s.serveAdmin(w, r)
		return
	}
	s.serveAPI(w, r)
}
