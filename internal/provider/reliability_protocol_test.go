package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The fault matrix's rate kinds (throttling, server errors, latency, dropped responses) at the
// plugin protocol: the same four steps as a CLI pass (create, read-only create, toggle, destroy),
// played by the oracle's harness against the provider in-process, with the same checks after each
// step (instances in the simulator, restarts per instance, nothing left) and a verifying plan that
// must be empty. `make test` runs these kinds here and the deterministic kinds (lost answers, busy
// instance) with terraform; `make test-faults` runs every kind with terraform, five passes each.

// protocolFaultKind reports whether `make test` runs kind at the plugin protocol: the kinds whose
// faults are drawn at a rate, which need no terraform to reach the provider's retries.
func protocolFaultKind(kind faultKind) bool {
	return !kind.busy && len(kind.dropFirst) == 0
}

func TestFaultMatrixProtocol(t *testing.T) {
	t.Parallel()
	ran := 0
	for _, kind := range faultKinds(false) {
		if !protocolFaultKind(kind) {
			continue
		}
		ran++
		t.Run(strings.ReplaceAll(kind.name, " ", "_"), func(t *testing.T) {
			runProtocolFaultPass(t, kind)
		})
	}
	if ran < 4 {
		t.Fatalf("%d fault kinds ran at the protocol, want the 4 rate kinds", ran)
	}
}

// faultWorld is an oracle world whose simulator sits behind a fault recorder.
func faultWorld(t *testing.T, kind faultKind) (*oracleWorld, *faultRecorder, rdsapi.API) {
	h := newOracleHarness(t)
	clock := &oracleClock{now: time.Now().UTC()}
	sim, err := simulator.New(simulator.Options{
		CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond,
		Faults: kind.faults, FaultSeed: 6, Now: clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := newFaultRecorder()
	rec.slowerThan = time.Duration(kind.faults.LatencyMS) * time.Millisecond
	srv := httptest.NewServer(rec.wrap(sim))
	t.Cleanup(srv.Close)
	h.url, h.maxRetries = srv.URL, defaultMaxRetries
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	return &oracleWorld{h: h, sim: sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}}, rec, api
}

// faultStep is one step of a pass: the configuration and what the simulator holds afterwards.
type faultStep struct {
	op        string
	order     []oracleResource
	instances int
	// primaryRestarts and roRestarts are the restarts each instance has had by the end of the step
	// (-1: not checked).
	primaryRestarts, roRestarts int
}

func faultSteps() []faultStep {
	primary := func(flag bool) oracleResource {
		return oracleResource{addr: "rds_instance.primary", attrs: map[string]any{
			"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
			"instance_name": "faults-primary", "atomic_write_16k": flag,
		}}
	}
	ro := oracleResource{addr: "rds_readonly_instance.ro", attrs: map[string]any{
		"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": "mysqlro.n2.medium.1c",
		"storage": 20, "instance_name": "faults-ro",
	}}
	return []faultStep{
		{op: "create", order: []oracleResource{primary(false)}, instances: 1, primaryRestarts: 0, roRestarts: -1},
		{op: "read-only create", order: []oracleResource{primary(false), ro}, instances: 2, primaryRestarts: 0, roRestarts: 0},
		// The toggle restarts the primary once and, through the cloud's cascade, the read-only instance once.
		{op: "toggle", order: []oracleResource{primary(true), ro}, instances: 2, primaryRestarts: 1, roRestarts: 1},
		{op: "destroy", instances: 0, primaryRestarts: 1, roRestarts: -1},
	}
}

func runProtocolFaultPass(t *testing.T, kind faultKind) {
	w, rec, api := faultWorld(t, kind)
	ids := map[string]string{}
	for _, step := range faultSteps() {
		if _, err := w.applyStep(step.order); err != nil {
			t.Fatalf("%s under %s: %v (answers: %s)", step.op, kind.name, err, rec.summary())
		}
		for _, addr := range []string{"rds_instance.primary", "rds_readonly_instance.ro"} {
			if v, ok := w.state[addr]; ok {
				var id string
				if err := attrOf(v, "id").As(&id); err != nil {
					t.Fatalf("%s: id of %s: %v", step.op, addr, err)
				}
				ids[addr] = id
			}
		}
		if problems := faultStepProblems(api, w.sim.Stats(), step, ids); len(problems) > 0 {
			t.Fatalf("%s under %s: %s", step.op, kind.name, strings.Join(problems, "; "))
		}
	}
	injected := protocolFaultsSeen(kind, rec)
	t.Logf("%s: answers: %s", kind.name, rec.summary())
	if injected == 0 {
		t.Errorf("fault %q was never seen by the provider (answers: %s)", kind.name, rec.summary())
	}
}

// applyStep is a terraform acceptance step: `terraform apply` of order, then a `terraform plan`
// that must be empty. afterApply (the step's state checks) run on the state the apply wrote,
// before that plan's refresh. It returns the apply's plan.
func (w *oracleWorld) applyStep(order []oracleResource, afterApply ...func()) (*oraclePlan, error) {
	plan, err := w.planWalk(order)
	if err != nil {
		return nil, err
	}
	if plan.errAt != "" {
		return nil, fmt.Errorf("plan: %s: %s", plan.errAt, plan.errMsg)
	}
	res, err := w.applyWalk(order, plan)
	if err != nil {
		return nil, err
	}
	if res.errAt != "" {
		return nil, fmt.Errorf("apply: %s: %s", res.errAt, res.errMsg)
	}
	if len(res.inconsistent) > 0 {
		return nil, fmt.Errorf("apply: %v", res.inconsistent)
	}
	for _, check := range afterApply {
		check()
	}
	again, err := w.planWalk(order)
	if err != nil {
		return nil, err
	}
	if again.errAt != "" {
		return nil, fmt.Errorf("plan after apply: %s: %s", again.errAt, again.errMsg)
	}
	for addr, p := range again.res {
		if p.action != actNoop {
			return nil, fmt.Errorf("plan after apply is not empty: %s %s", addr, p.action)
		}
	}
	return plan, nil
}

// faultStepProblems compares the simulator with what a step should have left.
func faultStepProblems(api rdsapi.API, stats simulator.Stats, step faultStep, ids map[string]string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	items, err := rdsservice.ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
	if err != nil {
		return []string{fmt.Sprintf("listing instances: %v", err)}
	}
	var problems []string
	if len(items) != step.instances {
		problems = append(problems, fmt.Sprintf("%d instances in the simulator, want %d", len(items), step.instances))
	}
	for addr, want := range map[string]int{"rds_instance.primary": step.primaryRestarts, "rds_readonly_instance.ro": step.roRestarts} {
		if want < 0 {
			continue
		}
		if n := stats.Restarts[ids[addr]]; n != want {
			problems = append(problems, fmt.Sprintf("%s (%s) restarted %d times, want %d", addr, ids[addr], n, want))
		}
	}
	return problems
}

// protocolFaultsSeen counts the faulty answers of kind's fault, as the CLI pass does.
func protocolFaultsSeen(kind faultKind, rec *faultRecorder) int {
	switch {
	case kind.faults.ThrottleRate > 0:
		return rec.count("Throttling")
	case kind.faults.ErrorRate > 0:
		return rec.count("ServiceUnavailable")
	case kind.faults.DropResponseRate > 0:
		return rec.count("dropped")
	case kind.faults.LatencyMS > 0:
		return rec.count("delayed")
	}
	return 0
}
