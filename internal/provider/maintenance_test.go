package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// realClockWindow is a one-hour maintenance window that starts five to six hours from now, for a
// simulator on the real clock: a deferred change waits for it whatever the time of day the tests
// run, and advancing the clock by a day and more passes it and its restart. The oracle's cloud
// starts at 10:00Z whatever the hour, so its scenarios use oracleWindow instead.
var realClockWindow = windowStartingAt(time.Now().UTC().Hour() + 6)

// windowStartingAt is the one-hour maintenance window that starts at hour (UTC, taken modulo 24).
func windowStartingAt(hour int) string {
	start := hour % 24
	return fmt.Sprintf("%02d:00Z-%02d:00Z", start, (start+1)%24)
}

// advance moves the simulated cloud's clock past the next window.
func (e *testEnv) advance() func() { return func() { e.sim.AdvanceClock(25 * time.Hour) } }

func (e *testEnv) checkClassInCloud(id *string, class string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		a, err := e.api.DescribeDBInstanceAttribute(context.Background(), *id)
		if err != nil {
			return err
		}
		if a.DBInstanceClass != class || a.DBInstanceStatus != "Running" {
			return fmt.Errorf("cloud has %s %s, want %s Running", a.DBInstanceClass, a.DBInstanceStatus, class)
		}
		return nil
	}
}

func (e *testEnv) missWindow(t *testing.T, id *string) func() {
	return func() {
		if n := e.sim.MissMaintenanceWindow(*id); n != 1 {
			t.Errorf("%d scheduled changes failed, want 1", n)
		}
	}
}

// maintenance_window on a read-only instance: set at creation and changed in place, no restart.
func TestAccMaintenance_readonlyWindow(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	roAddr := "rds_readonly_instance.ro[0]"
	window := func(w string) string {
		return env.providerBlock() + roAccPrimary(true) + roAccReplicasWith(1, "  maintenance_window = \""+w+"\"\n")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []resource.TestStep{
			{
				// Refused before anything is created.
				Config:      window("2am"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Invalid maintenance_window`),
			},
			{
				Config:            window("03:00Z-04:00Z"),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(roAddr, tfjsonpath.New("maintenance_window"), knownvalue.StringExact("03:00Z-04:00Z"))},
			},
			{
				Config: window("22:00Z-02:00Z"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(roAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(roAddr, tfjsonpath.New("maintenance_window"), knownvalue.StringExact("22:00Z-02:00Z"))},
				Check:             roAccWantRestarts(env, 0, "rds_readonly_instance.ro.0"),
			},
		},
	})
}

// checkParamsInCloud checks the running and waiting values of back_log.
func (e *testEnv) checkParamsInCloud(id *string, running, waiting string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		out, err := e.api.DescribeParameters(context.Background(), *id)
		if err != nil {
			return err
		}
		if got := out.RunningParameters.Values()["back_log"]; got != running {
			return fmt.Errorf("back_log runs %q, want %q", got, running)
		}
		if got := out.ConfigParameters.Values()["back_log"]; got != waiting {
			return fmt.Errorf("back_log waits with %q, want %q", got, waiting)
		}
		return nil
	}
}

// countAttributeReads records DescribeDBInstanceAttribute requests from PreConfig to Check: an apply
// that waited for a restart would poll it many times. A deferred step reads it once per plan and
// refresh, and the apply once before its ModifyParameter (the changed-since-plan check,
// rdsservice/executor_recheck.go) and once after.
type attributeReads struct {
	env   *testEnv
	start int
}

func (a *attributeReads) mark() { a.start = a.env.requests("DescribeDBInstanceAttribute") }

func (a *attributeReads) atMost(n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := a.env.requests("DescribeDBInstanceAttribute") - a.start; got > n {
			return fmt.Errorf("%d DescribeDBInstanceAttribute requests in a deferred step (plan, apply's check and read-back, refresh, plan), want at most %d", got, n)
		}
		return nil
	}
}
