package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// cloneResources is restoreConfig at the protocol: an rds_instance of class cloned from src's
// backup b-acctest, with extra attributes.
func cloneResources(src string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
		"restore_from": map[string]any{"source_instance_id": src, "backup_id": "b-acctest"}}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// The clone exists but the toggle and the rename after it are refused: the apply succeeds with a
// warning, the clone is kept (not tainted: the apply returned no error), the next plans are an
// update that shows the cloud's real values and say why (made without a refresh, or completing the
// creation), and once the cloud lets it through the update completes the clone, with one
// CloneDBInstance in all. The steps and checks of a terraform test, played at the plugin protocol
// (the family keeps TestClonePartial_neverRunningIsTainted with terraform: its taint is core's).
func TestClonePartial_alignFailsKeepsClone(t *testing.T) {
	t.Parallel()
	env, cloud, w := refusingWorld(t, testSimOptions(), "ModifyDBInstanceSpec", "ModifyDBInstanceDescription")
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	order := cloneResources(src, map[string]any{"atomic_write_16k": false, "instance_name": "clone"})
	oneClone := func(name string) {
		t.Helper()
		if n := env.requests("CloneDBInstance"); n != 1 {
			t.Errorf("%s: %d CloneDBInstance requests, want 1", name, n)
		}
	}
	applied := w.applyRecorded(t, "clone", order)
	id := w.stateAttr(t, testRes, "id")
	first := id
	expectWarningWithAll(t, "clone", applied[testRes], `not configured as planned`, `rm-\w+ is Running`, `not tainted`,
		`Configuring the clone as planned failed`, `Forbidden\.RAM`, `atomic_write_16k`, `instance_name`, `next plan shows the remaining change`)
	if err := env.cloudFlag(&id, true)(nil); err != nil {
		t.Errorf("clone: %v", err)
	}
	oneClone("clone")
	if cloud.count("ModifyDBInstanceSpec") == 0 {
		t.Error("clone: the toggle was never attempted")
	}
	// A plan without a refresh cannot show the change, and says so.
	expectWarningWithAll(t, "plan -refresh=false", w.planNoRefresh(t, order).res[testRes].diags,
		`Plan made without a refresh after an incomplete creation of rm-`, `-refresh=false`, `instance_name, atomic_write_16k`)
	// The refreshed plans (twice) show the remaining change and that they complete the creation.
	for _, name := range []string{"next plan", "second plan"} {
		plan, err := w.planWalk(order)
		if err != nil || plan.errAt != "" {
			t.Fatalf("%s: %v %s", name, err, plan.errMsg)
		}
		expectChangeOf(t, name, plan, testRes, "atomic_write_16k", true, false)
		expectWarningWithAll(t, name, plan.res[testRes].diags, `Completing the creation of rm-`, `Forbidden\.RAM`,
			`completes its configuration: instance_name, atomic_write_16k`)
	}
	cloud.allow()
	plan := w.checkedStep(t, "complete", order, &id, env.cloudFlag(&id, false), env.checkCounts(&id, 1, 1), func(*terraform.State) error {
		if id != first {
			return fmt.Errorf("the instance changed from %s to %s", first, id)
		}
		return nil
	})
	expectChangeOf(t, "complete", plan, testRes, "atomic_write_16k", true, false)
	expectChangeOf(t, "complete", plan, testRes, "instance_name", nil, "clone")
	if n := w.stateAttr(t, testRes, "instance_name"); n != "clone" {
		t.Errorf("complete: instance_name %q, want clone", n)
	}
	var on bool
	if err := attrOf(w.state[testRes], "atomic_write_16k").As(&on); err != nil || on {
		t.Errorf("complete: state atomic_write_16k %v (%v), want false", on, err)
	}
	oneClone("complete")
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed(src)(nil); err != nil {
		t.Error(err)
	}
}

// A plain create whose parameters and maintenance window are refused: the same rule as for a
// clone (usable instance, warning, remaining change in the next plan, one CreateDBInstance). At
// the plugin protocol, as TestClonePartial_alignFailsKeepsClone.
func TestClonePartial_plainCreateStepsFail(t *testing.T) {
	t.Parallel()
	env, cloud, w := refusingWorld(t, testSimOptions(), "ModifyParameter", "ModifyDBInstanceMaintainTime")
	order := statesResources(false, map[string]any{"maintenance_window": "02:00Z-03:00Z",
		"parameters": map[string]string{"innodb_io_capacity": "4000"}}, nil)
	oneCreate := func(name string) {
		t.Helper()
		if err := env.checkOneCreate()(nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	applied := w.applyRecorded(t, "create", order)
	id := w.stateAttr(t, testRes, "id")
	expectWarningWithAll(t, "create", applied[testRes], `Setting the parameters failed`, `maintenance_window`, `parameters`)
	oneCreate("create")
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("next plan: %v %s", err, plan.errMsg)
	}
	expectChangeOf(t, "next plan", plan, testRes, "maintenance_window", "18:00Z-22:00Z", "02:00Z-03:00Z")
	expectChangeOf(t, "next plan", plan, testRes, "parameters", map[string]string{"innodb_io_capacity": "20000"},
		map[string]string{"innodb_io_capacity": "4000"})
	cloud.allow()
	w.checkedStep(t, "complete", order, &id, func(*terraform.State) error {
		if got := env.running(t, id, "innodb_io_capacity"); got != "4000" {
			return fmt.Errorf("innodb_io_capacity runs %q, want 4000", got)
		}
		return nil
	})
	if got := w.stringMapAttr(t, testRes, "parameters")["innodb_io_capacity"]; got != "4000" {
		t.Errorf("complete: parameters.innodb_io_capacity %q, want 4000", got)
	}
	if got := w.stateAttr(t, testRes, "maintenance_window"); got != "02:00Z-03:00Z" {
		t.Errorf("complete: maintenance_window %q, want 02:00Z-03:00Z", got)
	}
	oneCreate("complete")
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// rds_readonly_instance follows the same rule: its parameters refused after it is Running leave it
// untainted, and the next apply sets them on the same instance. At the plugin protocol, as
// TestClonePartial_alignFailsKeepsClone (the count of the terraform test aside: one instance).
func TestClonePartial_readOnlyParametersRefused(t *testing.T) {
	t.Parallel()
	env, cloud, w := refusingWorld(t, testSimOptions(), "ModifyParameter")
	const primary = "rds_instance.primary"
	order := []oracleResource{
		{addr: primary, attrs: map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
			"storage": 100, "instance_name": "orders", "atomic_write_16k": true}},
		{addr: testRO, attrs: map[string]any{"master_instance_id": oracleRef{primary, "id"}, "instance_type": "mysqlro.n2.medium.1c",
			"storage": 100, "instance_name": "reporting-0", "parameters": map[string]string{"innodb_io_capacity": "4000"}}},
	}
	applied := w.applyRecorded(t, "create", order)
	first := w.stateAttr(t, testRO, "id")
	expectWarningWithAll(t, "create", applied[testRO], `rr-\w+ is Running`, `Setting the parameters failed`, `not applied yet: parameters`)
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("next plan: %v %s", err, plan.errMsg)
	}
	expectChangeOf(t, "next plan", plan, testRO, "parameters", map[string]string{"innodb_io_capacity": "20000"},
		map[string]string{"innodb_io_capacity": "4000"})
	cloud.allow()
	w.applyChecked(t, "complete", order, func(*terraform.State) error {
		if id := w.stateAttr(t, testRO, "id"); id != first {
			return fmt.Errorf("the read-only instance changed from %s to %s", first, id)
		}
		if n := env.requests("CreateReadOnlyDBInstance"); n != 1 {
			return fmt.Errorf("%d CreateReadOnlyDBInstance requests, want 1", n)
		}
		if got := env.running(t, first, "innodb_io_capacity"); got != "4000" {
			return fmt.Errorf("innodb_io_capacity runs %q on %s, want 4000", got, first)
		}
		return nil
	})
	if got := w.stringMapAttr(t, testRO, "parameters")["innodb_io_capacity"]; got != "4000" {
		t.Errorf("complete: parameters.innodb_io_capacity %q, want 4000", got)
	}
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := roAccCheckDestroy(env)(nil); err != nil {
		t.Error(err)
	}
}
