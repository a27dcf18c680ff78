package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Issue 39 §1: the apply runs the plan, never the configuration. Under
// lifecycle { ignore_changes = [...] } Terraform plans with the ignored attributes at their prior
// values, and ApplyResourceChange still carries the configuration as written (oracleWorld.ignore
// plays it): whatever the apply sends must come from the plan.

// applyCounts are the requests and restarts an apply step made on one instance.
type applyCounts struct{ restarts, specs, params, zones, renames int }

func (e *testEnv) applyCountsOf(id string) applyCounts {
	return applyCounts{restarts: e.restarts(id), specs: e.requests("ModifyDBInstanceSpec"), params: e.requests("ModifyParameter"),
		zones: e.requests("MigrateToOtherZone"), renames: e.requests("ModifyDBInstanceDescription")}
}

// 16K and a parameter changed outside Terraform, both under ignore_changes, then a rename: the
// apply renames the instance and sends nothing else (no flag, no parameter, no restart).
func TestApplyIgnoredFlagAndParametersStayAsTheCloudHasThem(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const class = "mysql.n2.medium.2c"
	config := func(name string) []oracleResource {
		return instanceResources(class, 20, map[string]any{"atomic_write_16k": true, "instance_name": name,
			"parameters": map[string]string{"innodb_io_capacity": "4000"}})
	}
	w.checkedStep(t, "create", config("acctest"), &id)
	w.turnOffOutside(t, env, id)
	env.outside(t, &id, "innodb_io_capacity", "7000")()
	w.ignore = map[string][]string{testRes: {"atomic_write_16k", "parameters"}}
	before := env.applyCountsOf(id)
	plan := w.checkedStep(t, "rename", config("renamed"), &id, w.stateIs(testRes, "instance_name", "renamed"),
		w.stateIs(testRes, "atomic_write_16k", false))
	expectAction(t, "rename", plan, testRes, actUpdate)
	expectPlanned(t, "rename", plan, testRes, "atomic_write_16k", false)
	after := env.applyCountsOf(id)
	want := before
	want.renames++
	if after != want {
		t.Errorf("rename: requests and restarts %+v, want %+v (the rename only)", after, want)
	}
	a, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if a.OptimizedWrites == nil || a.OptimizedWrites.Enabled || env.running(t, id, "innodb_io_capacity") != "7000" {
		t.Errorf("rename: the cloud has 16K %+v and innodb_io_capacity %s, want off and 7000 (as changed outside)",
			a.OptimizedWrites, env.running(t, id, "innodb_io_capacity"))
	}
}

// The standby moved outside Terraform under ignore_changes = [zone_id_slave_a], then a zone_id
// change: the move takes the standby to the zone the plan names (where it is), not to the
// configured one.
func TestApplyZoneMoveKeepsTheIgnoredStandbyZone(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	inI := map[string]any{"zone_id": "cn-hangzhou-i", "zone_id_slave_a": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
	toJ := map[string]any{"zone_id": "cn-hangzhou-j", "zone_id_slave_a": "cn-hangzhou-i", "vswitch_id": "vsw-zones-j"}
	w.checkedStep(t, "create", zoneResources(inI, nil), &id)
	ctx := context.Background()
	if _, err := env.api.MigrateToOtherZone(ctx, &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: id, ZoneID: "cn-hangzhou-i",
		ZoneIDSlave1: "cn-hangzhou-k", VPCID: "vpc-zones", VSwitchID: "vsw-zones-i"}); err != nil {
		t.Fatal(err)
	}
	if a, err := w.waitRunning(ctx, env.api, id); err != nil || a.DBInstanceStatus != "Running" || a.SlaveZones.Zones()[0] != "cn-hangzhou-k" {
		t.Fatalf("the standby's move outside Terraform: %+v %v", a, err)
	}
	w.ignore = map[string][]string{testRes: {"zone_id_slave_a"}}
	plan := w.checkedStep(t, "move", zoneResources(toJ, nil), &id, w.stateIs(testRes, "zone_id", "cn-hangzhou-j"),
		w.stateIs(testRes, "zone_id_slave_a", "cn-hangzhou-k"))
	expectPlanned(t, "move", plan, testRes, "zone_id_slave_a", "cn-hangzhou-k")
	a, err := env.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if slaves := a.SlaveZones.Zones(); a.ZoneID != "cn-hangzhou-j" || len(slaves) == 0 || slaves[0] != "cn-hangzhou-k" {
		t.Errorf("move: the cloud has zones %s and %v, want cn-hangzhou-j and cn-hangzhou-k (the plan's)", a.ZoneID, slaves)
	}
}

// The instance moved to another zone outside Terraform under ignore_changes = [zone_id], and the
// vSwitch it took there is changed back in the configuration: the plan changes the vSwitch in the
// zone the instance is in, and so does the apply (it does not move the instance back).
func TestApplyVSwitchChangeKeepsTheIgnoredZone(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	inI := map[string]any{"zone_id": "cn-hangzhou-i", "vswitch_id": "vsw-zones-i"}
	w.checkedStep(t, "create", zoneResources(inI, nil), &id)
	ctx := context.Background()
	if _, err := env.api.MigrateToOtherZone(ctx, &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: id, ZoneID: "cn-hangzhou-j",
		ZoneIDSlave1: "cn-hangzhou-j", VPCID: "vpc-zones", VSwitchID: "vsw-zones-j"}); err != nil {
		t.Fatal(err)
	}
	if a, err := w.waitRunning(ctx, env.api, id); err != nil || a.DBInstanceStatus != "Running" || a.ZoneID != "cn-hangzhou-j" {
		t.Fatalf("the move outside Terraform: %+v %v", a, err)
	}
	w.ignore = map[string][]string{testRes: {"zone_id"}}
	plan := w.checkedStep(t, "vswitch", zoneResources(inI, nil), &id, w.stateIs(testRes, "zone_id", "cn-hangzhou-j"))
	expectPlanned(t, "vswitch", plan, testRes, "zone_id", "cn-hangzhou-j")
	if a, err := env.api.DescribeDBInstanceAttribute(ctx, id); err != nil || a.ZoneID != "cn-hangzhou-j" {
		t.Errorf("vswitch: the cloud has the instance in %+v (%v), want cn-hangzhou-j (the plan's)", a.ZoneID, err)
	}
}

// Autoscaling grows the disk 100 -> 115 GB while a class change waits for the window: the window
// changes the class and keeps the disk the cloud grew (no plan named a shrink). A later apply
// (a rename) while the change waits re-sends nothing that shrinks it either.
func TestApplyWindowOrderKeepsTheDiskAutoscalingGrew(t *testing.T) {
	t.Parallel()
	for _, later := range []bool{false, true} {
		env, w := envWorld(t, testSimOptions())
		var id string
		config := func(class, name string) []oracleResource {
			attrs := autoScaleAttrs(100, 500)
			attrs["instance_type"], attrs["instance_name"] = class, name
			attrs["maintenance_window"], attrs["apply_restarts"] = realClockWindow, "in_maintenance_window"
			return []oracleResource{{addr: testRes, attrs: attrs}}
		}
		w.checkedStep(t, "create", config("mysql.n2.medium.2c", "grown"), &id)
		w.deferredStep(t, "class", config("mysql.n2.large.2c", "grown"), realClockWindow, &id)
		growDisk(t, w, testRes, 75)
		if later {
			w.deferredStep(t, "rename", config("mysql.n2.large.2c", "renamed"), realClockWindow, &id)
		}
		env.advance()()
		a, err := w.waitRunning(context.Background(), env.api, id)
		if err != nil {
			t.Fatal(err)
		}
		if a.DBInstanceClass != "mysql.n2.large.2c" || a.DBInstanceStorage != 115 {
			t.Errorf("later apply %v: after the window the cloud has %s with %d GB, want mysql.n2.large.2c with 115 GB",
				later, a.DBInstanceClass, a.DBInstanceStorage)
		}
	}
}

// writes are the requests the simulator received that may change something, by action.
func (e *testEnv) writes() map[string]int {
	out := map[string]int{}
	for action, n := range e.sim.Stats().Requests {
		if !strings.HasPrefix(action, "Describe") && !strings.HasPrefix(action, "List") {
			out[action] = n
		}
	}
	return out
}

// The guard of issue 39 §1: whatever an update's configuration says beyond its plan, the apply
// sends the plan. Every attribute below is under ignore_changes with a value that makes the apply
// send a request (or restart) if any update path of either instance resource read the
// configuration; the plan renames both instances, so the apply sends two renames and nothing else.
func TestApplySendsThePlanWhateverTheConfigurationSays(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const primary = "rds_instance.primary"
	params := map[string]string{"innodb_io_capacity": "9000", "innodb_read_io_threads": "16"}
	hostilePrimary := map[string]any{"instance_type": "mysql.n2.large.2c", "storage": 150, "atomic_write_16k": false,
		"parameters": params, "security_ips": []string{"10.9.0.0/16"}, "deletion_protection": true, "maintenance_window": "02:00Z-03:00Z",
		"tags": map[string]string{"team": "guard"}, "ssl_enabled": true, "storage_auto_scale": map[string]any{"threshold": 30, "upper_bound": 500}}
	hostileRO := map[string]any{"instance_type": "mysqlro.n2.large.1c", "storage": 150, "atomic_write_16k": false, "parameters": params,
		"deletion_protection": true, "maintenance_window": "02:00Z-03:00Z", "tags": map[string]string{"team": "guard"}}
	order := func(suffix string, hostile bool) []oracleResource {
		p := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 100,
			"instance_name": "guard" + suffix}
		ro := map[string]any{"master_instance_id": oracleRef{primary, "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 100,
			"instance_name": "guard-ro" + suffix}
		if hostile {
			maps.Copy(p, hostilePrimary)
			maps.Copy(ro, hostileRO)
		}
		return []oracleResource{{addr: primary, attrs: p}, {addr: testRO, attrs: ro}}
	}
	if _, err := w.applyStep(order("", false)); err != nil {
		t.Fatalf("create: %v", err)
	}
	w.ignore = map[string][]string{primary: slices.Collect(maps.Keys(hostilePrimary)), testRO: slices.Collect(maps.Keys(hostileRO))}
	before, restarts := env.writes(), maps.Clone(env.sim.Stats().Restarts)
	plan, err := w.applyStep(order("-renamed", true))
	if err != nil {
		t.Fatalf("rename: %v", err)
	}
	expectAction(t, "rename", plan, primary, actUpdate)
	expectAction(t, "rename", plan, testRO, actUpdate)
	want := maps.Clone(before)
	want["ModifyDBInstanceDescription"] += 2
	if got := env.writes(); !maps.Equal(got, want) {
		t.Errorf("rename: the apply sent %v, want only the two renames (before: %v)", got, before)
	}
	if got := env.sim.Stats().Restarts; !maps.Equal(got, restarts) {
		t.Errorf("rename: restarts %v, want none (before: %v)", got, restarts)
	}
	for _, addr := range []string{primary, testRO} {
		if strings.Contains(string(w.priv[addr]), plannedUnsetKey) {
			t.Errorf("rename: the state of %s keeps the plan's record %s: it belongs to one plan", addr, plannedUnsetKey)
		}
	}
}

// A class change waiting for the window is reverted, and autoscaling grows the disk between the
// plan and the apply: the cancel names no storage, so the grown disk is no reason to refuse it,
// and the window changes nothing.
func TestApplyCancelKeepsTheDiskAutoscalingGrew(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	config := func(class string) []oracleResource {
		attrs := autoScaleAttrs(100, 500)
		attrs["instance_type"], attrs["instance_name"] = class, "revert"
		attrs["maintenance_window"], attrs["apply_restarts"] = realClockWindow, "in_maintenance_window"
		return []oracleResource{{addr: testRes, attrs: attrs}}
	}
	w.checkedStep(t, "create", config("mysql.n2.medium.2c"), &id)
	w.deferredStep(t, "class", config("mysql.n2.large.2c"), realClockWindow, &id)
	revert := config("mysql.n2.medium.2c")
	plan, err := w.planWalk(revert)
	if err != nil || plan.errAt != "" {
		t.Fatalf("revert: plan: %v %s", err, plan.errMsg)
	}
	growDisk(t, w, testRes, 75)
	if res, err := w.applyWalk(revert, plan); err != nil || res.errAt != "" {
		t.Fatalf("revert: apply: %v %+v", err, res)
	}
	restarts := env.restarts(id)
	env.advance()()
	a, err := w.waitRunning(context.Background(), env.api, id)
	if err != nil {
		t.Fatal(err)
	}
	if a.DBInstanceClass != "mysql.n2.medium.2c" || a.DBInstanceStorage != 115 || env.restarts(id) != restarts {
		t.Errorf("after the window the cloud has %s with %d GB and %d more restarts, want mysql.n2.medium.2c with 115 GB and none",
			a.DBInstanceClass, a.DBInstanceStorage, env.restarts(id)-restarts)
	}
}
