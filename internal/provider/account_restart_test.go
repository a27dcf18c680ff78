package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// restartGate holds the first CreateAccount until a ModifyDBInstanceSpec has been answered, so
// the account is created while the instance restarts for its 16K toggle, whatever order
// Terraform runs the two resources in. It records the HTTP status of every CreateAccount.
type restartGate struct {
	next     http.Handler
	modified chan struct{}
	once     sync.Once

	mu       sync.Mutex
	statuses []int
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (g *restartGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Header.Get("x-acs-action") {
	case "ModifyDBInstanceSpec":
		g.next.ServeHTTP(w, r)
		g.once.Do(func() { close(g.modified) })
	case "CreateAccount":
		select {
		case <-g.modified:
		case <-time.After(time.Minute): // never hang the suite; the assertions below then fail
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		g.next.ServeHTTP(rec, r)
		g.mu.Lock()
		g.statuses = append(g.statuses, rec.status)
		g.mu.Unlock()
	default:
		g.next.ServeHTTP(w, r)
	}
}

// An account created while its instance restarts for an atomic_write_16k toggle in the same apply
// succeeds after the wait: the cloud refuses it with IncorrectDBInstanceState (403) during the
// restart, the provider retries within its timeout, and the instance restarts exactly once.
func TestAccAccount_createdDuringToggleRestart(t *testing.T) {
	t.Parallel()
	opts := accessSimOptions()
	opts.RestartDuration = time.Second
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	gate := &restartGate{next: sim, modified: make(chan struct{})}
	srv := httptest.NewServer(gate)
	t.Cleanup(srv.Close)
	env := newTestEnvOn(t, opts, sim, srv, 3)

	instance := func(flag bool) string {
		return env.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  instance_name    = "restart-acc"
  atomic_write_16k = %t
}
`, flag)
	}
	// The account finds its instance through a data source, not a reference, so Terraform does not
	// wait for the toggle before creating it.
	account := `
data "rds_instances" "mine" {
  name_regex = "^restart-acc$"
}

resource "rds_account" "app" {
  instance_id = data.rds_instances.mine.ids[0]
  name        = "app_user"
` + passwordLines("Restart-pass1", 1) + `
}
`
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: instance(false), Check: idOf(&id)},
			{
				Config:            instance(true) + account,
				ConfigStateChecks: []statecheck.StateCheck{stateValue(accountRes, "status", knownvalue.StringExact("Available"))},
				Check: func(*terraform.State) error {
					gate.mu.Lock()
					statuses := append([]int(nil), gate.statuses...)
					gate.mu.Unlock()
					if len(statuses) < 2 || statuses[0] != http.StatusForbidden || statuses[len(statuses)-1] != http.StatusOK {
						return fmt.Errorf("CreateAccount answers %v; want a 403 (IncorrectDBInstanceState) during the restart, then 200", statuses)
					}
					if n := env.restarts(id); n != 1 {
						return fmt.Errorf("instance restarted %d times, want 1", n)
					}
					return env.checkPassword(id, "app_user", "Restart-pass1")(nil)
				},
			},
		},
	})
}
