package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 41, item 19, with the real terraform binary: two read-only instances from one block
// (count = 2, identical arguments), the apply killed with SIGKILL once both creates were sent. A
// plain re-run converges: each twin takes one create the killed apply sent (adopted, or resent with
// its token when it got no answer; the plan says so),
// the cloud holds exactly the instances the state names, and the next plan is empty.
func TestAccCrashReadOnlyTwinsConverge(t *testing.T) {
	if os.Getenv("TF_ACC") == "" || !crashSupported {
		t.Skip("acceptance test: set TF_ACC=1 (Unix only)")
	}
	env := newTestEnv(t, simulator.Options{CreateDuration: 300 * time.Millisecond, RestartDuration: 300 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond})
	tf := newCrashTerraform(t)
	config := func(twins int) string {
		return requiredProviders() + env.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "primary" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "twins-primary"
}

resource "rds_readonly_instance" "ro" {
  count              = %d
  master_instance_id = rds_instance.primary.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 20
}
`, twins)
	}
	tf.write(config(0))
	if out, ok := tf.apply(false); !ok {
		t.Fatalf("setting up the primary failed:\n%s", tail(out, 3000))
	}
	tf.write(config(2))
	before := env.sim.Stats().Requests["CreateReadOnlyDBInstance"]
	_, fired := tf.killedApply(false, func() bool { return env.sim.Stats().Requests["CreateReadOnlyDBInstance"]-before >= 2 })
	if !fired {
		t.Fatal("the apply ended before both creates were sent")
	}
	tf.restoreTornState()
	out, ok := tf.apply(false)
	if !ok {
		t.Fatalf("the re-run after the kill failed:\n%s", tail(out, 4000))
	}
	// Each twin takes one create: adopted when it got an answer, resent with its token when not.
	if taken := strings.Count(out, `"@message":"Warning: Adopting `) + strings.Count(out, `"@message":"Warning: Resending a create`); taken < 2 {
		t.Errorf("the re-run named %d objects the killed apply made, want one per twin:\n%s", taken, tail(out, 3000))
	}
	state, _ := tf.stateObjects()
	cloud, _ := env.cloudObjects(t, "")
	for _, p := range differences("instance", cloud, state) {
		t.Error(p)
	}
	if len(state) != 3 {
		t.Errorf("the state names %d instances, want the primary and two read-only instances", len(state))
	}
	if plan, empty := tf.planIsEmpty(); !empty {
		t.Errorf("the plan after the re-run is not empty:\n%s", tail(plan, 3000))
	}
}
