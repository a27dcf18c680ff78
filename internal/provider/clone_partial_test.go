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

	"github.com/hashicorp/terraform-plugin-framework/types"
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
// The family's terraform test (the taint and its replacement are core's); the partial creations
// that are kept are played at the plugin protocol in clone_partial_protocol_test.go.
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
