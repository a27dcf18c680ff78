package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Fault matrix (issue 6): real terraform plan/apply/destroy against the simulator while it
// throttles, fails, delays, drops answers after carrying the action out, or has the instance
// busy. Every pass creates a primary, creates a read-only instance of it, toggles 16K atomic
// write on the primary (which also restarts the read-only instance, once) and destroys both.
// After each step the simulator must hold exactly the expected instances (no duplicate create)
// and each instance must have restarted exactly as often as expected (no second toggle); after
// destroy nothing may be left.
//
// `make test` runs one pass of the lost-answer kind here and of the busy kind in
// TestAccReliabilityBusyInstance, with short simulator durations, and the rate kinds at the plugin
// protocol (TestFaultMatrixProtocol). `make test-faults`
// sets RDS_FAULTS_LONG=1: five passes of each, and the aggregated results are written to
// templates/guides/reliability.md.tmpl (rendered to docs/guides/reliability.md by make generate).

const faultsLongEnv = "RDS_FAULTS_LONG"

// faultKind is one row of the matrix.
type faultKind struct {
	name     string
	settings string // human description for the table
	faults   simulator.Faults
	// busy restarts the primary through the API right before the read-only create, the toggle
	// and the destroy, so those steps meet an instance that is Rebooting.
	busy bool
	// dropFirst loses the first answer of each of these actions after the simulator carried the
	// action out: the deterministic version of dropped responses, aimed at the mutating calls.
	dropFirst []string
	// restart overrides the simulator's restart duration (busy needs the instance to stay
	// Rebooting while terraform plans and starts applying).
	restart time.Duration
}

// busyRestart is how long the provoked restart of the busy kind lasts at most: it ends as soon as
// the provider was refused for it (the simulator's clock is moved past it), so that the fault is
// met however slowly terraform plans on a loaded machine, and costs no waiting when it is.
const busyRestart = 10 * time.Second

func faultKinds(long bool) []faultKind {
	latency := 50
	if long {
		latency = 150
	}
	return []faultKind{
		{name: "throttling", settings: "30% of calls answer `Throttling.User`", faults: simulator.Faults{ThrottleRate: 0.3}},
		{name: "server errors", settings: "10% of calls answer HTTP 503 `ServiceUnavailable`", faults: simulator.Faults{ErrorRate: 0.1}},
		{name: "latency", settings: fmt.Sprintf("+%d ms on every call", latency), faults: simulator.Faults{LatencyMS: latency}},
		{name: "dropped responses", settings: "15% of calls carried out, then the connection is closed without an answer",
			faults: simulator.Faults{DropResponseRate: 0.15}},
		{name: "lost answer of each mutating call", settings: "the first answer of every CreateDBInstance, " +
			"CreateReadOnlyDBInstance, ModifyDBInstanceSpec and DeleteDBInstance is lost after the action was carried out",
			dropFirst: []string{"CreateDBInstance", "CreateReadOnlyDBInstance", "ModifyDBInstanceSpec", "DeleteDBInstance"}},
		{name: "instance busy", settings: "primary restarted (`Rebooting` until the provider was refused once, at most 10 s) right before read-only create, toggle and destroy",
			busy: true, restart: busyRestart},
	}
}

// faultResult aggregates one fault kind over its passes.
type faultResult struct {
	passes, tried, succeeded, duplicates, orphans, extraRestarts int
	injected                                                     int
	wall                                                         time.Duration
}

// faultRecorder sits between the provider and the simulator and counts what the provider got:
// error answers by code, and answers that never came (dropped connections). It also records the
// AccessKey IDs and STS tokens the requests carried (used by the credential tests).
type faultRecorder struct {
	mu        sync.Mutex
	dropFirst map[string]int // action -> answers still to lose
	// hold: these actions are carried out and then never answered (the connection hangs until
	// the client gives up); heldDone is closed after the first one was carried out.
	hold     map[string]bool
	heldDone chan struct{}
	// unavailable: these actions answer 503 ServiceUnavailable without being carried out.
	unavailable map[string]bool
	// expiredToken: requests with this STS token answer InvalidSecurityToken.Expired.
	expiredToken string
	// slowerThan > 0 counts the answers that took at least that long as "delayed".
	slowerThan time.Duration
	codes      map[string]int
	keyIDs     map[string]int
	tokens     map[string]int
}

var credentialPattern = regexp.MustCompile(`Credential=([^,\s]+)`)

func newFaultRecorder() *faultRecorder {
	return &faultRecorder{dropFirst: map[string]int{}, hold: map[string]bool{}, heldDone: make(chan struct{}), unavailable: map[string]bool{},
		codes: map[string]int{}, keyIDs: map[string]int{}, tokens: map[string]int{}}
}

func (f *faultRecorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/_simulator/") {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		action := r.Header.Get("x-acs-action")
		f.mu.Lock()
		if m := credentialPattern.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
			f.keyIDs[m[1]]++
		}
		tok := r.Header.Get("x-acs-security-token")
		if tok != "" {
			f.tokens[tok]++
		}
		drop := f.dropFirst[action] > 0
		if drop {
			f.dropFirst[action]--
		}
		hold, unavailable, expired := f.hold[action], f.unavailable[action], tok != "" && tok == f.expiredToken
		f.mu.Unlock()
		switch {
		case expired:
			f.answer(w, http.StatusBadRequest, "InvalidSecurityToken.Expired", "Specified SecurityToken is expired.")
			return
		case unavailable:
			f.answer(w, http.StatusServiceUnavailable, "ServiceUnavailable", "The request has failed due to a temporary failure of the server.")
			return
		case hold:
			next.ServeHTTP(httptest.NewRecorder(), r)
			f.mu.Lock()
			f.codes["held"]++
			if f.codes["held"] == 1 {
				close(f.heldDone)
			}
			f.mu.Unlock()
			<-r.Context().Done()
			return
		}
		if drop {
			// Let the simulator carry the action out, then close the connection unanswered.
			next.ServeHTTP(httptest.NewRecorder(), r)
			f.mu.Lock()
			f.codes["dropped"]++
			f.mu.Unlock()
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					_ = conn.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
		rw := &recordingWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rw, r)
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.slowerThan > 0 && time.Since(start) >= f.slowerThan {
			f.codes["delayed"]++
		}
		switch {
		case rw.hijacked:
			f.codes["dropped"]++
		case rw.status >= 400:
			var body struct{ Code string }
			if json.Unmarshal(rw.body.Bytes(), &body) == nil && body.Code != "" {
				f.codes[body.Code]++
			} else {
				f.codes[fmt.Sprintf("HTTP %d", rw.status)]++
			}
		}
	})
}

// answer writes an error answer in the cloud's format and counts it.
func (f *faultRecorder) answer(w http.ResponseWriter, status int, code, message string) {
	f.mu.Lock()
	f.codes[code]++
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"Code": code, "Message": message, "RequestId": "recorder"})
}

func (f *faultRecorder) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for code, c := range f.codes {
		if strings.HasPrefix(code, prefix) {
			n += c
		}
	}
	return n
}

func (f *faultRecorder) summary() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for _, code := range sortedMapKeys(f.codes) {
		parts = append(parts, fmt.Sprintf("%s=%d", code, f.codes[code]))
	}
	return strings.Join(parts, " ")
}

func sortedMapKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// recordingWriter keeps the status and the start of the body, and passes Hijack through so the
// simulator can still drop the connection.
type recordingWriter struct {
	http.ResponseWriter
	status   int
	body     bytes.Buffer
	hijacked bool
}

func (w *recordingWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	if w.body.Len() < 4096 {
		w.body.Write(p[:min(len(p), 4096-w.body.Len())])
	}
	return w.ResponseWriter.Write(p)
}

func (w *recordingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("hijacking not supported")
	}
	w.hijacked = true
	return hj.Hijack()
}

// newRecordedEnv is newTestEnv with the recorder in front of the simulator. Its own client (for
// checks and for provoking busy instances) retries generously, since the faults hit it too.
func newRecordedEnv(t *testing.T, opts simulator.Options) (*testEnv, *faultRecorder) {
	t.Helper()
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatalf("simulator: %v", err)
	}
	rec := newFaultRecorder()
	srv := httptest.NewServer(rec.wrap(sim))
	t.Cleanup(srv.Close)
	return newTestEnvOn(t, opts, sim, srv, 30), rec
}

// instanceIDs lists every instance the simulator holds.
func (e *testEnv) instanceIDs() ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	items, err := rdsservice.ListAllDBInstances(ctx, e.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.DBInstanceID)
	}
	sort.Strings(ids)
	return ids, nil
}

const faultTimeouts = `  timeouts = {
    create = "3m"
    update = "3m"
    delete = "3m"
  }
`

func faultConfig(e *testEnv, flag bool, readOnly bool) string {
	cfg := e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "primary" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  instance_name    = "faults-primary"
  atomic_write_16k = %t
%s}
`, flag, faultTimeouts)
	if readOnly {
		cfg += `
resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.primary.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 20
  instance_name      = "faults-ro"
` + faultTimeouts + `}
`
	}
	return cfg
}

// faultPass runs one pass of one fault kind and adds its outcome to res (under mu).
type faultPass struct {
	t    *testing.T
	kind faultKind
	env  *testEnv
	rec  *faultRecorder
	mu   *sync.Mutex
	res  *faultResult
}

func (p *faultPass) add(fn func(r *faultResult)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fn(p.res)
}

// tried counts an operation as attempted; the step's Check counts it as succeeded.
func (p *faultPass) tried() { p.add(func(r *faultResult) { r.tried++ }) }

// restartPrimary provokes the busy fault: the primary is Rebooting when the next step runs.
func (p *faultPass) restartPrimary(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := p.env.data.Waiter.WaitRunning(ctx, id); err != nil {
		p.t.Fatalf("primary %s not Running before the provoked restart: %v", id, err)
	}
	refused := p.rec.count("OperationDenied")
	if err := p.env.api.RestartDBInstance(ctx, id); err != nil {
		p.t.Fatalf("provoking a busy primary: %v", err)
	}
	// End the restart once the provider met it (polling the recorder, not sleeping).
	done := make(chan struct{})
	p.t.Cleanup(func() { close(done) })
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		limit := time.After(busyRestart)
		for {
			select {
			case <-done:
				return
			case <-limit:
				return
			case <-tick.C:
				if p.rec.count("OperationDenied") > refused {
					p.env.sim.AdvanceClock(busyRestart)
					return
				}
			}
		}
	}()
}

// check verifies the instance count and the restarts per instance after a step and records
// the operation as succeeded when they match.
func (p *faultPass) check(op string, wantInstances int, wantRestarts map[string]*int, ids map[string]*string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for addr, dest := range ids {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s: %s not in state", op, addr)
			}
			*dest = rs.Primary.ID
		}
		got, err := p.env.instanceIDs()
		if err != nil {
			return fmt.Errorf("%s: listing instances: %w", op, err)
		}
		var problems []string
		if len(got) > wantInstances {
			p.add(func(r *faultResult) { r.duplicates += len(got) - wantInstances })
		}
		if len(got) != wantInstances {
			problems = append(problems, fmt.Sprintf("%d instances in the simulator, want %d (%v)", len(got), wantInstances, got))
		}
		stats := p.env.sim.Stats()
		for addr, want := range wantRestarts {
			id := *ids[addr]
			n := stats.Restarts[id]
			if n > *want {
				p.add(func(r *faultResult) { r.extraRestarts += n - *want })
			}
			if n != *want {
				problems = append(problems, fmt.Sprintf("%s (%s) restarted %d times, want %d", addr, id, n, *want))
			}
		}
		if len(problems) > 0 {
			return fmt.Errorf("%s under %s: %s", op, p.kind.name, strings.Join(problems, "; "))
		}
		p.add(func(r *faultResult) { r.succeeded++ })
		return nil
	}
}

func (p *faultPass) run() {
	t, env := p.t, p.env
	var primaryID, roID string
	primaryRestarts, roRestarts := 0, 0
	ids := map[string]*string{"rds_instance.primary": &primaryID}
	both := map[string]*string{"rds_instance.primary": &primaryID, "rds_readonly_instance.ro": &roID}
	restarts := map[string]*int{"rds_instance.primary": &primaryRestarts}
	bothRestarts := map[string]*int{"rds_instance.primary": &primaryRestarts, "rds_readonly_instance.ro": &roRestarts}
	start := time.Now()

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			got, err := env.instanceIDs()
			if err != nil {
				return err
			}
			if len(got) != 0 {
				return fmt.Errorf("%d instances left after destroy: %v", len(got), got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				PreConfig: p.tried,
				Config:    faultConfig(env, false, false),
				Check:     p.check("create", 1, restarts, ids),
			},
			{
				PreConfig: func() {
					p.tried()
					if p.kind.busy {
						p.restartPrimary(primaryID)
						primaryRestarts++
					}
				},
				Config: faultConfig(env, false, true),
				Check:  p.check("read-only create", 2, bothRestarts, both),
			},
			{
				PreConfig: func() {
					p.tried()
					if p.kind.busy {
						p.restartPrimary(primaryID)
						primaryRestarts++
					}
					// The toggle restarts the primary once and, through the cloud's cascade, the
					// read-only instance once.
					primaryRestarts++
					roRestarts++
				},
				Config: faultConfig(env, true, true),
				Check:  p.check("toggle", 2, bothRestarts, both),
			},
			{
				PreConfig: func() {
					p.tried()
					if p.kind.busy {
						// Let the cascade finish, then make the primary busy for the destroy.
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						if _, err := env.data.Waiter.WaitRunning(ctx, roID); err != nil {
							t.Fatalf("read-only instance not Running: %v", err)
						}
						p.restartPrimary(primaryID)
						primaryRestarts++
					}
				},
				Config:  faultConfig(env, true, true),
				Destroy: true,
				Check: func(*terraform.State) error {
					got, err := env.instanceIDs()
					if err != nil {
						return err
					}
					if len(got) != 0 {
						p.add(func(r *faultResult) { r.orphans += len(got) })
						return fmt.Errorf("destroy under %s left %v", p.kind.name, got)
					}
					stats := env.sim.Stats()
					if n := stats.Restarts[primaryID]; n != primaryRestarts {
						if n > primaryRestarts {
							p.add(func(r *faultResult) { r.extraRestarts += n - primaryRestarts })
						}
						return fmt.Errorf("primary restarted %d times by the end, want %d", n, primaryRestarts)
					}
					p.add(func(r *faultResult) { r.succeeded++ })
					return nil
				},
			},
		},
	})

	// The fault must actually have hit the provider, or the pass proves nothing.
	var injected int
	switch {
	case p.kind.faults.ThrottleRate > 0:
		injected = p.rec.count("Throttling")
	case p.kind.faults.ErrorRate > 0:
		injected = p.rec.count("ServiceUnavailable")
	case p.kind.faults.DropResponseRate > 0 || len(p.kind.dropFirst) > 0:
		injected = p.rec.count("dropped")
	case p.kind.busy:
		injected = p.rec.count("OperationDenied")
	case p.kind.faults.LatencyMS > 0:
		// Answers that really took the added latency: 0 if the simulator ignored the setting.
		injected = p.rec.count("delayed")
	}
	p.add(func(r *faultResult) {
		r.passes++
		r.injected += injected
		r.wall += time.Since(start)
	})
	t.Logf("%s: %s; answers: %s", p.kind.name, time.Since(start).Round(100*time.Millisecond), p.rec.summary())
	if injected == 0 && !t.Failed() {
		t.Errorf("fault %q was never seen by the provider (answers: %s)", p.kind.name, p.rec.summary())
	}
}

func TestAccReliabilityFaultMatrix(t *testing.T) {
	t.Parallel()
	long := os.Getenv(faultsLongEnv) != ""
	passes := 1
	if long {
		passes = 5
	}
	kinds := faultKinds(long)
	results := make([]faultResult, len(kinds))
	var mu sync.Mutex
	start := time.Now()

	t.Run("matrix", func(t *testing.T) {
		for pass := 1; pass <= passes; pass++ {
			for i, kind := range kinds {
				if !long && (protocolFaultKind(kind) || kind.busy) {
					continue // TestFaultMatrixProtocol or TestAccReliabilityBusyInstance runs it in make test
				}
				t.Run(fmt.Sprintf("%s/pass%d", strings.ReplaceAll(kind.name, " ", "_"), pass), func(t *testing.T) {
					// make test's pass runs in the matrix's own slot: as a parallel subtest it would
					// wait for a slot behind every test not yet started, and end the package.
					if long {
						t.Parallel()
					}
					runFaultKind(t, kind, &mu, &results[i])
				})
			}
		}
	})

	if !long {
		return
	}
	// The create rows of issue 12: 200 creates each at the rdsservice level, then the issue's own
	// scenario with terraform (five instances created in parallel), five passes.
	rows := createFaultRows()
	createResults := make([]createFaultResult, len(rows))
	t.Run("creates", func(t *testing.T) {
		for i, row := range rows {
			t.Run(strings.ReplaceAll(row.name, " ", "_"), func(t *testing.T) {
				createResults[i] = runCreateFaults(t, row, longCreates, 10)
			})
		}
	})
	var tf terraformCreateResult
	t.Run("terraform_creates", func(t *testing.T) {
		for pass := 1; pass <= passes; pass++ {
			t.Run(fmt.Sprintf("pass%d", pass), func(t *testing.T) {
				t.Parallel()
				runTerraformCreates(t, &mu, &tf)
			})
		}
	})

	out := filepath.Join("..", "..", "templates", "guides", "reliability.md.tmpl")
	report := reliabilityReport(kinds, results, passes, time.Since(start)) + createReport(rows, createResults, tf) + keptCrashSection(out)
	if err := os.WriteFile(out, []byte(report), 0o644); err != nil {
		t.Fatalf("writing %s: %v", out, err)
	}
	t.Logf("wrote %s", out)
}

// runFaultKind is one pass of kind: a simulator with the kind's faults and short durations (the
// busy kind's restarts last until the provider met them), and the pass's four operations.
func runFaultKind(t *testing.T, kind faultKind, mu *sync.Mutex, res *faultResult) {
	opts := simulator.Options{
		CreateDuration:  200 * time.Millisecond,
		RestartDuration: 200 * time.Millisecond,
		DeleteDuration:  200 * time.Millisecond,
		FlagLag:         100 * time.Millisecond,
		Faults:          kind.faults,
	}
	if kind.restart > 0 {
		opts.RestartDuration = kind.restart
	}
	env, rec := newRecordedEnv(t, opts)
	for _, action := range kind.dropFirst {
		rec.dropFirst[action] = 1
	}
	rec.slowerThan = time.Duration(kind.faults.LatencyMS) * time.Millisecond
	(&faultPass{t: t, kind: kind, env: env, rec: rec, mu: mu, res: res}).run()
}

// TestAccReliabilityBusyInstance is make test's pass of the matrix's busy kind, a test of its own
// (about 45 s idle, mostly waiting for restarts) so that it and the lost-answer pass take two
// slots instead of running one after the other in one. make test-faults runs it in the matrix.
func TestAccReliabilityBusyInstance(t *testing.T) {
	t.Parallel()
	if os.Getenv(faultsLongEnv) != "" {
		t.Skip("the long form runs it in TestAccReliabilityFaultMatrix")
	}
	for _, kind := range faultKinds(false) {
		if kind.busy {
			var mu sync.Mutex
			runFaultKind(t, kind, &mu, &faultResult{})
			return
		}
	}
	t.Fatal("faultKinds has no busy kind")
}

// reliabilityReport renders the results as the reliability guide template.
func reliabilityReport(kinds []faultKind, results []faultResult, passes int, total time.Duration) string {
	var b strings.Builder
	b.WriteString(`---
page_title: "Reliability: fault-injection results"
subcategory: "Guides"
description: |-
  What happens to creates, toggles, read-only creates and deletes when the RDS API throttles, fails, is slow, loses answers or finds the instance busy.
---

# Reliability: fault-injection results

This page is written by the test run, not by hand: ` + "`make test-faults`" + ` runs
` + "`TestAccReliabilityFaultMatrix`" + ` (internal/provider/reliability_test.go) with ` + "`" + faultsLongEnv + "=1`" + `
and then ` + "`make generate`" + `. Every pass is real Terraform (plan, apply, refresh, destroy) against the
in-process RDS simulator with the fault switched on for every API call, including the provider's reads:

1. create an ` + "`rds_instance`" + ` (16K atomic write off),
2. create an ` + "`rds_readonly_instance`" + ` of it,
3. toggle ` + "`atomic_write_16k`" + ` on the primary (one restart of the primary, and one of the read-only instance through the cloud's cascade),
4. destroy both.

After every step the simulator must hold exactly the expected instances (a retried create that made a
second instance counts as a **duplicate**), every instance must have restarted exactly as often as
expected (a resent ` + "`ModifyDBInstanceSpec`" + ` that restarted it again counts as an **extra restart**),
and after destroy nothing may be left (**orphans**). Each operation has a 3-minute timeout.
"Faults seen" counts the faulty answers the simulator gave during the passes (almost all to the provider;
the test's own checks, which list instances between steps, get a few), and for latency the delayed calls.

| fault | setting | passes | operations tried | succeeded | duplicates | orphans | extra restarts | faults seen | wall time per pass |
|---|---|---|---|---|---|---|---|---|---|
`)
	for i, k := range kinds {
		r := results[i]
		per := time.Duration(0)
		if r.passes > 0 {
			per = (r.wall / time.Duration(r.passes)).Round(100 * time.Millisecond)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s |\n",
			k.name, k.settings, r.passes, r.tried, r.succeeded, r.duplicates, r.orphans, r.extraRestarts, r.injected, per)
	}
	fmt.Fprintf(&b, `
Run: %d passes per fault, %s in total (passes run in parallel, `+"`go test -parallel`"+` %d), %s/%s, simulator durations: create,
restart and delete 200 ms, flag lag 100 ms (the busy row's restarts last until the provider is refused, at most 10 s). Generated %s.

## What the provider does about each fault

- **Throttling and 5xx**: the API client retries the call with exponential backoff and jitter and a fresh
  signature and nonce per attempt (`+"`max_retries`"+`, default %d); waits for the instance keep polling
  through them, bounded by the resource's `+"`timeouts`"+`.
- **Lost answers**: creates carry a `+"`ClientToken`"+` that stays the same across retries, so a resent
  create returns the first instance. `+"`ModifyDBInstanceSpec`"+` has no token: when its answer is lost the
  provider re-reads the instance and resends only if nothing happened, so a toggle never restarts twice.
- **Busy instance**: mutating calls refused with `+"`OperationDenied.*`"+` are retried until the instance
  is available again, within the operation's timeout.
- **Partial failure**: a create whose wait fails, times out or is interrupted before the instance is `+"`Running`"+`
  keeps the instance in state (tainted); the next plan replaces it and nothing is left behind (tests
  `+"`TestAccReliability_*`"+`). Once the instance is `+"`Running`"+`, a later step that fails (parameters, a clone's own
  settings, the maintenance window) keeps it untainted: the apply succeeds with a warning and the next plan shows
  the remaining change as an update of the same instance (tests `+"`TestClonePartial_*`"+`; see "When a create fails
  partway" on the `+"`rds_instance`"+` page).
`, passes, total.Round(time.Second), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format("2006-01-02 15:04 UTC"), defaultMaxRetries)
	return b.String()
}

// ---- partial failure ----

// partialConfig is an instance whose create budget is timeout.
func partialConfig(e *testEnv, timeout string) string {
	return e.instanceConfig(fmt.Sprintf("  timeouts = {\n    create = %q\n  }\n", timeout))
}

// expectPriorID checks that the plan starts from the instance the failed apply left in state, as
// refreshed from the cloud (a known status: the plan shows the truth, not a guess).
type expectPriorID struct {
	addr string
	id   *string
}

func (e expectPriorID) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != e.addr || rc.Change == nil {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		if before == nil || before["id"] != *e.id {
			resp.Error = fmt.Errorf("%s: plan starts from %v, want the instance %s left by the failed apply", e.addr, before["id"], *e.id)
			return
		}
		if status, _ := before["status"].(string); status == "" {
			resp.Error = fmt.Errorf("%s: the refreshed state has no status", e.addr)
		}
		return
	}
	resp.Error = fmt.Errorf("%s not in the plan", e.addr)
}

// partialFailureSteps are the steps after a failed create: the simulator holds exactly the one
// instance the failed apply made, the next plan replaces it (tainted), and after that apply the
// old instance is gone and only the new one exists.
func partialFailureSteps(env *testEnv, first, second *string) []resource.TestStep {
	return []resource.TestStep{{
		PreConfig: func() {
			ids, err := env.instanceIDs()
			if err != nil || len(ids) != 1 {
				panic(fmt.Sprintf("after the failed create the simulator holds %v (err %v); want exactly one instance", ids, err))
			}
			*first = ids[0]
		},
		Config: partialConfig(env, "2m"),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionReplace),
			expectPriorID{addr: testRes, id: first},
		}},
		Check: resource.ComposeTestCheckFunc(idOf(second), func(*terraform.State) error {
			ids, err := env.instanceIDs()
			if err != nil {
				return err
			}
			if *second == *first || len(ids) != 1 || ids[0] != *second {
				return fmt.Errorf("after the replace the simulator holds %v; want only the new instance (old %s, new %s)", ids, *first, *second)
			}
			return nil
		}),
	}}
}

func checkNoInstances(env *testEnv) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ids, err := env.instanceIDs()
		if err != nil {
			return err
		}
		if len(ids) != 0 {
			return fmt.Errorf("instances left after destroy: %v", ids)
		}
		return nil
	}
}

// A create that outlives timeouts.create leaves the instance in state as tainted; the next plan
// replaces it and nothing is orphaned.
func TestAccReliability_createTimeoutTaints(t *testing.T) {
	t.Parallel()
	env, _ := newRecordedEnv(t, simulator.Options{CreateDuration: 3 * time.Second, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	var first, second string
	steps := []resource.TestStep{{
		Config:      partialConfig(env, "1s"),
		ExpectError: regexp.MustCompile(`(?s)was created but did not become ready.*timed out\s+waiting.*tainted`),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps:                    append(steps, partialFailureSteps(env, &first, &second)...),
	})
}

// terraformChildren lists the Terraform CLI processes (terraform, or tofu under OpenTofu) this
// test binary started for the test whose simulator answers at endpoint: the configuration in the
// process's working directory names that endpoint (each test's simulator has its own port), so a
// test signals its own terraform and not those of the tests running beside it.
func terraformChildren(endpoint string) []int {
	cli := "terraform"
	if path := os.Getenv("TF_ACC_TERRAFORM_PATH"); path != "" {
		cli = filepath.Base(path)
	}
	var pids []int
	entries, _ := os.ReadDir("/proc")
	me := os.Getpid()
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		end := strings.LastIndexByte(s, ')')
		start := strings.IndexByte(s, '(')
		if start < 0 || end < start {
			continue
		}
		var state string
		var ppid int
		if _, err := fmt.Sscanf(s[end+1:], " %s %d", &state, &ppid); err != nil || ppid != me {
			continue
		}
		if !strings.HasPrefix(cli, s[start+1:end]) && !strings.HasPrefix(s[start+1:end], cli) {
			continue
		}
		config, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cwd", "terraform_plugin_test.tf"))
		if err == nil && strings.Contains(string(config), endpoint) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// An apply interrupted (Ctrl-C: terraform stops the provider, which cancels the request's
// context) while waiting for a new instance keeps the instance in state as tainted; the next plan
// shows it and replaces it, and nothing is orphaned.
func TestAccReliability_interruptedCreateTaints(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("finds the terraform process through /proc")
	}
	env, _ := newRecordedEnv(t, simulator.Options{CreateDuration: 2500 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	var first, second string
	interrupted := make(chan int, 1)
	steps := []resource.TestStep{{
		PreConfig: func() {
			go func() {
				// Poll until the provider is inside the wait for Running: the create was sent, and
				// the instance has been read since.
				deadline := time.Now().Add(time.Minute)
				for env.sim.Stats().Requests["CreateDBInstance"] == 0 && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				reads := env.sim.Stats().Requests["DescribeDBInstanceAttribute"]
				for env.sim.Stats().Requests["DescribeDBInstanceAttribute"] == reads && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				n := 0
				for _, pid := range terraformChildren(env.srv.URL) {
					if p, err := os.FindProcess(pid); err == nil && p.Signal(os.Interrupt) == nil {
						n++
					}
				}
				interrupted <- n
			}()
		},
		Config:      partialConfig(env, "2m"),
		ExpectError: regexp.MustCompile(`(?s)was created but did not become ready.*context\s+canceled.*tainted`),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps:                    append(steps, partialFailureSteps(env, &first, &second)...),
	})
	if n := <-interrupted; n == 0 {
		t.Error("no terraform process was interrupted")
	}
}

// ---- unanswered creates (issue 12) ----

// createFaultRow is one row of the create matrix: many CreateDBInstance calls through
// rdsservice.CreateDBInstance (the code path of rds_instance's Create) and the real HTTPS client,
// with the provider's default max_retries, against the simulator with faults on every call.
type createFaultRow struct {
	name     string
	faults   simulator.Faults
	deadline time.Duration // each create's budget (timeouts.create)
	// noFailures says every create must succeed (or be recovered); otherwise a create may fail,
	// but only with a message that says what exists.
	noFailures bool
}

// createFaultResult counts one row: every create ends in exactly one of succeeded, recovered
// (the deadline came without an answer and the lookup found the instance: it would be in state,
// tainted) or failed-and-said-so (the lookup found nothing and the message says so).
type createFaultResult struct {
	creates, succeeded, recovered, failedNothing, failedOther int
	duplicates, orphans                                       int
	throttled, errors5xx, dropped                             int
	wall                                                      time.Duration
}

func createFaultRows() []createFaultRow {
	low := simulator.Faults{ThrottleRate: 0.3, ErrorRate: 0.1, DropResponseRate: 0.1}
	high := simulator.Faults{ThrottleRate: 0.5, ErrorRate: 0.2, DropResponseRate: 0.2}
	return []createFaultRow{
		{name: "30% throttling, 10% 5xx, 10% lost answers", faults: low, deadline: 3 * time.Minute, noFailures: true},
		{name: "50% throttling, 20% 5xx, 20% lost answers", faults: high, deadline: 3 * time.Minute},
		{name: "50% throttling, 20% 5xx, 20% lost answers, 1.5 s deadline", faults: high, deadline: 1500 * time.Millisecond},
	}
}

// runCreateFaults makes n creates with `workers` in parallel and audits the simulator afterwards.
// Faults are random: when one kind has not hit yet after n creates, it goes on (up to 5n creates)
// until every kind has, so that a short row is never a row that proves nothing by bad luck.
func runCreateFaults(t *testing.T, row createFaultRow, n, workers int) createFaultResult {
	t.Helper()
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond, Faults: row.faults})
	cred, _, err := buildCredential(settings{accessKey: simulator.DefaultAccessKeyID, secretKey: simulator.DefaultAccessKeySecret})
	if err != nil {
		t.Fatal(err)
	}
	client, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: env.srv.URL, Credentials: cred, MaxRetries: defaultMaxRetries})
	if err != nil {
		t.Fatal(err)
	}
	waiter := &rdsservice.Waiter{API: client, MinInterval: 50 * time.Millisecond, MaxInterval: 500 * time.Millisecond}

	res := createFaultResult{}
	reported := make([]string, 5*n) // the id each create returned (answered or found)
	var mu sync.Mutex
	var problems []string
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				ctx, cancel := context.WithTimeout(context.Background(), row.deadline)
				id, err := rdsservice.CreateDBInstance(ctx, client, waiter, &rdsapi.CreateDBInstanceRequest{
					RegionID: simulator.DefaultRegion, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
					DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", SecurityIPList: "127.0.0.1",
					DBInstanceDescription: fmt.Sprintf("create-%03d", i),
				})
				cancel()
				mu.Lock()
				reported[i] = id
				var unknown *rdsservice.UnknownOutcomeError
				switch {
				case err == nil:
					res.succeeded++
				case errors.As(err, &unknown) && unknown.Found != nil && id == unknown.Found.DBInstanceID:
					res.recovered++
				case errors.As(err, &unknown) && unknown.LookupErr == nil && len(unknown.Candidates) == 0 &&
					strings.Contains(err.Error(), "No instance was created by this request"):
					res.failedNothing++
				default:
					res.failedOther++
					problems = append(problems, fmt.Sprintf("create-%03d: %v", i, err))
				}
				mu.Unlock()
			}
		}()
	}
	allSeen := func() bool {
		return rec.count("Throttling") > 0 && rec.count("ServiceUnavailable") > 0 && rec.count("dropped") > 0
	}
	for res.creates < n || (!allSeen() && res.creates < 5*n) {
		jobs <- res.creates
		res.creates++
	}
	close(jobs)
	wg.Wait()
	res.wall = time.Since(start)
	res.throttled, res.errors5xx, res.dropped = rec.count("Throttling"), rec.count("ServiceUnavailable"), rec.count("dropped")

	// Audit with the faults off: every instance must belong to exactly one create that reported it.
	env.sim.SetFaults(simulator.Faults{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	items, err := rdsservice.ListAllDBInstances(ctx, env.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
	if err != nil {
		t.Fatalf("listing instances: %v", err)
	}
	perCreate := map[string]int{}
	known := map[string]bool{}
	for _, id := range reported {
		if id != "" {
			known[id] = true
		}
	}
	for _, it := range items {
		perCreate[it.DBInstanceDescription]++
		if !known[it.DBInstanceID] {
			res.orphans++
			problems = append(problems, fmt.Sprintf("orphan %s (%s): no create reported it", it.DBInstanceID, it.DBInstanceDescription))
		}
	}
	for desc, c := range perCreate {
		if c > 1 {
			res.duplicates += c - 1
			problems = append(problems, fmt.Sprintf("%d instances for %s", c, desc))
		}
	}
	if total := res.succeeded + res.recovered + res.failedNothing + res.failedOther; total != res.creates {
		t.Errorf("%d creates accounted for, want %d", total, res.creates)
	}
	if res.succeeded+res.recovered != len(items) {
		t.Errorf("%d creates reported an instance, the simulator holds %d", res.succeeded+res.recovered, len(items))
	}
	if res.duplicates > 0 || res.orphans > 0 || res.failedOther > 0 || (row.noFailures && res.failedNothing+res.recovered > 0) {
		t.Errorf("%s: %+v\n%s", row.name, res, strings.Join(problems, "\n"))
	}
	// Every fault must have hit the creates, or the row proves nothing.
	if res.throttled == 0 || res.errors5xx == 0 || res.dropped == 0 {
		t.Errorf("%s: a fault was never seen (answers: %s)", row.name, rec.summary())
	}
	t.Logf("%s: %+v; answers: %s", row.name, res, rec.summary())
	return res
}

// TestAccReliabilityCreateFaults is the short form of the create rows (make test): 20 creates
// per row. The long form (200 per row) runs in TestAccReliabilityFaultMatrix under make test-faults.
func TestAccReliabilityCreateFaults(t *testing.T) {
	if os.Getenv(faultsLongEnv) != "" {
		t.Skip("the long form runs in TestAccReliabilityFaultMatrix")
	}
	for _, row := range createFaultRows() {
		t.Run(strings.ReplaceAll(row.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			runCreateFaults(t, row, 20, 5)
		})
	}
}

// clearFaults stops every fault the recorder injects.
func (f *faultRecorder) clearFaults() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dropFirst, f.hold, f.unavailable = map[string]int{}, map[string]bool{}, map[string]bool{}
}

// afterFaults is partialFailureSteps with the recorder's faults switched off first.
func afterFaults(env *testEnv, rec *faultRecorder, first, second *string) []resource.TestStep {
	steps := partialFailureSteps(env, first, second)
	pre := steps[0].PreConfig
	steps[0].PreConfig = func() { rec.clearFaults(); pre() }
	return steps
}

// Every answer to CreateDBInstance is lost although the instance is made: the create is resent
// with its token until timeouts.create, then the instance is found by its token tag and recorded
// in state, tainted; the next plan replaces it and nothing is orphaned.
func TestAccReliability_unansweredCreateFoundAtDeadline(t *testing.T) {
	t.Parallel()
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	rec.dropFirst["CreateDBInstance"] = 1 << 20
	var first, second string
	steps := []resource.TestStep{{
		Config:      partialConfig(env, "4s"),
		ExpectError: regexp.MustCompile(`(?s)CreateDBInstance.*got no answer.*did create instance rm-\S+.*recorded in state and\s+marked tainted`),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps:                    append(steps, afterFaults(env, rec, &first, &second)...),
	})
	if n := env.sim.Stats().Requests["CreateDBInstance"]; n < 3 {
		t.Errorf("CreateDBInstance sent %d times; want it resent until the deadline", n)
	}
}

// CreateDBInstance keeps failing with 503 without making anything: at the deadline the provider
// looks, finds nothing, and says so.
func TestAccReliability_unansweredCreateNoneExists(t *testing.T) {
	t.Parallel()
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	rec.unavailable["CreateDBInstance"] = true
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps: []resource.TestStep{{
			Config:      partialConfig(env, "3s"),
			ExpectError: regexp.MustCompile(`(?s)ServiceUnavailable.*No instance was created by this\s+request`),
		}, {
			PreConfig: rec.clearFaults,
			Config:    partialConfig(env, "2m"),
			Check:     checkInstanceCount(env, 1),
		}},
	})
	if n := rec.count("ServiceUnavailable"); n < 3 {
		t.Errorf("CreateDBInstance answered 503 %d times; want it resent until the deadline", n)
	}
}

func checkInstanceCount(env *testEnv, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ids, err := env.instanceIDs()
		if err != nil {
			return err
		}
		if len(ids) != want {
			return fmt.Errorf("the simulator holds %v, want %d instance(s)", ids, want)
		}
		return nil
	}
}

// Ctrl-C while CreateDBInstance has been carried out but not answered: the provider looks the
// instance up by its token tag and records it (tainted) instead of leaving it orphaned.
func TestAccReliability_interruptedUnansweredCreate(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("finds the terraform process through /proc")
	}
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	rec.hold["CreateDBInstance"] = true
	var first, second string
	interrupted := make(chan int, 1)
	steps := []resource.TestStep{{
		PreConfig: func() {
			go func() {
				n := 0
				select {
				case <-rec.heldDone:
					for _, pid := range terraformChildren(env.srv.URL) {
						if p, err := os.FindProcess(pid); err == nil && p.Signal(os.Interrupt) == nil {
							n++
						}
					}
				case <-time.After(time.Minute):
				}
				interrupted <- n
			}()
		},
		Config:      partialConfig(env, "2m"),
		ExpectError: regexp.MustCompile(`(?s)CreateDBInstance.*context canceled.*did create instance rm-\S+.*marked\s+tainted`),
	}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps:                    append(steps, afterFaults(env, rec, &first, &second)...),
	})
	if n := <-interrupted; n == 0 {
		t.Error("no terraform process was interrupted")
	}
}

// longCreates is the number of creates per create row in the long form (issue 12).
const longCreates = 200

// terraformCreateResult aggregates the terraform create passes: five rds_instance resources
// (count = 5) created in parallel while the API throttles 30%, answers 10% with 503 and loses 10%
// of answers, then destroyed.
type terraformCreateResult struct {
	passes, tried, inState, duplicates, orphans, failures int
	throttled, errors5xx, dropped                         int
	wall                                                  time.Duration
}

const terraformCreates = 5

func runTerraformCreates(t *testing.T, mu *sync.Mutex, res *terraformCreateResult) {
	faults := simulator.Faults{ThrottleRate: 0.3, ErrorRate: 0.1, DropResponseRate: 0.1}
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond, Faults: faults})
	cfg := env.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "many" {
  count          = %d
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "faults-${count.index}"
%s}
`, terraformCreates, faultTimeouts)
	start := time.Now()
	var inState, inCloud, dups, orphans int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: func(s *terraform.State) error {
				ids, err := env.instanceIDs()
				if err != nil {
					return err
				}
				state := map[string]bool{}
				for _, rs := range s.RootModule().Resources {
					if rs.Type == "rds_instance" {
						state[rs.Primary.ID] = true
					}
				}
				inState, inCloud = len(state), len(ids)
				for _, id := range ids {
					if !state[id] {
						orphans++
					}
				}
				dups = max(0, inCloud-terraformCreates)
				if inState != terraformCreates || inCloud != terraformCreates || orphans > 0 {
					return fmt.Errorf("state holds %d instances, the cloud %d (%v), %d not in state; want %d", inState, inCloud, ids, orphans, terraformCreates)
				}
				return nil
			},
		}},
	})
	mu.Lock()
	defer mu.Unlock()
	res.passes++
	res.tried += terraformCreates
	res.inState += inState
	res.duplicates += dups
	res.orphans += orphans
	if t.Failed() {
		res.failures++
	}
	res.throttled += rec.count("Throttling")
	res.errors5xx += rec.count("ServiceUnavailable")
	res.dropped += rec.count("dropped")
	res.wall += time.Since(start)
	if rec.count("Throttling") == 0 || rec.count("ServiceUnavailable") == 0 || rec.count("dropped") == 0 {
		t.Errorf("a fault was never seen (answers: %s)", rec.summary())
	}
}

// createReport renders the create rows for the reliability guide.
func createReport(rows []createFaultRow, results []createFaultResult, tf terraformCreateResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
## Creates whose answers are lost (issue 12)

%d `+"`CreateDBInstance`"+` calls per row through `+"`rdsservice.CreateDBInstance`"+` (the code path of
`+"`rds_instance`"+`'s create) and the real HTTPS client with the default `+"`max_retries`"+`, 10 at a time,
against the simulator with the faults on every call. Every create ends as **succeeded** (answered),
**recovered** (no answer before the deadline; the instance was found by its token tag and would be recorded
in state, tainted) or **failed, nothing exists** (no answer, the lookup found no instance, and the error
says so). Afterwards every instance in the simulator must belong to exactly one create that reported it:
a second instance for one create is a **duplicate**, an instance no create reported is an **orphan**.

| faults | create deadline | creates | succeeded | recovered | failed, nothing exists | other failures | duplicates | orphans | faults seen (throttled / 5xx / lost) | wall time |
|---|---|---|---|---|---|---|---|---|---|---|
`, longCreates)
	for i, row := range rows {
		r := results[i]
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d / %d / %d | %s |\n",
			strings.TrimSuffix(row.name, ", 1.5 s deadline"), row.deadline, r.creates, r.succeeded, r.recovered, r.failedNothing, r.failedOther,
			r.duplicates, r.orphans, r.throttled, r.errors5xx, r.dropped, r.wall.Round(100*time.Millisecond))
	}
	per := time.Duration(0)
	if tf.passes > 0 {
		per = (tf.wall / time.Duration(tf.passes)).Round(100 * time.Millisecond)
	}
	fmt.Fprintf(&b, `
With Terraform, the scenario of the issue: %d `+"`rds_instance`"+` resources (`+"`count = %d`"+`, created in parallel)
at 30%% throttling, 10%% 5xx and 10%% lost answers, then destroyed.

| passes | creates tried | in state after apply | duplicates | orphans | failed passes | faults seen (throttled / 5xx / lost) | wall time per pass |
|---|---|---|---|---|---|---|---|
| %d | %d | %d | %d | %d | %d | %d / %d / %d | %s |

A create that carries a `+"`ClientToken`"+` is resent with the same token until the resource's
`+"`timeouts.create`"+`, never for a fixed count; `+"`max_retries`"+` bounds the attempts of one call, and of the
calls that are not idempotent. When the deadline comes (or the apply is interrupted) without an answer, the
provider looks for the instance the request made: `+"`CreateDBInstance`"+` carries the tag
`+"`terraform-provider-rds-create-token`"+` = the token, and `+"`DescribeDBInstances`"+` filters by tag. Read-only instances
and clones cannot be tagged at creation, so they are looked for among the instances that are new since the
request and match it; when two match, both are named and neither is taken.

## A bad environment

Every call has a connect timeout (%s), a TLS-handshake timeout (%s), a response-header timeout (%s) and a
per-call budget (%s) for all its attempts, so an endpoint that accepts connections and never answers, or one
that drops packets, fails a plan or refresh in about %s with an error naming the endpoint and what happened
(tests `+"`TestAccEnvironment_*`"+` in internal/provider/environment_test.go). Every retry is logged at INFO
(`+"`TF_LOG=INFO`"+`). A certificate for another host, expired or revoked STS credentials and a clock outside the
15-minute signature window each give one error naming the cause and the fix, without retries. An unknown
region is a provider configuration error naming the valid regions (`+"`DescribeRegions`"+`).
`, terraformCreates, terraformCreates, tf.passes, tf.tried, tf.inState, tf.duplicates, tf.orphans, tf.failures, tf.throttled, tf.errors5xx, tf.dropped, per,
		rdsapi.DefaultConnectTimeout, rdsapi.DefaultTLSHandshakeTimeout, rdsapi.DefaultResponseHeaderTimeout, rdsapi.DefaultCallTimeout, rdsapi.DefaultCallTimeout)
	return b.String()
}

// readOnlyConfig is a primary and one read-only instance whose create budget is roTimeout.
func readOnlyConfig(env *testEnv, roTimeout string) string {
	return env.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "primary" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "ro-primary"
}

resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.primary.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 20
  instance_name      = "ro-unanswered"
  timeouts = {
    create = %q
  }
}
`, roTimeout)
}

// Every answer to CreateReadOnlyDBInstance is lost: at the deadline the read-only instance is found
// among the primary's new read-only instances and recorded (tainted); the next apply replaces it.
func TestAccReliability_unansweredReadOnlyCreateFound(t *testing.T) {
	t.Parallel()
	env, rec := newRecordedEnv(t, simulator.Options{CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	rec.dropFirst["CreateReadOnlyDBInstance"] = 1 << 20
	var found string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps: []resource.TestStep{{
			Config:      readOnlyConfig(env, "4s"),
			ExpectError: regexp.MustCompile(`(?s)CreateReadOnlyDBInstance.*got no answer.*did create instance rr-\S+.*marked\s+tainted`),
		}, {
			PreConfig: func() {
				rec.clearFaults()
				ids, err := env.instanceIDs()
				if err != nil || len(ids) != 2 {
					panic(fmt.Sprintf("after the unanswered read-only create the simulator holds %v (err %v); want the primary and one read-only instance", ids, err))
				}
				for _, id := range ids {
					if strings.HasPrefix(id, "rr-") {
						found = id
					}
				}
			},
			Config: readOnlyConfig(env, "2m"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("rds_readonly_instance.ro", plancheck.ResourceActionReplace),
				expectPriorID{addr: "rds_readonly_instance.ro", id: &found},
			}},
			Check: checkInstanceCount(env, 2),
		}},
	})
}
