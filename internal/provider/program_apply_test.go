package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Issue 23, section 2: behaviour where deferral, read-only instances, parameters and the flag meet.

// deferredPair is a primary and one read-only instance that both defer their restarts to the same
// maintenance window.
func (e *testEnv) deferredPair(primaryOn bool, roClass string) string {
	deferLines := fmt.Sprintf("  maintenance_window = %q\n  apply_restarts     = \"in_maintenance_window\"\n  timeouts           = { update = \"30s\" }\n", testWindow)
	primary := strings.Replace(roAccPrimary(primaryOn), "}\n", deferLines+"}\n", 1)
	ro := strings.Replace(roAccReplicasWith(1, deferLines), `"mysqlro.n2.medium.1c"`, fmt.Sprintf("%q", roClass), 1)
	return e.providerBlock() + primary + ro
}

// checkInstance checks an instance's class and flag in the cloud.
func (e *testEnv) checkInstance(addr, class string, flag bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		a, err := e.api.DescribeDBInstanceAttribute(context.Background(), id)
		if err != nil {
			return err
		}
		on := a.OptimizedWrites != nil && a.OptimizedWrites.Enabled
		if a.DBInstanceClass != class || on != flag || a.DBInstanceStatus != "Running" {
			return fmt.Errorf("%s is %s, atomic write %t, %s; want %s, %t, Running", id, a.DBInstanceClass, on, a.DBInstanceStatus, class, flag)
		}
		return nil
	}
}

// Item 1: a read-only instance's class change and its primary's 16K toggle wait for the same
// window. The primary's toggle turns the read-only instance on; its class change must keep that
// flag instead of failing on "off while the primary has it on", and no diff comes back.
func TestAccProgram_readOnlyClassSurvivesPrimaryToggleInWindow(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	const ro = "rds_readonly_instance.ro.0"
	const medium, large = "mysqlro.n2.medium.1c", "mysqlro.n2.large.1c"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             roAccCheckDestroy(env),
		Steps: []resource.TestStep{
			{Config: env.deferredPair(false, medium)},
			{
				Config: env.deferredPair(true, large),
				Check:  resource.ComposeTestCheckFunc(env.checkInstance(ro, medium, false), roAccWantRestarts(env, 0, ro)),
			},
			{
				PreConfig:        func() { env.sim.AdvanceClock(26 * time.Hour) },
				Config:           env.deferredPair(true, large),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(env.checkInstance(ro, large, true),
					env.checkInstance("rds_instance.primary", "mysql.n2.medium.2c", true)),
			},
		},
	})
}

// doublewriteConfig is an instance that defers its restarts and manages innodb_doublewrite.
func (e *testEnv) doublewriteConfig(flag bool, doublewrite string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 20
  instance_name      = "acctest"
  maintenance_window = %q
  apply_restarts     = "in_maintenance_window"
  atomic_write_16k   = %t
  parameters         = { innodb_doublewrite = %q }
  timeouts           = { update = "30s" }
}
`, testWindow, flag, doublewrite)
}

// Item 2: while a deferred toggle waits for its window, innodb_doublewrite (which follows the
// flag) shows the requested value, as the spec does: plans stay empty and nothing is sent again.
func TestAccProgram_deferredToggleWithDoublewriteIsStable(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var orders int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.doublewriteConfig(false, "ON")},
			{
				Config: env.doublewriteConfig(true, "OFF"),
				Check: func(*terraform.State) error {
					orders = env.requests("ModifyDBInstanceSpec")
					return nil
				},
			},
			{
				Config:           env.doublewriteConfig(true, "OFF"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if got := env.requests("ModifyDBInstanceSpec"); got != orders || orders == 0 {
						return fmt.Errorf("ModifyDBInstanceSpec sent %d times after the deferring apply's %d, want none more", got-orders, orders)
					}
					return nil
				},
			},
			{
				PreConfig:        func() { env.sim.AdvanceClock(26 * time.Hour) },
				Config:           env.doublewriteConfig(true, "OFF"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            env.checkInstance(testRes, "mysql.n2.medium.2c", true),
			},
		},
	})
}

// growthConfig is an instance that defers its restarts, with a class and storage.
func (e *testEnv) growthConfig(class string, storage int) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = %q
  storage            = %d
  instance_name      = "acctest"
  maintenance_window = %q
  apply_restarts     = "in_maintenance_window"
  timeouts           = { update = "30s" }
}
`, class, storage, testWindow)
}

// Item 5: storage growth sent with a deferred class change is applied now, online, as the docs
// say: only the class change waits for the window.
func TestAccProgram_growthWithDeferredChangeAppliesNow(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	const small, large = "mysql.n2.medium.2c", "mysql.n2.large.2c"
	storageIs := func(want int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), s.RootModule().Resources[testRes].Primary.ID)
			if err != nil {
				return err
			}
			if int(a.DBInstanceStorage) != want {
				return fmt.Errorf("storage in the cloud is %d GB, want %d", int(a.DBInstanceStorage), want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.growthConfig(small, 20)},
			{
				Config: env.growthConfig(large, 40),
				Check: resource.ComposeTestCheckFunc(storageIs(40), env.checkInstance(testRes, small, true),
					roAccWantRestarts(env, 0, testRes), resource.TestCheckResourceAttrSet(testRes, "scheduled_change.task_id")),
			},
			{
				PreConfig:        func() { env.sim.AdvanceClock(26 * time.Hour) },
				Config:           env.growthConfig(large, 40),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeTestCheckFunc(storageIs(40), env.checkInstance(testRes, large, true), roAccWantRestarts(env, 1, testRes)),
			},
		},
	})
}

// waitingParamConfig is an instance with back_log (applied by a restart) and apply_restarts.
func (e *testEnv) waitingParamConfig(applyRestarts, backLog string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 20
  instance_name      = "acctest"
  maintenance_window = %q
  apply_restarts     = %q
  parameters         = { back_log = %q }
  timeouts           = { update = "30s" }
}
`, testWindow, applyRestarts, backLog)
}

// Item 6: switching apply_restarts to "immediately" alone, while a parameter waits for the
// window, applies it now, as for a spec change that waits: the plan announces one restart, the
// apply restarts the instance once, and nothing waits for the window any more (the window's task
// finds nothing to do).
func TestAccProgram_immediatelyAloneAppliesAWaitingParameter(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.waitingParamConfig("in_maintenance_window", "3000")},
			{
				Config: env.waitingParamConfig("in_maintenance_window", "4000"),
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(testRes, "parameters_pending.back_log", "4000"),
					roAccWantRestarts(env, 0, testRes), func(s *terraform.State) error {
						id = s.RootModule().Resources[testRes].Primary.ID
						return nil
					}),
			},
			{
				Config: env.waitingParamConfig("immediately", "4000"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("parameters_pending"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				}},
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(testRes, "parameters_pending.%", "0"),
					resource.TestCheckNoResourceAttr(testRes, "scheduled_change.task_id"),
					roAccWantRestarts(env, 1, testRes), env.checkParamsInCloud(&id, "4000", "")),
			},
			{
				PreConfig:        func() { env.sim.AdvanceClock(26 * time.Hour) },
				Config:           env.waitingParamConfig("immediately", "4000"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeTestCheckFunc(roAccWantRestarts(env, 1, testRes), env.checkParamsInCloud(&id, "4000", "")),
			},
		},
	})
}
