package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 19: a creation that stops after the instance (a clone above all) is Running records it as
// it is, not tainted: the apply succeeds with a warning, the next plan shows the remaining change
// as an update, and applying it creates no second instance. Only an instance that never became
// Running is tainted.

// refuser answers the named actions with Forbidden.RAM (the RAM policy lets the user clone but not,
// say, change the spec) without passing them to the simulator, until it is switched off.
type refuser struct {
	next    http.Handler
	mu      sync.Mutex
	refuse  map[string]bool
	refused map[string]int
}

func (f *refuser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	action := r.Header.Get("x-acs-action")
	f.mu.Lock()
	refuse := f.refuse[action]
	if refuse {
		f.refused[action]++
	}
	f.mu.Unlock()
	if !refuse {
		f.next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	_ = json.NewEncoder(w).Encode(map[string]string{"Code": "Forbidden.RAM",
		"Message": "User not authorized to operate on the specified resource.", "RequestId": "refuser"})
}

func (f *refuser) allow() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refuse = map[string]bool{}
}

func (f *refuser) count(action string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused[action]
}

// newRefusingEnv is a test environment whose provider meets a cloud that refuses actions.
func newRefusingEnv(t *testing.T, opts simulator.Options, actions ...string) (*testEnv, *refuser) {
	t.Helper()
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f := &refuser{next: sim, refuse: map[string]bool{}, refused: map[string]int{}}
	for _, a := range actions {
		f.refuse[a] = true
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return newTestEnvOn(t, opts, sim, srv, 3), f
}

// warningRecorder keeps the warnings the provider returns to Terraform from applies and plans.
type warningRecorder struct {
	mu             sync.Mutex
	apply, planned []string
}

func (w *warningRecorder) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){"rds": func() (tfprotov6.ProviderServer, error) {
		s, err := providerserver.NewProtocol6WithError(New("test")())()
		return &recordingServer{ProviderServer: s, rec: w}, err
	}}
}

func (w *warningRecorder) add(dest *[]string, diags []*tfprotov6.Diagnostic) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			*dest = append(*dest, d.Summary+": "+d.Detail)
		}
	}
}

// check asserts that one recorded warning matches every pattern.
func (w *warningRecorder) check(from *[]string, what string, patterns ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, text := range *from {
			ok := true
			for _, p := range patterns {
				ok = ok && regexp.MustCompile(p).MatchString(text)
			}
			if ok {
				return nil
			}
		}
		return fmt.Errorf("no %s warning matches %q; got %q", what, patterns, *from)
	}
}

// require is check, failing the test at once (for PreConfig, which runs before a step).
func (w *warningRecorder) require(t *testing.T, from *[]string, what string, patterns ...string) {
	t.Helper()
	if err := w.check(from, what, patterns...)(nil); err != nil {
		t.Fatal(err)
	}
}

// count is the number of recorded warnings that match pattern.
func (w *warningRecorder) count(from *[]string, pattern string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, text := range *from {
		if regexp.MustCompile(pattern).MatchString(text) {
			n++
		}
	}
	return n
}

type recordingServer struct {
	tfprotov6.ProviderServer
	rec *warningRecorder
}

func (s *recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.rec.add(&s.rec.apply, resp.Diagnostics)
	}
	return resp, err
}

func (s *recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.rec.add(&s.rec.planned, resp.Diagnostics)
	}
	return resp, err
}

// notTainted asserts the resource is in state and not tainted (Terraform would replace it).
func notTainted(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		if rs.Primary.Tainted {
			return fmt.Errorf("%s (%s) is tainted: the next apply would replace it", addr, rs.Primary.ID)
		}
		return nil
	}
}

// expectChange asserts the plan updates addr in place, from before to after at attribute.
func expectChange(addr, attribute string, before, after any) plancheck.PlanCheck {
	return changeCheck{addr, attribute, before, after}
}

type changeCheck struct {
	addr, attribute string
	before, after   any
}

func (c changeCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		if !rc.Change.Actions.Update() {
			resp.Error = fmt.Errorf("%s: actions %v, want an update in place", c.addr, rc.Change.Actions)
			return
		}
		b, _ := rc.Change.Before.(map[string]any)
		a, _ := rc.Change.After.(map[string]any)
		if fmt.Sprint(b[c.attribute]) != fmt.Sprint(c.before) || fmt.Sprint(a[c.attribute]) != fmt.Sprint(c.after) {
			resp.Error = fmt.Errorf("%s.%s: %v -> %v, want %v -> %v", c.addr, c.attribute, b[c.attribute], a[c.attribute], c.before, c.after)
		}
		return
	}
	resp.Error = fmt.Errorf("%s not in the plan", c.addr)
}

// cloudFlag asserts the instance's 16K atomic write in the cloud.
func (e *testEnv) cloudFlag(id *string, on bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, err := e.api.DescribeDBInstanceAttribute(context.Background(), *id)
		if err != nil {
			return err
		}
		if !rdsservice.FlagIs(a, on) {
			return fmt.Errorf("%s does not have 16K atomic write %v in the cloud", *id, on)
		}
		return nil
	}
}

// A clone that never becomes Running (the create timeout ends while it is still Creating) may not
// be usable at all: the apply fails and the instance is tainted, so the next apply replaces it.
func TestClonePartial_neverRunningIsTainted(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.CreateDuration = 4 * time.Second
	env := newTestEnv(t, opts)
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	restore := fmt.Sprintf("    source_instance_id = %q\n    backup_id = \"b-acctest\"", src)
	var first string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(src),
		Steps: []resource.TestStep{
			{
				Config:      env.restoreConfig("mysql.n2.medium.2c", "  timeouts = { create = \"1s\" }", restore),
				ExpectError: regexp.MustCompile(`did not become ready[\s\S]*tainted`),
			},
			{
				PreConfig: func() {
					items, err := env.instanceIDs()
					if err != nil || len(items) != 2 {
						t.Fatalf("want the source and one clone, got %v %v", items, err)
					}
					for _, it := range items {
						if it != src {
							first = it
						}
					}
				},
				Config: env.restoreConfig("mysql.n2.medium.2c", "", restore),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources[testRes].Primary.ID; id == first {
						return fmt.Errorf("the tainted clone %s was kept", first)
					}
					if n := env.requests("CloneDBInstance"); n != 2 {
						return fmt.Errorf("%d CloneDBInstance requests, want 2 (the tainted clone and its replacement)", n)
					}
					return nil
				},
			},
		},
	})
}

// rds_readonly_instance follows the same rule: its parameters refused after it is Running leave it
// untainted, and the next apply sets them on the same instance.
func TestClonePartial_readOnlyParametersRefused(t *testing.T) {
	t.Parallel()
	env, cloud := newRefusingEnv(t, testSimOptions(), "ModifyParameter")
	warnings := &warningRecorder{}
	const ro = "rds_readonly_instance.ro[0]"
	cfg := env.providerBlock() + roAccPrimary(true) + roAccReplicasWith(1, parametersBlock(map[string]string{"innodb_io_capacity": "4000"}))
	var first string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: warnings.factories(),
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					expectChange(ro, "parameters", map[string]any{"innodb_io_capacity": "20000"}, map[string]any{"innodb_io_capacity": "4000"}),
				}},
				Check: resource.ComposeTestCheckFunc(notTainted("rds_readonly_instance.ro.0"),
					resource.TestCheckResourceAttrWith("rds_readonly_instance.ro.0", "id", func(v string) error { first = v; return nil }),
					warnings.check(&warnings.apply, "apply", `rr-\w+ is Running`, `Setting the parameters failed`, `not applied yet: parameters`)),
			},
			{
				PreConfig: cloud.allow,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(notTainted("rds_readonly_instance.ro.0"),
					resource.TestCheckResourceAttr("rds_readonly_instance.ro.0", "parameters.innodb_io_capacity", "4000"),
					func(*terraform.State) error {
						if n := env.requests("CreateReadOnlyDBInstance"); n != 1 {
							return fmt.Errorf("%d CreateReadOnlyDBInstance requests, want 1", n)
						}
						if got := env.running(t, first, "innodb_io_capacity"); got != "4000" {
							return fmt.Errorf("innodb_io_capacity runs %q on %s, want 4000", got, first)
						}
						return nil
					}),
			},
		},
	})
}

// What a stopped creation did not apply is every setting whose recorded (planned) value differs
// from the instance's.
func TestClonePartialNotApplied(t *testing.T) {
	t.Parallel()
	state := nullModel()
	state.ID = types.StringValue("rm-1")
	state.InstanceName = types.StringValue("clone")
	state.AtomicWrite16K = types.BoolValue(false)
	state.ConnectionString = types.StringValue("rm-1.mysql.rds.aliyuncs.com")
	seen := state
	seen.InstanceName = types.StringNull()
	seen.AtomicWrite16K = types.BoolValue(true)
	seen.ConnectionString = types.StringValue("elsewhere") // not a setting: never listed

	got := differing(state, seen, instanceCreateSettings)
	if want := []string{"instance_name", "atomic_write_16k"}; !slices.Equal(got, want) {
		t.Errorf("not applied = %v, want %v", got, want)
	}
	if got := differing(seen, seen, instanceCreateSettings); len(got) != 0 {
		t.Errorf("identical models differ in %v", got)
	}
}
