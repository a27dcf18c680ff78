package provider

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// loseFirstAnswer carries out the first request of each named action, then closes the connection
// without an answer, as a network failure after the cloud acted would.
type loseFirstAnswer struct {
	next    http.Handler
	mu      sync.Mutex
	pending map[string]bool
}

func (l *loseFirstAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	action := r.Header.Get("x-acs-action")
	l.mu.Lock()
	lose := l.pending[action]
	delete(l.pending, action)
	l.mu.Unlock()
	if !lose {
		l.next.ServeHTTP(w, r)
		return
	}
	l.next.ServeHTTP(httptest.NewRecorder(), r) // the cloud acts; the answer never arrives
	if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
		if tcp, ok := conn.(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
		_ = conn.Close()
	}
}

// A create whose answer is lost is resent by the client and meets Duplicate: the provider knows
// its check found no such account or database before, adopts it, and makes sure the account has
// the configured password. Nothing is created twice and nothing is left out of state.
func TestAccAccount_lostCreateAnswer(t *testing.T) {
	t.Parallel()
	opts := accessSimOptions()
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	lossy := &loseFirstAnswer{next: sim, pending: map[string]bool{"CreateAccount": true, "CreateDatabase": true}}
	srv := httptest.NewServer(lossy)
	t.Cleanup(srv.Close)
	env := newTestEnvOn(t, opts, sim, srv, 3)
	id := env.plantInstance(t, "8.0", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{{
			Config: accountConfig(env, id, passwordLines("Lost-answer1", 1)) + fmt.Sprintf(`
resource "rds_database" "orders" {
  instance_id = %q
  name        = "orders"
}
`, id),
			Check: resource.ComposeTestCheckFunc(env.checkPassword(id, "app_user", "Lost-answer1"), env.checkDatabase(id, "orders", "utf8mb4"),
				func(*terraform.State) error {
					if n := env.requests("CreateAccount"); n != 2 {
						return fmt.Errorf("%d CreateAccount requests, want 2 (the lost one and its resend)", n)
					}
					if n := env.requests("CreateDatabase"); n != 2 {
						return fmt.Errorf("%d CreateDatabase requests, want 2", n)
					}
					if n := env.requests("ResetAccountPassword"); n != 1 {
						return fmt.Errorf("%d ResetAccountPassword requests, want 1 after the adopted create", n)
					}
					return nil
				}),
		}},
	})
}
