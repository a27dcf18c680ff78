package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Issue 23, section 2 at the plugin protocol: behaviour where deferral, read-only instances,
// parameters and the flag meet, with the steps and checks of the terraform tests they replace.
// The program family keeps TestAccImportInstanceWithScheduledChange (plan_program_test.go) with
// terraform: import blocks and generated configuration need a terraform process.

// deferLines are the attributes that defer an instance's restarts to the test window.
func deferLines(attrs map[string]any) map[string]any {
	attrs["maintenance_window"] = realClockWindow
	attrs["apply_restarts"] = "in_maintenance_window"
	attrs["timeouts"] = map[string]any{"update": "30s"}
	return attrs
}

// deferredPairResources is a primary and one read-only instance (reporting-0 of roClass) that
// both defer their restarts to the same maintenance window.
func deferredPairResources(primaryOn bool, roClass string) []oracleResource {
	primary := deferLines(map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 100, "instance_name": "orders", "atomic_write_16k": primaryOn})
	ro := deferLines(map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": roClass,
		"storage": 100, "instance_name": "reporting-0"})
	return []oracleResource{{addr: "rds_instance.primary", attrs: primary}, {addr: testRO, attrs: ro}}
}

// deferredInstance is the test instance deferring its restarts, with extra attributes.
func deferredInstance(class string, storage int, extra map[string]any) []oracleResource {
	attrs := deferLines(map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": class,
		"storage": storage, "instance_name": "acctest"})
	maps.Copy(attrs, extra)
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// cloudInstanceIs checks the class and flag in the cloud of the instance at addr, and that it is
// Running.
func cloudInstanceIs(env *testEnv, w *oracleWorld, t *testing.T, addr, class string, flag bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		id := w.stateAttr(t, addr, "id")
		a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
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

// restartsAre checks how often the instance at addr restarted.
func restartsAre(env *testEnv, w *oracleWorld, t *testing.T, addr string, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		id := w.stateAttr(t, addr, "id")
		if got := env.restarts(id); got != want {
			return fmt.Errorf("%s (%s) restarted %d times, want %d", addr, id, got, want)
		}
		return nil
	}
}

// Item 1: a read-only instance's class change and its primary's 16K toggle wait for the same
// window. The primary's toggle turns the read-only instance on; its class change must keep that
// flag instead of failing on "off while the primary has it on", and no diff comes back.
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestProgram_readOnlyClassSurvivesPrimaryToggleInWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const medium, large = "mysqlro.n2.medium.1c", "mysqlro.n2.large.1c"
	w.applyChecked(t, "create", deferredPairResources(false, medium))
	w.applyChecked(t, "deferred", deferredPairResources(true, large),
		cloudInstanceIs(env, w, t, testRO, medium, false), restartsAre(env, w, t, testRO, 0))
	env.sim.AdvanceClock(26 * time.Hour)
	plan := w.applyChecked(t, "window", deferredPairResources(true, large), cloudInstanceIs(env, w, t, testRO, large, true),
		cloudInstanceIs(env, w, t, "rds_instance.primary", "mysql.n2.medium.2c", true))
	expectEmptyPlan(t, "window", plan)
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}

// Item 2: while a deferred toggle waits for its window, innodb_doublewrite (which follows the
// flag) shows the requested value, as the spec does: plans stay empty and nothing is sent again.
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestProgram_deferredToggleWithDoublewriteIsStable(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const class = "mysql.n2.medium.2c"
	doublewrite := func(flag bool, value string) []oracleResource {
		return deferredInstance(class, 20, map[string]any{"atomic_write_16k": flag, "parameters": map[string]string{"innodb_doublewrite": value}})
	}
	w.applyChecked(t, "create", doublewrite(false, "ON"))
	var orders int
	w.applyChecked(t, "deferred toggle", doublewrite(true, "OFF"), func(*terraform.State) error {
		orders = env.requests("ModifyDBInstanceSpec")
		return nil
	})
	plan := w.applyChecked(t, "pending", doublewrite(true, "OFF"), func(*terraform.State) error {
		if got := env.requests("ModifyDBInstanceSpec"); got != orders || orders == 0 {
			return fmt.Errorf("ModifyDBInstanceSpec sent %d times after the deferring apply's %d, want none more", got-orders, orders)
		}
		return nil
	})
	expectEmptyPlan(t, "pending", plan)
	env.sim.AdvanceClock(26 * time.Hour)
	plan = w.applyChecked(t, "window", doublewrite(true, "OFF"), cloudInstanceIs(env, w, t, testRes, class, true))
	expectEmptyPlan(t, "window", plan)
	destroyThenCheck(t, w, env.checkDestroyed())
}

// Item 5: storage growth sent with a deferred class change is applied now, online, as the docs
// say: only the class change waits for the window.
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestProgram_growthWithDeferredChangeAppliesNow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const small, large = "mysql.n2.medium.2c", "mysql.n2.large.2c"
	storageIs := func(want int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := env.api.DescribeDBInstanceAttribute(context.Background(), w.stateAttr(t, testRes, "id"))
			if err != nil {
				return err
			}
			if int(a.DBInstanceStorage) != want {
				return fmt.Errorf("storage in the cloud is %d GB, want %d", int(a.DBInstanceStorage), want)
			}
			return nil
		}
	}
	taskSet := func(*terraform.State) error {
		if v := attrOf(attrOf(w.state[testRes], "scheduled_change"), "task_id"); v.IsNull() || !v.IsKnown() {
			return fmt.Errorf("scheduled_change.task_id is %v, want it set", v)
		}
		return nil
	}
	w.applyChecked(t, "create", deferredInstance(small, 20, nil))
	w.applyChecked(t, "growth and class", deferredInstance(large, 40, nil), storageIs(40), cloudInstanceIs(env, w, t, testRes, small, true),
		restartsAre(env, w, t, testRes, 0), taskSet)
	env.sim.AdvanceClock(26 * time.Hour)
	plan := w.applyChecked(t, "window", deferredInstance(large, 40, nil), storageIs(40), cloudInstanceIs(env, w, t, testRes, large, true),
		restartsAre(env, w, t, testRes, 1))
	expectEmptyPlan(t, "window", plan)
	destroyThenCheck(t, w, env.checkDestroyed())
}

// Item 6: switching apply_restarts to "immediately" alone, while a parameter waits for the
// window, applies it now, as for a spec change that waits: the plan announces one restart (in its
// program and a warning), the apply restarts the instance once, and nothing waits for the window
// any more (the window's task finds nothing to do).
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestProgram_immediatelyAloneAppliesAWaitingParameter(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	waiting := func(applyRestarts, backLog string) []oracleResource {
		return deferredInstance("mysql.n2.medium.2c", 20, map[string]any{"apply_restarts": applyRestarts,
			"parameters": map[string]string{"back_log": backLog}})
	}
	pending := func(want map[string]string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := w.stringMapAttr(t, testRes, "parameters_pending"); !maps.Equal(got, want) {
				return fmt.Errorf("parameters_pending %v, want %v", got, want)
			}
			return nil
		}
	}
	w.applyChecked(t, "create", waiting("in_maintenance_window", "3000"))
	id = w.stateAttr(t, testRes, "id")
	w.applyChecked(t, "deferred", waiting("in_maintenance_window", "4000"), pending(map[string]string{"back_log": "4000"}),
		restartsAre(env, w, t, testRes, 0))
	noTask := func(*terraform.State) error {
		if v := attrOf(attrOf(w.state[testRes], "scheduled_change"), "task_id"); !v.IsNull() {
			return fmt.Errorf("scheduled_change.task_id is %v, want none", v)
		}
		return nil
	}
	plan := w.applyChecked(t, "immediately", waiting("immediately", "4000"), pending(map[string]string{}), noTask,
		restartsAre(env, w, t, testRes, 1), env.checkParamsInCloud(&id, "4000", ""))
	p := plan.res[testRes]
	if p.action != actUpdate {
		t.Errorf("immediately: planned %s, want update", p.action)
	}
	if got := plannedStrings(t, attrOf(p.planned, "parameters_pending")); len(got) != 0 {
		t.Errorf("immediately: planned parameters_pending %v, want {}", got)
	}
	// The restart during this apply, and none in the window: the task scheduled before this plan
	// waits for parameters alone, which that restart applies (the window step restarts nothing).
	if now, _, later := plannedRestarts(plan, waiting("immediately", "4000")); now[id] != 1 || later[id] != 0 {
		t.Errorf("immediately: the program restarts %s %d times during the apply and %d in the window, want 1 and 0", id, now[id], later[id])
	}
	if warn := warningText(p.diags); !strings.Contains(warn, "back_log") || !strings.Contains(warn, "restart") {
		t.Errorf("immediately: warnings %q, want the restart for back_log announced", warn)
	}
	env.sim.AdvanceClock(26 * time.Hour)
	plan = w.applyChecked(t, "window", waiting("immediately", "4000"), restartsAre(env, w, t, testRes, 1), env.checkParamsInCloud(&id, "4000", ""))
	expectEmptyPlan(t, "window", plan)
	destroyThenCheck(t, w, env.checkDestroyed())
}

// Issue 23 item 3: a parameter waiting for a restart, set outside Terraform, does not turn an
// in-place change (name, storage growth) into an unannounced restart, never blocks turning
// prevent_restart on, and the plan names the waiting value (TestModifyPlanNamesWaitingParameter
// has the plan's words).
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestInstanceWaitingParameterInPlaceChanges(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	config := func(name string, storage int, extra map[string]any) []oracleResource {
		attrs := map[string]any{"instance_name": name, "storage": storage}
		maps.Copy(attrs, extra)
		return paramsResources(map[string]string{"innodb_io_capacity": "4000"}, attrs)
	}
	w.applyChecked(t, "create", config("acctest", 20, nil))
	id = w.stateAttr(t, testRes, "id")
	env.outside(t, &id, "back_log", "5000")()
	plan := w.applyChecked(t, "rename and grow", config("renamed", 25, nil), env.paramCounts(&id, 0, 2, 1))
	p := plan.res[testRes]
	if now, possible, later := plannedRestarts(plan, config("renamed", 25, nil)); now[id]+possible[id]+later[id] != 0 {
		t.Errorf("rename and grow: the program restarts %s (now %d, possibly %d, in the window %d), want no restart", id, now[id], possible[id], later[id])
	}
	if warn := warningText(p.diags); !strings.Contains(warn, "back_log") {
		t.Errorf("rename and grow: warnings %q, want the waiting back_log named", warn)
	}
	w.applyChecked(t, "prevent_restart", config("renamed", 25, map[string]any{"prevent_restart": true}), env.paramCounts(&id, 0, 2, 1))
	destroyThenCheck(t, w, env.checkDestroyed())
}

// guardedPairResources is a primary deferring its restarts to a closed window (16K on or off) and
// one read-only instance with prevent_restart = true.
func guardedPairResources(primaryOn bool) []oracleResource {
	primary := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 100,
		"instance_name": "orders", "atomic_write_16k": primaryOn, "apply_restarts": "in_maintenance_window", "maintenance_window": realClockWindow}
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": "mysqlro.n2.medium.1c",
		"storage": 100, "instance_name": "reporting-0", "prevent_restart": true}
	return []oracleResource{{addr: "rds_instance.primary", attrs: primary}, {addr: testRO, attrs: ro}}
}

// Issue 23 item 10, in one run: a read-only instance with prevent_restart = true refuses the
// toggle its primary's plan defers to the window, before anything is sent.
// At the plugin protocol; the family keeps TestAccImportInstanceWithScheduledChange with terraform.
func TestReadonlyPreventRestartRefusesPrimaryDeferredToggle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "create", guardedPairResources(false))
	env.sim.ResetStats()
	expectErrorText(t, "toggle", w.planErrorOf(t, guardedPairResources(true)),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*follows its primary.*turning\s+atomic_write_16k\s+on in the primary's maintenance window`))
	w.applyChecked(t, "unchanged", guardedPairResources(false), func(*terraform.State) error {
		if n := env.mutations(); n != 0 {
			return fmt.Errorf("%d mutating requests for a plan refused at plan time", n)
		}
		return nil
	})
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}
