package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Plan promises (issue 11, section 2) at the plugin protocol: the same steps and checks as the
// terraform tests they replace, without a terraform process. The family keeps
// TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform (restarts in the CLI's text).

// storagePrimary is the storage test's primary (rds_instance.primary) with storage and its type,
// and a read-only instance of roStorage GB when roStorage > 0.
func storagePrimary(storage int, storageType string, roStorage int) []oracleResource {
	order := []oracleResource{{addr: "rds_instance.primary", attrs: map[string]any{"engine": "MySQL", "engine_version": "8.0",
		"instance_type": "mysql.n2.medium.2c", "storage": storage, "storage_type": storageType, "instance_name": "orders"}}}
	if roStorage == 0 {
		return order
	}
	return append(order, oracleResource{addr: testRO, attrs: map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"},
		"instance_type": "mysqlro.n2.medium.1c", "storage": roStorage}})
}

// destroyThenCheck is the end of a terraform test: destroy, then its CheckDestroy.
func destroyThenCheck(t *testing.T, w *oracleWorld, checkDestroy resource.TestCheckFunc) {
	t.Helper()
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := checkDestroy(nil); err != nil {
		t.Error(err)
	}
}

// §2.5: storage decisions at plan, as Alibaba documents them: growth online, an ESSD reduction of
// MySQL 8.0 with one switchover, cloud disks never moved to local disks, a read-only instance
// never below its primary's storage.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_storageRules(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.applyChecked(t, "create", storagePrimary(100, "cloud_essd", 0))
	id = w.stateAttr(t, "rds_instance.primary", "id")
	// Growing cloud-disk storage of the same type is online: no restart.
	w.applyChecked(t, "grow", storagePrimary(200, "cloud_essd", 0), env.checkCounts(&id, 0, 1))
	// Reducing ESSD storage of MySQL 8.0 is possible (one switchover).
	w.applyChecked(t, "reduce", storagePrimary(150, "cloud_essd", 0), env.checkCounts(&id, 1, 2))
	expectErrorText(t, "local_ssd", w.planErrorOf(t, storagePrimary(150, "local_ssd", 0)),
		regexp.MustCompile(`Cloud-disk storage cannot be changed to local disks`))
	expectErrorText(t, "read-only below", w.planErrorOf(t, storagePrimary(150, "cloud_essd", 100)),
		regexp.MustCompile(`(?s)Read-only instance storage is below its primary's.*Set storage to 150`))
	w.applyChecked(t, "read-only", storagePrimary(150, "cloud_essd", 150), env.wantRequests("CreateReadOnlyDBInstance", 1))
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}

// lifecycleInstance is the test instance on version with extra attributes (the terraform tests'
// instanceWithLifecycle). (A lifecycle block is core's: the provider's plan is the same with or without
// create_before_destroy.)
func lifecycleInstance(version string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": version, "instance_type": "mysql.n2.medium.2c",
		"storage": 20, "instance_name": "acctest"}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// §2.1: replacing a protected instance is refused at plan, naming the attribute that forces the
// replacement (create_before_destroy changes only core's order, not the provider's plan, so the
// terraform test's step with it is the same plan here); nothing is created.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_replacementRefusedWithDeletionProtection(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	refused := regexp.MustCompile(`(?s)has deletion protection and this plan replaces it.*engine_version forces replacement`)
	protected := map[string]any{"deletion_protection": true}
	w.applyChecked(t, "create", lifecycleInstance("8.0", protected))
	expectErrorText(t, "5.7", w.planErrorOf(t, lifecycleInstance("5.7", protected)), refused)
	// Nothing was created by the refused plan; lifting the protection lets destroy run.
	w.applyChecked(t, "unprotected", lifecycleInstance("8.0", map[string]any{"deletion_protection": false}),
		env.wantRequests("CreateDBInstance", 1))
	destroyThenCheck(t, w, env.checkDestroyed())
}

// §2.2: a replacement is never a restart, and prevent_restart refuses it too.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_preventRestartRefusesReplacement(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	guarded := map[string]any{"prevent_restart": true}
	w.applyChecked(t, "create", lifecycleInstance("8.0", guarded))
	expectErrorText(t, "5.7", w.planErrorOf(t, lifecycleInstance("5.7", guarded)),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan: it replaces.*engine_version forces replacement`))
	w.applyChecked(t, "again", lifecycleInstance("8.0", guarded), env.wantRequests("CreateDBInstance", 1))
	destroyThenCheck(t, w, env.checkDestroyed())
}

// §2.8: a zero or negative timeout is a plan error; a rename leaves status known in the plan.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_timeoutsAndStatus(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	expectErrorText(t, "update 0s", w.planErrorOf(t, lifecycleInstance("8.0", map[string]any{"timeouts": map[string]any{"update": "0s"}})),
		regexp.MustCompile(`(?s)Invalid timeout.*timeouts.update = "0s"`))
	expectErrorText(t, "create -5m", w.planErrorOf(t, lifecycleInstance("8.0", map[string]any{"timeouts": map[string]any{"create": "-5m"}})),
		regexp.MustCompile(`(?s)Invalid timeout.*timeouts.create = "-5m"`))
	if n := env.mutations(); n != 0 {
		t.Errorf("%d mutating requests for plans refused at plan", n)
	}
	w.applyChecked(t, "create", lifecycleInstance("8.0", nil))
	plan := w.applyChecked(t, "rename", lifecycleInstance("8.0", map[string]any{"instance_name": "renamed"}))
	p := plan.res[testRes]
	if p.action != actUpdate {
		t.Errorf("rename: planned %s, want update", p.action)
	}
	var status string
	if err := attrOf(p.planned, "status").As(&status); err != nil || status != "Running" {
		t.Errorf("rename: planned status %v (%v), want Running", attrOf(p.planned, "status"), err)
	}
	destroyThenCheck(t, w, env.checkDestroyed())
}

// clonedInstanceResources is restoreConfig at the protocol: the test instance of class on MySQL 8.0
// cloned as restore says, with extra attributes.
func clonedInstanceResources(class string, extra, restore map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": class, "storage": 20, "restore_from": restore}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// knownBoolIs checks a known bool of v (a state or a planned value).
func knownBoolIs(t *testing.T, what string, v tftypes.Value, want bool) {
	t.Helper()
	var got bool
	if err := v.As(&got); err != nil || got != want {
		t.Errorf("%s is %v (%v), want %v", what, v, err, want)
	}
}

// §2.3: a clone's engine_version must be its source's: refused at plan, nothing cloned.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_cloneVersionMustMatchSource(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	clone := clonedInstanceResources("mysql.n2.medium.2c", nil, map[string]any{"source_instance_id": src, "backup_id": "b-1"})
	clone57 := clonedInstanceResources("mysql.n2.medium.2c", map[string]any{"engine_version": "5.7"}, map[string]any{"source_instance_id": src, "backup_id": "b-1"})
	expectErrorText(t, "5.7", w.planErrorOf(t, clone57), regexp.MustCompile(`(?s)A clone cannot differ from its source.*engine_version = "5.7"`))
	w.applyChecked(t, "clone", clone, env.wantRequests("CloneDBInstance", 1))
	destroyThenCheck(t, w, env.checkDestroyed(src))
}

// Issue 19, items 1 and 4: a clone is predicted with its own class (a 2024 YiTian source cloned
// into an x86 class loses 16K atomic write: rule 9 with the source's purchase date), and a
// restore_time outside the source's lifetime is refused at plan.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_clonePredictionAndRestoreWindow(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	expectErrorText(t, "restore_time", w.planErrorOf(t, clonedInstanceResources("mysql.n2m.medium.2c", nil,
		map[string]any{"source_instance_id": src, "restore_time": "2024-01-01T00:00:00Z"})),
		regexp.MustCompile(`(?s)restore_time is outside the source's restorable window.*2024-01-01T00:00:00Z`))
	plan := w.applyChecked(t, "clone", clonedInstanceResources("mysql.n2.medium.2c", nil, map[string]any{"source_instance_id": src, "backup_id": "b-1"}),
		env.wantRequests("CloneDBInstance", 1), stateFlagIs(w, t, testRes, false))
	knownBoolIs(t, "planned atomic_write_16k", attrOf(plan.res[testRes].planned, "atomic_write_16k"), false)
	knownBoolIs(t, "planned atomic_write_16k_supported", attrOf(plan.res[testRes].planned, "atomic_write_16k_supported"), false)
	destroyThenCheck(t, w, env.checkDestroyed(src))
}

// Issue 19, item 3: a clone keeps its source's product line, so moving a clone of a 2024 YiTian
// source to an x86 class loses 16K atomic write, and the plan says so (the clone's own
// creation_time is today).
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_cloneKeepsSourceProductLine(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	restore := map[string]any{"source_instance_id": src, "backup_id": "b-1"}
	w.applyChecked(t, "clone", clonedInstanceResources("mysql.n2m.medium.2c", nil, restore), stateFlagIs(w, t, testRes, true),
		stateStringsAre(w, t, testRes, map[string]string{"purchase_time": "2024-06-01T00:00:00Z"}))
	plan := w.applyChecked(t, "x86", clonedInstanceResources("mysql.n2.medium.2c", nil, restore), stateFlagIs(w, t, testRes, false))
	p := plan.res[testRes]
	if p.action != actUpdate {
		t.Errorf("x86: planned %s, want update", p.action)
	}
	knownBoolIs(t, "planned atomic_write_16k", attrOf(p.planned, "atomic_write_16k"), false)
	knownBoolIs(t, "planned atomic_write_16k_supported", attrOf(p.planned, "atomic_write_16k_supported"), false)
	destroyThenCheck(t, w, env.checkDestroyed(src))
}

// Issue 19, item 1: a general_essd clone with buffer_pool_extension gets it right after the clone
// (CloneDBInstance cannot set it), with the one restart the plan announced.
// At the plugin protocol; the family keeps TestAccReadonlyPlan_primaryAndReadOnlyInOneRun with terraform.
func TestPlan_cloneBufferPoolExtension(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	restore := map[string]any{"source_instance_id": src, "backup_id": "b-1"}
	bpe := map[string]any{"storage_type": "general_essd", "buffer_pool_extension": true}
	guarded := map[string]any{"storage_type": "general_essd", "buffer_pool_extension": true, "prevent_restart": true}
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, clonedInstanceResources("mysql.n2.medium.2c", guarded, restore)),
		regexp.MustCompile(`(?s)prevent_restart refuses this plan.*buffer_pool_extension is turned on right after creation`))
	var id string
	plan := w.applyChecked(t, "clone", clonedInstanceResources("mysql.n2.medium.2c", bpe, restore), stateFlagIs(w, t, testRes, true),
		func(s *terraform.State) error {
			var on bool
			if err := attrOf(w.state[testRes], "buffer_pool_extension").As(&on); err != nil || !on {
				return fmt.Errorf("buffer_pool_extension is %v (%v), want true", on, err)
			}
			id = w.stateAttr(t, testRes, "id")
			return env.checkCounts(&id, 1, 1)(s)
		})
	if now, _, _ := plannedRestarts(plan, clonedInstanceResources("mysql.n2.medium.2c", bpe, restore)); now["new:"+testRes] != 1 {
		t.Errorf("clone: the program restarts the new clone %d times, want 1 (announced)", now["new:"+testRes])
	}
	destroyThenCheck(t, w, env.checkDestroyed(src))
}
