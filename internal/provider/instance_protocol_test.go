package provider

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// instanceResources is instanceConfig at the protocol: the test instance of class and storage,
// with extra attributes on top.
func instanceResources(class string, storage int, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": storage,
		"instance_name": "acctest"}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// prevent_restart refuses a plan that needs a restart, naming the change, and sends nothing; the
// same instance then takes class, storage and 16K together in one apply: one ModifyDBInstanceSpec
// and one restart. The steps and checks of two terraform tests on the same instance
// (preventRestartFailsAtPlan, classAndFlagOneRestart), played at the plugin protocol
// (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_preventRestartThenClassAndFlagOneRestart(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const medium, large = "mysql.n2.medium.2c", "mysql.n2.large.2c"
	guarded := func(flag bool) []oracleResource {
		return instanceResources(medium, 20, map[string]any{"atomic_write_16k": flag, "prevent_restart": true})
	}
	step := func(name string, order []oracleResource, checks ...resource.TestCheckFunc) *oraclePlan {
		t.Helper()
		return w.checkedStep(t, name, order, &id, checks...)
	}
	flagIs := func(name string, want bool) {
		t.Helper()
		var on bool
		if err := attrOf(w.state[testRes], "atomic_write_16k").As(&on); err != nil || on != want {
			t.Errorf("%s: state atomic_write_16k %v (%v), want %v", name, on, err, want)
		}
	}
	step("create", guarded(false), env.checkOneCreate())
	flagIs("create", false)
	before := env.mutations()
	refused := regexp.MustCompile(`(?s)prevent_restart refuses this plan.*atomic_write_16k changes from false to true`)
	if msg := w.planErrorOf(t, guarded(true)); !refused.MatchString(msg) {
		t.Errorf("flag under prevent_restart: plan error %q, want %s", msg, refused)
	}
	step("guarded again", guarded(false), env.checkCounts(&id, 0, 0))
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
	// Class, storage and flag in one apply: one ModifyDBInstanceSpec, one restart.
	plan := step("class storage flag", instanceResources(large, 40, map[string]any{"atomic_write_16k": true}),
		env.checkCounts(&id, 1, 1))
	if a := plan.res[testRes].action; a != actUpdate {
		t.Errorf("class storage flag: planned %s, want update", a)
	}
	flagIs("class storage flag", true)
	var size big.Float
	if err := attrOf(w.state[testRes], "storage").As(&size); err != nil {
		t.Fatal(err)
	}
	if got, _ := size.Int64(); got != 40 || w.stateAttr(t, testRes, "instance_type") != large {
		t.Errorf("class storage flag: state %s, %d GB; want %s, 40 GB", w.stateAttr(t, testRes, "instance_type"), got, large)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// 16K turned off behind Terraform's back shows as an update that turns it on again; the apply
// undoes it with one restart (two in all, one of them outside Terraform). The steps and checks of a
// terraform test, played at the plugin protocol (TestAccInstance_disappears keeps the family's
// terraform drift test).
func TestInstance_driftShowsAsDiff(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	order := instanceResources("mysql.n2.medium.2c", 20, map[string]any{"atomic_write_16k": true})
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("create: plan: %v %s", err, plan.errMsg)
	}
	if res, err := w.applyWalk(order, plan); err != nil || res.errAt != "" || len(res.inconsistent) > 0 {
		t.Fatalf("create: apply: %v %s %v", err, res.errMsg, res.inconsistent)
	}
	id = w.stateAttr(t, testRes, "id")
	w.turnOffOutside(t, env, id)
	drift, err := w.planWalk(order)
	if err != nil || drift.errAt != "" {
		t.Fatalf("drift: plan: %v %s", err, drift.errMsg)
	}
	var planned bool
	p := drift.res[testRes]
	if err := attrOf(p.planned, "atomic_write_16k").As(&planned); err != nil || p.action != actUpdate || !planned {
		t.Errorf("drift: planned %s with atomic_write_16k %v (%v), want an update to true", p.action, planned, err)
	}
	if _, err := w.applyStep(order, func() {
		var on bool
		if err := attrOf(w.state[testRes], "atomic_write_16k").As(&on); err != nil || !on {
			t.Errorf("undo: state atomic_write_16k %v (%v), want true", on, err)
		}
		if err := env.checkCounts(&id, 2, 2)(nil); err != nil {
			t.Errorf("undo: %v", err)
		}
	}); err != nil {
		t.Fatalf("undo: %v", err)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// turnOffOutside turns 16K off behind Terraform's back (with the class and storage
// driftShowsAsDiff created: the API needs one of them), and moves the
// world's clock until the cloud's restart is over (at most ten minutes of it).
func (w *oracleWorld) turnOffOutside(t *testing.T, env *testEnv, id string) {
	t.Helper()
	ctx := context.Background()
	req := &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20,
		OptimizedWrites: optimizedWrites(false)}
	if _, err := env.api.ModifyDBInstanceSpec(ctx, req); err != nil {
		t.Fatal(err)
	}
	for range 600 {
		a, err := env.api.DescribeDBInstanceAttribute(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if a.DBInstanceStatus == "Running" && a.OptimizedWrites != nil && !a.OptimizedWrites.Enabled {
			return
		}
		<-w.clock.After(time.Second)
	}
	t.Fatalf("%s still restarting after ten minutes of the world's clock", id)
}

// Name, security_ips and deletion_protection change in place with no restart; deletion protection
// refuses the destroy at plan. The steps and checks of a terraform test, played at the plugin
// protocol (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_nameIPsProtectionWithoutRestart(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const class = "mysql.n2.medium.2c"
	w.checkedStep(t, "create", instanceResources(class, 20, nil), &id)
	plan := w.checkedStep(t, "renamed", instanceResources(class, 20, map[string]any{"instance_name": "renamed",
		"security_ips": []string{"10.0.0.0/24", "192.168.1.10"}, "deletion_protection": true}), &id,
		w.stateIs(testRes, "instance_name", "renamed"), w.stateIs(testRes, "deletion_protection", true),
		func(*terraform.State) error {
			expectStrings(t, "renamed: state security_ips", attrOf(w.state[testRes], "security_ips"), "10.0.0.0/24", "192.168.1.10")
			return nil
		}, env.checkCounts(&id, 0, 0))
	expectAction(t, "renamed", plan, testRes, actUpdate)
	expectPlanned(t, "renamed", plan, testRes, "atomic_write_16k", true)
	// Destroy is refused at plan time while deletion protection is on.
	expectErrorText(t, "destroy", w.planErrorOf(t, nil), regexp.MustCompile(`(?s)deletion_protection = true.*Set deletion_protection = false`))
	w.checkedStep(t, "unprotected", instanceResources(class, 20, map[string]any{"deletion_protection": false}), &id,
		env.checkCounts(&id, 0, 0))
	w.destroyStep(t, env)
}

// A class change is an update (one ModifyDBInstanceSpec, one restart); an engine_version downgrade
// replaces the instance. The steps and checks of a terraform test, played at the plugin protocol
// (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_updateVersusReplace(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", instanceResources("mysql.n2.medium.2c", 20, nil), &id)
	first := id
	plan := w.checkedStep(t, "class", instanceResources("mysql.x2.large.2c", 20, nil), &id, env.checkCounts(&id, 1, 1))
	expectAction(t, "class", plan, testRes, actUpdate)
	expectPlanned(t, "class", plan, testRes, "atomic_write_16k", true)
	plan = w.checkedStep(t, "5.7", instanceResources("mysql.x2.large.2c", 20, map[string]any{"engine_version": "5.7"}), &id,
		w.stateIs(testRes, "engine_version", "5.7"))
	expectAction(t, "5.7", plan, testRes, actReplace)
	expectPlanned(t, "5.7", plan, testRes, "atomic_write_16k", true)
	if id == first {
		t.Errorf("engine_version change kept instance %s; want a new one", id)
	}
	w.destroyStep(t, env)
}

// Invalid configurations are refused at plan, each naming the attribute and the value, and nothing
// is sent. The steps and checks of a terraform test, played at the plugin protocol
// (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_invalidConfigsSendNothing(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	mysql := func(extra map[string]any) map[string]any {
		attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20}
		for k, v := range extra {
			attrs[k] = v
		}
		return attrs
	}
	cases := []struct {
		attrs map[string]any
		err   string
	}{
		{map[string]any{"engine": "PostgreSQL", "engine_version": "16.0", "instance_type": "pg.n2.medium.2c", "storage": 20,
			"atomic_write_16k": true}, `(?s)16K atomic write needs engine MySQL; got\s+"PostgreSQL"`},
		{mysql(map[string]any{"engine_version": "5.6", "atomic_write_16k": true}), `(?s)needs engine_version 5.7 or 8.0; got\s+"5.6"`},
		{mysql(map[string]any{"storage_type": "local_ssd", "atomic_write_16k": true}), `(?s)needs storage_type.*got\s+"local_ssd"`},
		{mysql(map[string]any{"buffer_pool_extension": true}), `(?s)buffer_pool_extension needs storage_type\s+general_essd`},
		{mysql(map[string]any{"storage": 23}), `(?s)storage must be a multiple of 5 GB`},
		{mysql(map[string]any{"instance_type": "mysql.n2.mediun.2c"}), `(?s)Instance type not offered.*Close matches:\s+mysql.n2.medium.2c`},
		{mysql(map[string]any{"instance_name": "https://db"}), `(?s)must not start with http://`},
		{mysql(map[string]any{"security_ips": []string{"10.0.0.300"}}), `(?s)not an IPv4 address or CIDR block`},
	}
	for i, c := range cases {
		order := []oracleResource{{addr: testRes, attrs: c.attrs}}
		expectErrorText(t, fmt.Sprintf("case %d", i), w.planErrorOf(t, order), regexp.MustCompile(c.err))
	}
	if n := env.mutations(); n != 0 {
		t.Errorf("invalid configurations sent %d mutating requests; want 0 (%v)", n, env.sim.Stats().Requests)
	}
}

// restoreResources is an rds_instance of class cloned as restore (restore_from) says,
// with extra attributes.
func restoreResources(class string, extra, restore map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": 20, "restore_from": restore}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// A clone from a backup with the flag unset is one CloneDBInstance and no toggle: the plan and the
// state have 16K on, as the clone has it. The step and checks of a terraform test, played at the
// plugin protocol (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_restoreFromInherits(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	var id string
	plan := w.checkedStep(t, "clone", restoreResources("mysql.n2m.medium.2c", map[string]any{"instance_name": "clone"},
		map[string]any{"source_instance_id": src, "backup_id": "b-acctest"}), &id,
		w.stateIs(testRes, "atomic_write_16k", true), w.stateIs(testRes, "instance_name", "clone"), func(*terraform.State) error {
			if env.requests("CloneDBInstance") != 1 || env.requests("CreateDBInstance") != 0 || env.requests("ModifyDBInstanceSpec") != 0 {
				return fmt.Errorf("want one clone and no toggle, got %v", env.sim.Stats().Requests)
			}
			return nil
		})
	expectAction(t, "clone", plan, testRes, actCreate)
	expectPlanned(t, "clone", plan, testRes, "atomic_write_16k", true)
	w.destroyStep(t, env, src)
}

// A clone inherits its source's flag; a different configured value is one toggle (one restart)
// right after the clone, as the plan announced. The step and checks of a terraform test, played
// at the plugin protocol (TestAccInstance_createToggleNoopImport keeps the family's terraform test).
func TestInstance_restoreFromWithDifferentFlagTogglesOnce(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	var id string
	plan := w.checkedStep(t, "clone", restoreResources("mysql.n2.medium.2c", map[string]any{"atomic_write_16k": false},
		map[string]any{"source_instance_id": src, "restore_time": "2025-09-01T00:00:00Z"}), &id,
		w.stateIs(testRes, "atomic_write_16k", false), env.checkCounts(&id, 1, 1), func(*terraform.State) error {
			if env.requests("CloneDBInstance") != 1 || env.restarts(src) != 0 {
				return fmt.Errorf("want one clone and the source untouched, got %v", env.sim.Stats())
			}
			return nil
		})
	expectAction(t, "clone", plan, testRes, actCreate)
	expectPlanned(t, "clone", plan, testRes, "atomic_write_16k", false)
	w.destroyStep(t, env, src)
}
