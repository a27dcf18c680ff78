package rdsservice

// The plan-versus-apply oracle for parameters: generated scenarios (MySQL version x the flag now x
// a spec change x a set of parameters), each planned by Plan with facts read from the simulator,
// then applied against it the way the resources apply a decision. For each: a plan error is a
// change the simulator refuses too (and nothing is sent); otherwise the apply succeeds, the
// simulator counts exactly the restarts the plan named, the configured values run, and planning
// again gives an empty plan.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

type paramCandidate struct{ name, value string }

// oracleCandidates mixes online and restart-needing parameters with every kind of refusal.
var oracleCandidates = []paramCandidate{
	{"innodb_io_capacity", "4000"},                              // online
	{"sync_binlog", "1000"},                                     // online
	{"binlog_format", "row"},                                    // online, default spelled differently: no change
	{"long_query_time", "0.5"},                                  // online, fractional
	{"innodb_read_io_threads", "8"},                             // restart
	{"back_log", "4000"},                                        // restart
	{"innodb_io_capacity_max", "50"},                            // below range
	{"innodb_flush_neighbors", "3"},                             // outside the set
	{"innodb_io_capacty", "1"},                                  // unknown name
	{"innodb_page_size", "4096"},                                // not modifiable
	{"tx_isolation", "READ-COMMITTED"},                          // 5.7 only
	{"lower_case_table_names", "0"},                             // restart on 5.7, not modifiable on 8.0
	{"innodb_doublewrite", "OFF"},                               // follows the flag
	{"innodb_buffer_pool_size", "{DBInstanceClassMemory*7/10}"}, // formula
}

type oracle struct {
	t      *testing.T
	sim    *simulator.Simulator
	api    rdsapi.API
	waiter *Waiter

	mu                               sync.Mutex
	compared, applied, refused       int
	restartsCompared, restartsPlaced int
	disagreements                    []string
	templates                        map[string]ParameterTemplate
}

func newOracle(t *testing.T) *oracle {
	sim, err := simulator.New(simulator.Options{}) // zero durations: instant transitions
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(sim)
	t.Cleanup(server.Close)
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	client, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	return &oracle{t: t, sim: sim, api: client, templates: map[string]ParameterTemplate{},
		waiter: &Waiter{API: client, Clock: RealClock{}, MinInterval: time.Millisecond, MaxInterval: 5 * time.Millisecond}}
}

func (o *oracle) disagree(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.disagreements = append(o.disagreements, fmt.Sprintf(format, args...))
}

func (o *oracle) count(f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	f()
}

func (o *oracle) template(ctx context.Context, version string) (ParameterTemplate, error) {
	o.mu.Lock()
	t, ok := o.templates[version]
	o.mu.Unlock()
	if ok {
		return t, nil
	}
	answer, err := o.api.DescribeParameterTemplates(ctx, &rdsapi.DescribeParameterTemplatesRequest{Engine: "MySQL", EngineVersion: version})
	if err != nil {
		return ParameterTemplate{}, err
	}
	t = TemplateFromAPI("MySQL", version, answer)
	o.mu.Lock()
	o.templates[version] = t
	o.mu.Unlock()
	return t, nil
}

// facts reads what a resource reads before it plans.
func (o *oracle) facts(ctx context.Context, id, version string) (*ParameterFacts, ExistingInstance, error) {
	t, err := o.template(ctx, version)
	if err != nil {
		return nil, ExistingInstance{}, err
	}
	params, err := o.api.DescribeParameters(ctx, id)
	if err != nil {
		return nil, ExistingInstance{}, err
	}
	attr, err := o.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return nil, ExistingInstance{}, err
	}
	prior, err := ExistingFromAttribute(attr)
	prior.Status = attr.DBInstanceStatus
	return &ParameterFacts{Template: t, Running: params.RunningParameters.Values(), Pending: params.ConfigParameters.Values()}, prior, err
}

type oracleScenario struct {
	version     string
	flagNow     bool
	change      string // "", "class", "flag"
	params      []paramCandidate
	description string
}

// oracleScenarios are every single candidate and every pair, in every version, flag state and
// spec change (long); the short form keeps the singles everywhere and the pairs for one version
// and one flag state.
func oracleScenarios(long bool) []oracleScenario {
	var singles, pairs [][]paramCandidate
	for i := range oracleCandidates {
		singles = append(singles, []paramCandidate{oracleCandidates[i]})
		for j := i + 1; j < len(oracleCandidates); j++ {
			pairs = append(pairs, []paramCandidate{oracleCandidates[i], oracleCandidates[j]})
		}
	}
	var out []oracleScenario
	for _, version := range []string{"5.7", "8.0"} {
		for _, flagNow := range []bool{false, true} {
			for _, change := range []string{"", "class", "flag"} {
				subsets := singles
				if long || (version == "8.0" && flagNow) {
					subsets = append(append([][]paramCandidate(nil), singles...), pairs...)
				}
				for _, subset := range subsets {
					var names []string
					for _, c := range subset {
						names = append(names, c.name+"="+c.value)
					}
					out = append(out, oracleScenario{version: version, flagNow: flagNow, change: change, params: subset,
						description: fmt.Sprintf("MySQL %s, flag %t, change %q, %s", version, flagNow, change, strings.Join(names, ","))})
				}
			}
		}
	}
	return out
}

func (o *oracle) run(s oracleScenario) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	optimized := rdsapi.OptimizedWritesOff
	if s.flagNow {
		optimized = rdsapi.OptimizedWritesOn
	}
	out, err := o.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{Engine: "MySQL", EngineVersion: s.version,
		DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		ZoneID: "cn-hangzhou-i", VPCID: "vpc-1", VSwitchID: "vsw-1", SecurityIPList: "10.0.0.0/8", OptimizedWrites: optimized})
	if err != nil {
		o.disagree("%s: create: %v", s.description, err)
		return
	}
	id := out.DBInstanceID
	if _, err := o.waiter.WaitRunning(ctx, id); err != nil {
		o.disagree("%s: wait: %v", s.description, err)
		return
	}
	facts, prior, err := o.facts(ctx, id, s.version)
	if err != nil {
		o.disagree("%s: facts: %v", s.description, err)
		return
	}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known(s.version), StorageType: Known("cloud_essd"),
		Category: Known("HighAvailability"), InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)),
		AtomicWrite: Known(s.flagNow), Parameters: DesiredParameters{Set: true, Values: map[string]string{}, UnknownValues: map[string]bool{}}}
	switch s.change {
	case "class":
		desired.InstanceClass = Known("mysql.n2.large.2c")
	case "flag":
		desired.AtomicWrite = Known(!s.flagNow)
	}
	for _, c := range s.params {
		desired.Parameters.Values[c.name] = c.value
	}
	d := Plan(PlanInput{Label: id, Prior: &prior, Desired: desired, Facts: Facts{Parameters: facts}})
	before := o.sim.Stats()

	if d.HasErrors() {
		o.checkRefusal(ctx, s, id, d)
		return
	}
	// Apply as the resources do: parameters first, then the one spec change.
	if _, err := ApplyParameters(ctx, o.api, o.waiter, id, d.Parameters.ParameterPlan, d.Parameters.NeedsRestart() && !d.Parameters.SharesRestart); err != nil {
		o.disagree("%s: planned fine, apply of parameters failed: %v", s.description, err)
		return
	}
	if !d.Order.Empty() {
		req := &rdsapi.ModifyDBInstanceSpecRequest{PayType: rdsapi.PayTypePostpaid}
		if d.Order.InstanceClass != nil {
			req.DBInstanceClass = *d.Order.InstanceClass
		}
		if d.Order.AtomicWrite != nil {
			req.OptimizedWrites = rdsapi.OptimizedWritesOff
			if *d.Order.AtomicWrite {
				req.OptimizedWrites = rdsapi.OptimizedWritesOn
			}
		}
		if _, err := ApplySpecChange(ctx, o.api, o.waiter, id, req, d.AtomicWrite.Ptr()); err != nil {
			o.disagree("%s: planned fine, spec change failed: %v", s.description, err)
			return
		}
	}
	if _, err := WaitParametersRunning(ctx, o.api, o.waiter, id, d.Parameters.Send); err != nil {
		o.disagree("%s: the planned values never ran: %v", s.description, err)
		return
	}
	planned := 0
	for _, r := range d.Restarts {
		if r.InstanceID == id {
			planned++
		}
	}
	got := o.sim.Stats().Restarts[id] - before.Restarts[id]
	if got != planned {
		o.disagree("%s: the plan named %d restart(s), the simulator counted %d (%v)", s.description, planned, got, d.Restarts)
	}

	// Planning again with what now runs gives an empty plan.
	facts2, prior2, err := o.facts(ctx, id, s.version)
	if err != nil {
		o.disagree("%s: facts after apply: %v", s.description, err)
		return
	}
	again := desired
	d2 := Plan(PlanInput{Label: id, Prior: &prior2, Desired: again, Facts: Facts{Parameters: facts2}})
	if d2.HasErrors() || len(d2.Parameters.Send) != 0 || len(d2.Restarts) != 0 || !d2.Order.Empty() || len(facts2.Pending) != 0 {
		o.disagree("%s: not converged: send %v restarts %v order %+v pending %v problems %v", s.description,
			d2.Parameters.Send, d2.Restarts, d2.Order, facts2.Pending, d2.Problems)
	}
	o.count(func() { o.compared++; o.applied++; o.restartsCompared++; o.restartsPlaced += planned })
}

// checkRefusal: a refused plan names parameters the simulator refuses too, and sends nothing.
func (o *oracle) checkRefusal(ctx context.Context, s oracleScenario, id string, d Decision) {
	for _, p := range d.Errors() {
		name, ok := strings.CutPrefix(p.Attribute, AttrParameters+".")
		if !ok {
			o.disagree("%s: refused for %s (%s), not a parameter", s.description, p.Attribute, p.Summary)
			continue
		}
		value := ""
		for _, c := range s.params {
			if c.name == name {
				value = c.value
			}
		}
		err := o.api.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{name: value}})
		if err == nil {
			o.disagree("%s: the plan refuses %s = %q (%s) but the simulator accepts it", s.description, name, value, p.Summary)
		}
	}
	o.count(func() { o.compared++; o.refused++ })
}

// TestParameterOracle runs the short form; RDS_PARAMS_ORACLE_LONG=1 (make test-params-oracle) runs
// every scenario.
func TestParameterOracle(t *testing.T) {
	long := os.Getenv("RDS_PARAMS_ORACLE_LONG") != ""
	o := newOracle(t)
	scenarios := oracleScenarios(long)
	work := make(chan oracleScenario)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				o.run(s)
			}
		}()
	}
	for _, s := range scenarios {
		work <- s
	}
	close(work)
	wg.Wait()

	sort.Strings(o.disagreements)
	for i, d := range o.disagreements {
		if i == 20 {
			t.Errorf("... and %d more", len(o.disagreements)-20)
			break
		}
		t.Error(d)
	}
	t.Logf("%d scenarios: %d compared (%d applied with %d planned restarts, %d refused at plan), %d disagreements",
		len(scenarios), o.compared, o.applied, o.restartsPlaced, o.refused, len(o.disagreements))
	// Floors: a run that skips everything, or never applies or refuses, fails.
	floor := map[bool][4]int{false: {400, 150, 200, 120}, true: {1200, 450, 700, 380}}[long]
	if o.compared < floor[0] || o.applied < floor[1] || o.refused < floor[2] || o.restartsPlaced < floor[3] {
		t.Fatalf("too little compared: %d scenarios, %d applied, %d refused, %d restarts", o.compared, o.applied, o.refused, o.restartsPlaced)
	}
}
