package provider

// Parameter groups (issue 45 §2): the "parameter group" factor gives the instances an rds_parameter_group in
// combination with every other factor (16K toggles, deferral, read-only instances, the instances' own parameters):
// the group applied at create (created in the same run as the instances that use it: CreateDBInstance's
// DBParamGroupId, a new read-only instance's ModifyParameter right after its creation), applied in place to
// instances without one (ModifyParameter with ParameterGroupId), changed in the same run as the instances that use
// it (their plans take its planned parameters, their applies apply it again), or removed (the instances stop using
// it and the group is destroyed: they keep its values). The group holds a restart-needing value in every level, so
// each instance it reaches restarts, now or in the maintenance window. After each apply the oracle compares, for
// every instance that uses the group: the group as the cloud has it with its configuration, each of its values with
// what the instance runs or has waiting, parameter_group_values and parameters_pending with the cloud, the restarts
// the plan named with those the simulator counted, and a value still waiting with a restart the plan deferred; at
// the maintenance window, that nothing of the group waits any more.

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// parameterGroupLevels are the "parameter group" factor's levels.
var parameterGroupLevels = []string{"none", "applied at create", "changed in place", "changed together with its instances", "removed"}

// The group's parameters before and after a change: an online value and a restart-needing one, neither of them a
// parameter another factor sets (the parameters factor's back_log and innodb_io_capacity, the fact's innodb_open_files,
// the later run's innodb_read_io_threads).
var (
	groupFirst  = map[string]string{"wait_timeout": "3600", "innodb_write_io_threads": "8"}
	groupSecond = map[string]string{"wait_timeout": "7200", "innodb_write_io_threads": "12"}
)

// comboNormalizeParameterGroup: a destroy leaves no instance to compare; a major version change would leave the
// instance on another version than its group's (refused at plan, nothing to compare with the cloud); a later run
// that sets the instances back to their first configuration would need the removed group back. A minor version
// upgrade in the maintenance window goes alone (minor-version-alone, as comboNormalizeMinor): the group is there,
// applied at create, and the run does not change it.
func comboNormalizeParameterGroup(c []int) {
	set := func(l string) { c[comboFactorIndex("parameter group")] = slices.Index(parameterGroupLevels, l) }
	level, replace := comboLevel(c, "parameter group"), comboLevel(c, "replace")
	switch {
	case comboLevel(c, "destroy") != "no" || replace == "engine_version" || replace == "engine_version upgrade",
		level == "removed" && comboLevel(c, "later run") == "change reverted":
		set("none")
	case strings.HasPrefix(level, "changed") && comboLevel(c, "minor version") == "upgrade" && comboLevel(c, "apply_restarts") == "in_maintenance_window":
		set("applied at create")
	}
}

// comboParameterGroup adds the level's group (first: Terraform plans it before the instances whose
// parameter_group_id reference it) and points the primary (pb, pa) and the read-only instance (rb, ra) at it.
func comboParameterGroup(level string, b oracleBase, pb, pa, rb, ra map[string]any, before, after []oracleResource) ([]oracleResource, []oracleResource) {
	group := func(params map[string]string) oracleResource {
		return oracleResource{parameterGroupRes, map[string]any{"name": "fleet_default", "engine_version": b.version, "parameters": params}}
	}
	ref := oracleRef{parameterGroupRes, "id"}
	use := func(attrs ...map[string]any) {
		for _, a := range attrs {
			a["parameter_group_id"] = ref
		}
	}
	switch level {
	case "applied at create":
		use(pb, pa, rb, ra)
		return append([]oracleResource{group(groupFirst)}, before...), append([]oracleResource{group(groupFirst)}, after...)
	case "changed in place":
		use(pa, ra)
		return append([]oracleResource{group(groupFirst)}, before...), append([]oracleResource{group(groupFirst)}, after...)
	case "changed together with its instances":
		use(pb, pa, rb, ra)
		return append([]oracleResource{group(groupFirst)}, before...), append([]oracleResource{group(groupSecond)}, after...)
	case "removed":
		use(pb, rb)
		return append([]oracleResource{group(groupFirst)}, before...), after
	}
	return before, after
}

// comboParameterGroupName is the level as the scenario records it: "" for none.
func comboParameterGroupName(level string) string {
	if level == "none" {
		return ""
	}
	return level
}

// groupRunning is what every instance in state runs and has waiting (DescribeParameters), by id, before an apply.
func (w *oracleWorld) groupRunning(order []oracleResource) map[string]instanceParameters {
	if _, ok := w.state[parameterGroupRes]; !ok && !slices.ContainsFunc(order, func(r oracleResource) bool { return r.addr == parameterGroupRes }) {
		return nil
	}
	out := map[string]instanceParameters{}
	for _, r := range order {
		if id := w.stateID(r.addr); id != "" && isInstanceResource(r.addr) {
			if p, err := w.instanceParameters(id); err == nil {
				out[id] = p
			}
		}
	}
	return out
}

// instanceParameters are an instance's running values and those waiting for a restart.
type instanceParameters struct{ running, waiting map[string]string }

func (w *oracleWorld) instanceParameters(id string) (instanceParameters, error) {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	answer, err := api.DescribeParameters(context.Background(), id)
	if err != nil {
		return instanceParameters{}, err
	}
	return instanceParameters{answer.RunningParameters.Values(), answer.ConfigParameters.Values()}, nil
}

func (w *oracleWorld) stateID(addr string) string {
	var id string
	if v, ok := w.state[addr]; ok {
		_ = attrOf(v, "id").As(&id)
	}
	return id
}

// groupRun is what one run's group comparison works from.
type groupRun struct {
	plan              *oraclePlan
	before            map[string]instanceParameters
	definite, counted map[string]int
	deferred          map[string]int // by instance id
}

// checkParameterGroups compares, after an apply, the group and every instance that uses it with the cloud and with
// the plan (the restarts it named now and in the window), and the instances that stopped using it with what they
// ran before; reports whether it compared an instance.
func (w *oracleWorld) checkParameterGroups(run groupRun, order []oracleResource, disagree func(class, format string, args ...any)) bool {
	i := slices.IndexFunc(order, func(r oracleResource) bool { return r.addr == parameterGroupRes })
	if i < 0 {
		return w.checkGroupRemoved(run, order, disagree)
	}
	configured, _ := order[i].attrs["parameters"].(map[string]string)
	version, _ := order[i].attrs["engine_version"].(string)
	template, _ := rdsservice.EmbeddedTemplate(version)
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	gid := w.stateID(parameterGroupRes)
	g, err := api.DescribeParameterGroup(context.Background(), gid)
	if err != nil {
		disagree("parameter group: the group is not in the cloud", "%s (%s): %v", parameterGroupRes, gid, err)
		return false
	}
	if !sameParameters(g.Parameters, configured) || !attrOf(w.state[parameterGroupRes], "restarts").Equal(tftypes.NewValue(tftypes.Bool, g.ForceRestart)) {
		disagree("parameter group: the cloud's group differs from its configuration", "%s: the cloud holds %v (ForceRestart %t), the configuration %v, the state's restarts %s",
			parameterGroupRes, g.Parameters, g.ForceRestart, configured, shortValue(attrOf(w.state[parameterGroupRes], "restarts")))
	}
	compared := false
	for _, r := range order {
		if _, uses := r.attrs["parameter_group_id"].(oracleRef); !uses || !isInstanceResource(r.addr) || w.stateID(r.addr) == "" {
			continue
		}
		compared = true
		if !slices.Contains(g.Instances, w.stateID(r.addr)) {
			disagree("parameter group: the cloud does not list the instance under its group", "%s (%s) is not among %s's instances %v", r.addr, w.stateID(r.addr), gid, g.Instances)
		}
		w.checkGroupInstance(run, r, g.Parameters, template, disagree)
	}
	return compared
}

// checkGroupInstance compares one instance that uses the group: each value the instance's own parameters leave to
// the group runs or waits, parameter_group_values and parameters_pending are the cloud's, a value that waits has a
// restart the plan deferred, and a restart-needing value the apply made run has a restart the plan named and the
// simulator counted.
func (w *oracleWorld) checkGroupInstance(run groupRun, r oracleResource, group map[string]string, template rdsservice.ParameterTemplate, disagree func(class, format string, args ...any)) {
	id, kind := w.stateID(r.addr), r.typeName()
	own, _ := r.attrs["parameters"].(map[string]string)
	now, err := w.instanceParameters(id)
	if err != nil {
		disagree("parameter group: the instance's parameters cannot be read", "%s (%s): %v", r.addr, id, err)
		return
	}
	want := rdsservice.GroupValuesApplied(group, own)
	var waits, restarted []string
	for name, v := range want {
		got, waiting := now.waiting[name]
		if !waiting {
			got = now.running[name]
		}
		switch {
		case !strings.EqualFold(got, v):
			disagree("parameter group: the instance does not run its group's value: "+kind, "%s (%s): %s = %q, the group %q", r.addr, id, name, got, v)
		case waiting:
			waits = append(waits, name)
		case template.Restarts(name) && run.before[id].running != nil && !strings.EqualFold(run.before[id].running[name], v):
			restarted = append(restarted, name)
		}
	}
	if got := stateMap(w.state[r.addr], "parameter_group_values"); !sameParameters(got, want) {
		disagree("parameter group: parameter_group_values differs from the cloud: "+kind, "%s: state %v, the cloud's group leaves it %v", r.addr, got, want)
	}
	if pending := attrOf(w.state[r.addr], "parameters_pending"); !pending.IsNull() && !sameParameters(stateMap(w.state[r.addr], "parameters_pending"), now.waiting) {
		disagree("parameter group: parameters_pending differs from the cloud: "+kind, "%s: state %s, waiting in the cloud %v", r.addr, shortValue(pending), now.waiting)
	}
	if len(waits) > 0 && run.deferred[id] == 0 && !w.taskScheduled {
		disagree("parameter group: a group value waits, the plan deferred no restart: "+kind, "%s (%s): %v wait for a restart; the plan (%s) deferred none",
			r.addr, id, waits, planSummary(run.plan, []oracleResource{r}))
	}
	key := id
	if p := run.plan.res[r.addr]; p != nil && (p.action == actCreate || p.action == actReplace) {
		key = "new:" + r.addr
	}
	if len(restarted) > 0 && (run.definite[key] == 0 || run.counted[id] == 0) {
		disagree("parameter group: a restart-needing group value runs, restart not named or not made: "+kind,
			"%s (%s): %v now run; the plan named %d restart(s), the simulator counted %d", r.addr, id, restarted, run.definite[key], run.counted[id])
	}
}

// checkGroupRemoved compares the instances that stopped using a removed group with what they ran before: they keep
// its values, and nothing of it restarts them.
func (w *oracleWorld) checkGroupRemoved(run groupRun, order []oracleResource, disagree func(class, format string, args ...any)) bool {
	p, ok := run.plan.res[parameterGroupRes]
	if !ok || p.action != actDelete {
		return false
	}
	compared := false
	for _, r := range order {
		id := w.stateID(r.addr)
		before, had := run.before[id]
		if !isInstanceResource(r.addr) || !had || attrOf(run.plan.res[r.addr].prior, "parameter_group_id").IsNull() {
			continue
		}
		compared = true
		now, err := w.instanceParameters(id)
		if err != nil {
			disagree("parameter group: the instance's parameters cannot be read", "%s (%s): %v", r.addr, id, err)
			continue
		}
		for name := range groupFirst {
			if now.running[name] != before.running[name] || now.waiting[name] != before.waiting[name] {
				disagree("parameter group removed: the instance's value changed: "+r.typeName(), "%s (%s): %s ran %q (waiting %q), now %q (waiting %q)",
					r.addr, id, name, before.running[name], before.waiting[name], now.running[name], now.waiting[name])
			}
		}
		if v := attrOf(w.state[r.addr], "parameter_group_values"); !v.IsNull() {
			disagree("parameter group removed: parameter_group_values kept: "+r.typeName(), "%s: %s", r.addr, shortValue(v))
		}
	}
	return compared
}

// groupsAtTheWindow checks, past the maintenance window, that nothing of the group waits any more on an instance
// that uses it: the window's restart applied it.
func (w *oracleWorld) groupsAtTheWindow(order []oracleResource, disagree func(class, format string, args ...any)) {
	i := slices.IndexFunc(order, func(r oracleResource) bool { return r.addr == parameterGroupRes })
	if i < 0 {
		return
	}
	configured, _ := order[i].attrs["parameters"].(map[string]string)
	for _, r := range order {
		if _, uses := r.attrs["parameter_group_id"].(oracleRef); !uses || !isInstanceResource(r.addr) || w.stateID(r.addr) == "" {
			continue
		}
		own, _ := r.attrs["parameters"].(map[string]string)
		now, err := w.instanceParameters(w.stateID(r.addr))
		if err != nil {
			continue // released behind the state
		}
		for name, v := range rdsservice.GroupValuesApplied(configured, own) {
			if _, waits := now.waiting[name]; waits || !strings.EqualFold(now.running[name], v) {
				disagree("parameter group: at the window the group's value does not run: "+r.typeName(), "%s: %s runs %q (waiting %q), the group %q",
					r.addr, name, now.running[name], now.waiting[name], v)
			}
		}
	}
}

// sameParameters compares two parameter maps, values case-insensitively (the cloud spells ON/on its way).
func sameParameters(a, b map[string]string) bool {
	return maps.EqualFunc(a, b, func(x, y string) bool { return strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(y)) })
}

// stateMap is a map attribute of a state object; empty when null or unknown.
func stateMap(v tftypes.Value, name string) map[string]string {
	out := map[string]string{}
	m := attrOf(v, name)
	if m.IsNull() || !m.IsKnown() {
		return out
	}
	var elems map[string]tftypes.Value
	if m.As(&elems) != nil {
		return out
	}
	for k, e := range elems {
		var s string
		if e.As(&s) == nil {
			out[k] = s
		}
	}
	return out
}

// The parameter group check notices what it is there to notice: a group value changed on the instance behind
// Terraform's back right after the apply (the instance no longer runs its group's value), and the group changed in
// the cloud (no longer its configuration).
func TestOracleNoticesParameterGroupDisagreements(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	b := comboBases["8.0 cloud_essd x86"]
	for _, tc := range []struct {
		name, want string
		after      func(w *oracleWorld) error
	}{
		{"instance value changed", "parameter group: the instance does not run its group's value: rds_instance", func(w *oracleWorld) error {
			api, err := w.h.directClient()
			if err != nil {
				return err
			}
			return api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: w.stateID("rds_instance.primary"),
				Parameters: map[string]string{"wait_timeout": "600"}})
		}},
		{"group changed", "parameter group: the cloud's group differs from its configuration", func(w *oracleWorld) error {
			api, err := w.h.directClient()
			if err != nil {
				return err
			}
			return api.ModifyParameterGroup(context.Background(), &rdsapi.ModifyParameterGroupRequest{ID: w.stateID(parameterGroupRes), Name: "fleet_default",
				Parameters: map[string]string{"wait_timeout": "600"}, ModifyMode: rdsapi.ParameterGroupModeIndividual})
		}},
	} {
		w := h.newWorld()
		pb, pa := primaryAttrs(b), primaryAttrs(b)
		before, after := comboParameterGroup("changed together with its instances", b, pb, pa, map[string]any{}, map[string]any{},
			[]oracleResource{{"rds_instance.primary", pb}}, []oracleResource{{"rds_instance.primary", pa}})
		if out := w.run(tc.name+" [setup]", before); len(out.disagreements) > 0 || out.kind != outcomeApplied || !out.parameterGroup {
			t.Fatalf("%s: setup: %+v", tc.name, out)
		}
		w.afterApply = func(w *oracleWorld) {
			if err := tc.after(w); err != nil {
				t.Fatal(err)
			}
		}
		out := w.run(tc.name, after)
		var classes []string
		for _, d := range out.disagreements {
			classes = append(classes, d.class)
		}
		if !slices.Contains(classes, tc.want) || !out.parameterGroup {
			t.Errorf("%s: the oracle reported %q (compared: %v), want %q among them", tc.name, classes, out.parameterGroup, tc.want)
		}
		_ = w.sim.Close()
	}
}

// The parameter group floor is met by construction: a short run whose sample compared too few tops it up from the
// reserve with combinations of a group level only (mayFeed), here from an empty sample.
func TestOracleTopUpMeetsParameterGroupFloor(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	tally := &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}}
	floors := oracleFloors{parameterGroups: 3}
	reserve := oracleReserve(20261206, nil)
	tally.topUp(t, h, reserve, floors)
	if !floorsMet(tally.floorRows(floors)) || tally.run > 6 {
		t.Errorf("after the top-up: %d run, %d parameter group runs compared; want the floor of 3 met within 6", tally.run, tally.parameterGroups)
	}
	for c, repros := range tally.classes {
		if _, known := tally.knownDisagreement(c); !known {
			t.Errorf("DISAGREEMENT [%s] %s", c, repros[0])
		}
	}
}
