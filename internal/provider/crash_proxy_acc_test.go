package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 44 §4, with the real terraform binary: `terraform apply` of a new rds_db_proxy killed with
// SIGKILL (terraform and the provider) after ModifyDBProxy Startup was accepted, while the proxy
// is still Creating. The simulator holds the proxy Creating (a proxy start lasts an hour of the
// simulated clock, which only the test moves) and the provider polls DescribeDBProxy, so the kill
// lands while the apply waits, before Terraform recorded the proxy. The next plan names the
// started proxy (it adopts it, from the create journal), and the next apply converges: no second
// Startup, the proxy configured as written, and a plan after it is empty.
func TestAccCrashProxyStartupAdopted(t *testing.T) {
	if os.Getenv("TF_ACC") == "" || !crashSupported {
		t.Skip("acceptance test: set TF_ACC=1 (Unix only)")
	}
	const startup = time.Hour // of the simulated clock: the proxy stays Creating until the test moves it
	env := newTestEnv(t, simulator.Options{CreateDuration: 300 * time.Millisecond, RestartDuration: startup, DeleteDuration: 200 * time.Millisecond})
	tf := newCrashTerraform(t)
	primary := `
resource "rds_instance" "primary" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "crash-proxy"
}
`
	tf.write(requiredProviders() + env.providerBlock() + primary)
	if out, ok := tf.apply(false); !ok {
		t.Fatalf("setting up the primary failed:\n%s", tail(out, 3000))
	}
	tf.write(requiredProviders() + env.providerBlock() + primary + `
resource "rds_db_proxy" "rw" {
  instance_id       = rds_instance.primary.id
  instance_num      = 2
  max_delay_seconds = 12
}
`)
	// Startup accepted: the provider has its answer once it polls DescribeDBProxy after it.
	describedAtStartup := -1
	accepted := func() bool {
		requests := env.sim.Stats().Requests
		if describedAtStartup < 0 && requests["ModifyDBProxy"] > 0 {
			describedAtStartup = requests["DescribeDBProxy"]
		}
		return describedAtStartup >= 0 && requests["DescribeDBProxy"] > describedAtStartup
	}
	out, fired := tf.killedApply(false, accepted)
	if !fired {
		t.Fatalf("the apply ended before the proxy's Startup was accepted:\n%s", tail(out, 3000))
	}
	tf.restoreTornState()
	id := onlyInstance(t, tf)
	ctx := context.Background()
	if px, err := env.api.DescribeDBProxy(ctx, id); err != nil || !px.Started || px.Status == rdsapi.StatusRunning {
		t.Fatalf("after the kill the proxy of %s reads %+v, %v; want it started and not yet Running", id, px, err)
	}
	if state := tf.stateTypes(); state["rds_db_proxy"] {
		t.Fatal("the killed apply recorded the proxy: the kill came too late to test an unnamed one")
	}
	startups := env.sim.Stats().Requests["ModifyDBProxy"]
	planned, ok := tf.plan()
	if !ok || !strings.Contains(planned, "Adopting the database proxy of "+id) {
		t.Fatalf("the plan after the kill does not name the started proxy of %s:\n%s", id, tail(planned, 4000))
	}
	env.sim.AdvanceClock(startup) // the proxy's start ends
	if out, ok := tf.apply(false); !ok {
		t.Fatalf("the apply after the kill failed:\n%s", tail(out, 4000))
	}
	if n := env.sim.Stats().Requests["ModifyDBProxy"] - startups; n != 0 {
		t.Errorf("the apply after the kill sent ModifyDBProxy %d times, want no second Startup", n)
	}
	if ep, err := env.api.DescribeDBProxyEndpoint(ctx, id, ""); err != nil || ep.MaxDelaySeconds != 12 {
		t.Errorf("the adopted proxy's endpoint reads %+v, %v; want max_delay_seconds 12 as configured", ep, err)
	}
	if plan, empty := tf.planIsEmpty(); !empty {
		t.Errorf("the plan after the re-run is not empty:\n%s", tail(plan, 3000))
	}
}

// onlyInstance is the one instance the state names.
func onlyInstance(t *testing.T, tf *crashTerraform) string {
	t.Helper()
	instances, _ := tf.stateObjects()
	if len(instances) != 1 {
		t.Fatalf("the state names instances %v, want the primary alone", instances)
	}
	for id := range instances {
		return id
	}
	return ""
}

// stateTypes are the resource types terraform.tfstate names (none before its first write).
func (tf *crashTerraform) stateTypes() map[string]bool {
	out := map[string]bool{}
	raw, err := os.ReadFile(filepath.Join(tf.dir, "terraform.tfstate"))
	if err != nil || len(raw) == 0 {
		return out
	}
	var st struct {
		Resources []struct{ Type string }
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		tf.t.Fatalf("terraform.tfstate: %v", err)
	}
	for _, r := range st.Resources {
		out[r.Type] = true
	}
	return out
}
