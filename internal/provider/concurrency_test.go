package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Concurrent changes (issue 19 §5, §6): while terraform applies a change to an instance, another
// run changes the same instance. The other run is the env's own API client (env.api); it acts at
// a chosen point of terraform's apply through a hook on the server terraform talks to: the hook
// sees each API request before the simulator does and may act first, so the interleaving is the
// same on every run (no sleeps, no races on timing). Every apply here has timeouts.update = 20s:
// a wait for something that cannot come would fail the step with a timeout.

const concurrentUpdateTimeout = "20s"

// otherRun is the second run and the hooked server terraform uses.
type otherRun struct {
	t   *testing.T
	env *testEnv
	srv *httptest.Server

	mu   sync.Mutex
	hook func(action, id string) // called for each of terraform's requests, one at a time
	// specs counts terraform's own ModifyDBInstanceSpec requests per instance.
	specs map[string]int
}

func newOtherRun(t *testing.T, opts simulator.Options) *otherRun {
	t.Helper()
	o := &otherRun{t: t, env: newTestEnv(t, opts), specs: map[string]int{}}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		action, id := requestAction(r)
		o.mu.Lock()
		if action == "ModifyDBInstanceSpec" {
			o.specs[id]++
		}
		if o.hook != nil {
			o.hook(action, id)
		}
		o.mu.Unlock()
		o.env.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(o.srv.Close)
	return o
}

// requestAction reads the action and DBInstanceId of an API request (header, query or form body)
// and leaves the body readable for the simulator.
func requestAction(r *http.Request) (action, id string) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	query := r.URL.Query()
	action = firstNonEmptyString(r.Header.Get("x-acs-action"), query.Get("Action"), form.Get("Action"))
	id = firstNonEmptyString(query.Get("DBInstanceId"), form.Get("DBInstanceId"))
	return action, id
}

func firstNonEmptyString(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func (o *otherRun) setHook(h func(action, id string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hook = h
}

func (o *otherRun) terraformSpecs(id string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.specs[id]
}

// providerBlock points terraform at the hooked server.
func (o *otherRun) providerBlock() string {
	return fmt.Sprintf(`
provider "rds" {
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
}
`, o.srv.URL, simulator.DefaultRegion, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret)
}

// seed plants a Running MySQL 8.0 instance for terraform to import.
func (o *otherRun) seed(s simulator.SeedInstance) string {
	o.t.Helper()
	s.Engine, s.EngineVersion = "MySQL", "8.0"
	if s.Storage == 0 {
		s.Storage = 100
	}
	id, err := o.env.sim.AddInstance(s)
	if err != nil {
		o.t.Fatal(err)
	}
	return id
}

// read is the other run's DescribeDBInstanceAttribute.
func (o *otherRun) read(id string) *rdsapi.DBInstanceAttribute {
	a, err := o.env.api.DescribeDBInstanceAttribute(context.Background(), id)
	if err != nil {
		o.t.Errorf("other run: reading %s: %v", id, err)
		return nil
	}
	return a
}

// modify is the other run's ModifyDBInstanceSpec; it reports whether the cloud accepted it.
func (o *otherRun) modify(req rdsapi.ModifyDBInstanceSpecRequest) bool {
	_, err := o.env.api.ModifyDBInstanceSpec(context.Background(), &req)
	if err != nil && !rdsapi.IsBusy(err) {
		o.t.Errorf("other run: ModifyDBInstanceSpec %+v: %v", req, err)
	}
	return err == nil
}

// onFirst runs act the first time terraform sends action for id (before the simulator sees it).
func (o *otherRun) onFirst(action, id string, act func()) {
	done := false
	o.setHook(func(a, target string) {
		if !done && a == action && target == id {
			done = true
			act()
		}
	})
}

// afterOwnSpecRunning runs act (until it reports success) when terraform reads id after its own
// ModifyDBInstanceSpec went out and the instance is Running again: the moment terraform's wait
// would see its change complete, someone else changes the instance first.
func (o *otherRun) afterOwnSpecRunning(id string, act func() bool) {
	sent, done := false, false
	o.setHook(func(a, target string) {
		switch {
		case done || target != id:
		case a == "ModifyDBInstanceSpec":
			sent = true
		case a == "DescribeDBInstanceAttribute" && sent:
			if cur := o.read(id); cur != nil && cur.DBInstanceStatus == rdsapi.StatusRunning {
				done = act()
			}
		}
	})
}

const (
	yitianMedium = "mysql.n2m.medium.2c"
	yitianLarge  = "mysql.n2m.large.2c"
	x86Medium    = "mysql.n2.medium.2c"
)

// expectDrift checks that the plan changes attribute from the cloud's value (before) back to the
// configured one (after): someone else's change shown as drift.
type expectDrift struct {
	address, attribute string
	before, after      any
}

func (e expectDrift) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != e.address {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		if fmt.Sprint(before[e.attribute]) != fmt.Sprint(e.before) || fmt.Sprint(after[e.attribute]) != fmt.Sprint(e.after) {
			resp.Error = fmt.Errorf("%s.%s: plan %v -> %v, want the drift %v -> %v", e.address, e.attribute,
				before[e.attribute], after[e.attribute], e.before, e.after)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no change planned, want the drift of %s", e.address, e.attribute)
}

// cloudHas checks the instance as the cloud has it.
func (o *otherRun) cloudHas(id, class string, flag bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a := o.read(id)
		if a == nil {
			return fmt.Errorf("cannot read %s", id)
		}
		if a.DBInstanceClass != class || !rdsservice.FlagIs(a, flag) {
			return fmt.Errorf("cloud has class %s, flag %v; want %s, %t", a.DBInstanceClass, a.OptimizedWrites, class, flag)
		}
		return nil
	}
}

// expect runs checks before a step (a step that expects an error runs no Check).
func (o *otherRun) expect(checks ...resource.TestCheckFunc) func() {
	return func() {
		for _, check := range checks {
			if err := check(nil); err != nil {
				o.t.Error(err)
			}
		}
	}
}

// counts checks the instance's restarts and terraform's own ModifyDBInstanceSpec requests.
func (o *otherRun) counts(id string, restarts, terraformSpecs int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := o.env.restarts(id); got != restarts {
			return fmt.Errorf("%s restarted %d times, want %d", id, got, restarts)
		}
		if got := o.terraformSpecs(id); got != terraformSpecs {
			return fmt.Errorf("terraform sent %d ModifyDBInstanceSpec for %s, want %d", got, id, terraformSpecs)
		}
		return nil
	}
}

// phraseRegexp matches a phrase however terraform wraps the diagnostic's lines.
func phraseRegexp(phrase string) string {
	parts := strings.Fields(phrase)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return strings.Join(parts, `\s+`)
}

func errorWith(phrases ...string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)")
	for _, p := range phrases {
		b.WriteString(".*" + phraseRegexp(p))
	}
	return regexp.MustCompile(b.String())
}

func concState(attribute string, v knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(testRes, tfjsonpath.New(attribute), v)
}

// §6 for rds_readonly_instance: terraform renames a read-only instance while another run changes
// its class. The apply records the planned class and the next plan shows the other run's class as
// drift. Before, it failed with "Provider produced inconsistent result".
func TestConcurrentReadonlyClassChangeWhileRenaming(t *testing.T) {
	t.Parallel()
	o := newOtherRun(t, testSimOptions())
	primary := o.seed(simulator.SeedInstance{DBInstanceClass: yitianMedium})
	ro := o.seed(simulator.SeedInstance{DBInstanceClass: "mysqlro.n2.medium.1c", MasterID: primary})
	config := func(name string) string {
		return o.providerBlock() + fmt.Sprintf(`
import {
  to = rds_readonly_instance.test
  id = %q
}

resource "rds_readonly_instance" "test" {
  master_instance_id = %q
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
  instance_name      = %q
  timeouts = {
    update = %q
  }
}
`, ro, primary, name, concurrentUpdateTimeout)
	}
	const roRes = "rds_readonly_instance.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("reporting")},
			{
				PreConfig: func() {
					o.onFirst("ModifyDBInstanceDescription", ro, func() {
						o.modify(rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: ro, DBInstanceClass: "mysqlro.n2.large.1c"})
					})
				},
				Config: config("reporting-2"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(roRes, tfjsonpath.New("instance_name"), knownvalue.StringExact("reporting-2")),
					statecheck.ExpectKnownValue(roRes, tfjsonpath.New("instance_type"), knownvalue.StringExact("mysqlro.n2.medium.1c")),
				},
				Check: o.counts(ro, 1, 0),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					expectDrift{roRes, "instance_type", "mysqlro.n2.large.1c", "mysqlro.n2.medium.1c"},
				}},
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// keepPlanned: known planned values win, unknown ones take the read value, objects merge per
// attribute.
func TestConcurrentKeepPlannedTakesThePlanWhereItKnew(t *testing.T) {
	inner := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.String}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "status": tftypes.String, "block": inner}}
	obj := func(name, status, a, b tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"name": name, "status": status,
			"block": tftypes.NewValue(inner, map[string]tftypes.Value{"a": a, "b": b})})
	}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	planned := obj(str("planned"), unknown, str("pa"), unknown)
	read := obj(str("read"), str("Running"), str("ra"), str("rb"))
	if got, want := keepPlanned(planned, read), obj(str("planned"), str("Running"), str("pa"), str("rb")); !got.Equal(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if got := keepPlanned(tftypes.NewValue(typ, tftypes.UnknownValue), read); !got.Equal(read) {
		t.Fatalf("an unknown plan takes the read value, got %v", got)
	}
}

// §6 for a create: another run renames the new instance the moment it is Running, before
// terraform reads it back. The create records the planned name and the next plan shows the other
// run's as drift. Before, the create failed with "Provider produced inconsistent result".
func TestConcurrentRenameWhileCreating(t *testing.T) {
	t.Parallel()
	o := newOtherRun(t, testSimOptions())
	done := false
	o.setHook(func(action, id string) {
		if done || action != "DescribeDBInstanceAttribute" || id == "" {
			return
		}
		if cur := o.read(id); cur != nil && cur.DBInstanceStatus == rdsapi.StatusRunning {
			done = true
			if err := o.env.api.ModifyDBInstanceDescription(context.Background(), id, "renamed-elsewhere"); err != nil {
				o.t.Errorf("other run: rename: %v", err)
			}
		}
	})
	config := o.providerBlock() + `
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2m.medium.2c"
  storage        = 100
  instance_name  = "orig"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigStateChecks: []statecheck.StateCheck{concState("instance_name", knownvalue.StringExact("orig"))},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				expectDrift{testRes, "instance_name", "renamed-elsewhere", "orig"},
			}},
			ExpectNonEmptyPlan: true,
		}},
	})
	if !done {
		t.Fatal("the other run never renamed the instance")
	}
}
