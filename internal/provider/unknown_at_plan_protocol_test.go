package provider

// Issue 39 §3, values unknown at plan: where a restart depends on a value known only at apply, the
// plan names the possibility, and prevent_restart refuses it at plan as it refuses a certain
// restart, before anything of the run is created. The steps and checks of terraform tests, played
// at the plugin protocol with references to resources created in the same run.

import (
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const unknownSource = "rds_instance.source"

// cloneOfNewBackup is a source instance, an rds_backup of it and a clone of that backup (testRes,
// with clone's attributes), all created in one run: the clone's source is known only at apply.
func cloneOfNewBackup(clone map[string]any) []oracleResource {
	src := oracleRef{unknownSource, "id"}
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
		"restore_from": map[string]any{"source_instance_id": src, "backup_id": oracleRef{backupRes, "backup_id"}}}
	maps.Copy(attrs, clone)
	return []oracleResource{
		{addr: unknownSource, attrs: map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20}},
		{addr: backupRes, attrs: map[string]any{"instance_id": src}},
		{addr: testRes, attrs: attrs},
	}
}

// Item 10: a clone with atomic_write_16k = false of a backup of a source created in the same run.
// The source gets 16K atomic write on (default-on), the clone inherits it (rule 8) and is toggled
// off right after creation: one restart, which the plan names as possible, and which
// prevent_restart refuses at plan instead of failing the apply after the billed source and backup.
func TestUnknownAtPlan_cloneOfBackupMadeInRun(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	refused := w.planErrorOf(t, cloneOfNewBackup(map[string]any{"atomic_write_16k": false, "prevent_restart": true}))
	expectErrorText(t, "prevent_restart", refused, regexp.MustCompile(
		`(?s)prevent_restart refuses this plan: it may restart RDS instance the new instance.*the restore source's atomic_write_16k.*known only at apply.*set prevent_restart = false`))

	order := cloneOfNewBackup(map[string]any{"atomic_write_16k": false})
	plan := w.applyChecked(t, "clone", order, restartsAre(env, w, t, testRes, 1), stateFlagIs(w, t, testRes, false),
		stateFlagIs(w, t, unknownSource, true))
	expectWarning(t, "clone", plan, testRes, regexp.MustCompile(`(?s)This apply may restart RDS instance the new instance.*restore source's atomic_write_16k`))
	if _, possible, _ := plannedRestarts(plan, order); possible["new:"+testRes] != 1 {
		t.Errorf("clone: the plan names %d possible restarts of the clone, want 1", possible["new:"+testRes])
	}
}

// Item 11: prevent_restart = true with an instance_type computed from a resource created in the
// same run (an rds_backup of another instance): the class change may restart the instance, so the
// plan is refused, not the apply after the backup was made. Without the guard the plan names the
// possible restart and the apply makes it, once.
func TestUnknownAtPlan_instanceTypeKnownAtApply(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	other := env.plantInstance(t, "8.0", "")
	base := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20}
	var id string
	w.checkedStep(t, "create", []oracleResource{{addr: testRes, attrs: base}}, &id)
	grow := func(prevent bool) []oracleResource {
		attrs := maps.Clone(base)
		attrs["instance_type"] = oracleDependent{on: oracleRef{backupRes, "backup_id"}, value: "mysql.n2.large.2c"}
		attrs["prevent_restart"] = prevent
		return append(backupResources(other), oracleResource{addr: testRes, attrs: attrs})
	}
	expectErrorText(t, "prevent_restart", w.planErrorOf(t, grow(true)), regexp.MustCompile(
		`(?s)prevent_restart refuses this plan: it may restart RDS instance `+id+`.*instance_type, atomic_write_16k known only at apply`))

	order := grow(false)
	plan := w.applyChecked(t, "class known at apply", order, restartsAre(env, w, t, testRes, 1),
		w.stateIs(testRes, "instance_type", "mysql.n2.large.2c"))
	expectWarning(t, "class known at apply", plan, testRes, regexp.MustCompile(`This apply may restart RDS instance `+id))
	if _, possible, _ := plannedRestarts(plan, order); possible[id] != 1 {
		t.Errorf("class known at apply: the plan names %d possible restarts of %s, want 1", possible[id], id)
	}
}

// Item 12: an action triggered after_create on an instance created in the same run is planned with
// instance_id unknown. Its plan names what it may do to the instance, and prevent_restart, which is
// known, refuses it at plan, before the instance is created; the plan reads nothing.
func TestUnknownAtPlan_actionOnInstanceMadeInRun(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	for _, a := range []struct{ name, does string }{
		{"rds_restart", "restarts it"}, {"rds_switchover", "switches it over"}, {"rds_apply_pending", "whatever waits for its maintenance window"},
	} {
		possible := a.name + " may take an instance known only at apply out of service"
		diags := planAction(t, w, a.name, map[string]any{"instance_id": tftypes.UnknownValue, "prevent_restart": true})
		if text := errorsText(diags); !strings.Contains(text, "prevent_restart refuses "+a.name+" on an instance known only at apply") || !strings.Contains(text, a.does) {
			t.Errorf("%s with prevent_restart and instance_id unknown: errors %q, want the refusal naming what it does", a.name, text)
		}
		diags = planAction(t, w, a.name, map[string]any{"instance_id": tftypes.UnknownValue})
		if diagsHaveError(diags) || !strings.Contains(warningText(diags), possible) || !strings.Contains(warningText(diags), a.does) {
			t.Errorf("%s with instance_id unknown: %q, want only a warning naming what it may do", a.name, diagSummaries(diags))
		}
	}
	for action, n := range w.sim.Stats().Requests {
		t.Errorf("the plans sent %s %d times, want no request", action, n)
	}
}

// A primary whose atomic_write_16k is computed from a resource created in the run (an rds_backup of
// another instance): turning it on would turn its read-only instance on with a restart (rule 7).
// The read-only instance's plan names that possible restart, and its prevent_restart refuses it at
// plan instead of failing the apply after the primary had already restarted it.
func TestUnknownAtPlan_primaryFlagKnownAtApply(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	other := env.plantInstance(t, "8.0", "")
	order := roParamsResources(nil, nil)
	order[0].attrs["atomic_write_16k"] = false
	w.applyChecked(t, "create", order, stateFlagIs(w, t, testRO, false))
	roID := w.stateAttr(t, testRO, "id")
	later := func(prevent bool) []oracleResource {
		next := roParamsResources(nil, map[string]any{"prevent_restart": prevent})
		next[0].attrs["atomic_write_16k"] = oracleDependent{on: oracleRef{backupRes, "backup_id"}, value: true}
		return append(backupResources(other), next...)
	}
	expectErrorText(t, "prevent_restart on the read-only instance", w.planErrorOf(t, later(true)), regexp.MustCompile(
		`(?s)prevent_restart refuses this plan: it may restart RDS instance `+roID+`.*its primary rm-[a-z0-9]+'s atomic_write_16k`))
	plan := w.applyChecked(t, "primary on", later(false), stateFlagIs(w, t, "rds_instance.primary", true), restartsAre(env, w, t, testRO, 1))
	expectWarning(t, "primary on", plan, testRO, regexp.MustCompile(`This apply may restart RDS instance `+roID))
}

// prevent_restart itself computed from a resource created in the run: the plan names the restart
// and says that the apply refuses it there if prevent_restart turns out true; true, it does, after
// the backup was made, and the instance keeps its class.
func TestUnknownAtPlan_preventRestartKnownAtApply(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	other := env.plantInstance(t, "8.0", "")
	base := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20}
	var id string
	w.checkedStep(t, "create", []oracleResource{{addr: testRes, attrs: base}}, &id)
	attrs := maps.Clone(base)
	attrs["instance_type"] = "mysql.n2.large.2c"
	attrs["prevent_restart"] = oracleDependent{on: oracleRef{backupRes, "backup_id"}, value: true}
	order := append(backupResources(other), oracleResource{addr: testRes, attrs: attrs})
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("plan: %v %s", err, plan.errMsg)
	}
	expectWarning(t, "plan", plan, testRes, regexp.MustCompile(`(?s)prevent_restart of `+id+` is known only at apply.*\(a restart\)`))
	res, err := w.applyWalk(order, plan)
	if err != nil {
		t.Fatal(err)
	}
	if res.errAt != testRes || !strings.Contains(res.errMsg, "prevent_restart refuses this plan") || env.restarts(id) != 0 {
		t.Errorf("apply: failed at %q (%s), %d restarts; want prevent_restart's refusal at %s and no restart", res.errAt, res.errMsg, env.restarts(id), testRes)
	}
}

// An action whose prevent_restart is known only at apply: its plan names the restart or switchover
// and says the invoke refuses it then if prevent_restart is true, whether the instance is known or
// not; a plan with nothing to do says nothing of it.
func TestUnknownAtPlan_actionPreventRestartKnownAtApply(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	if _, err := w.sim.AddInstance(seedOf(movedPrimary)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, instance, want string }{
		{"rds_restart", movedPrimary, "prevent_restart of " + movedPrimary + " is known only at apply"},
		{"rds_switchover", movedPrimary, "prevent_restart of " + movedPrimary + " is known only at apply"},
		{"rds_restart", "", "prevent_restart of rds_restart's instance is known only at apply"},
		{"rds_apply_pending", movedPrimary, ""}, // nothing waits: nothing to refuse
	} {
		var id any = c.instance
		if c.instance == "" {
			id = tftypes.UnknownValue
		}
		diags := planAction(t, w, c.name, map[string]any{"instance_id": id, "prevent_restart": tftypes.UnknownValue})
		warn := warningText(diags)
		if diagsHaveError(diags) || (c.want == "") != !strings.Contains(warn, "prevent_restart of") || !strings.Contains(warn, c.want) {
			t.Errorf("%s on %q with prevent_restart unknown: %q, want a warning %q", c.name, c.instance, diagSummaries(diags), c.want)
		}
	}
}
