package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

const parameterGroupRes = "rds_parameter_group.fleet"

func parameterGroupResources(name string, params map[string]string) []oracleResource {
	return []oracleResource{{addr: parameterGroupRes, attrs: map[string]any{"name": name, "engine_version": "8.0", "parameters": params}}}
}

// groupIs checks the group as the cloud has it.
func (e *testEnv) groupIs(w *oracleWorld, t *testing.T, want map[string]string, restarts bool) func(*terraform.State) error {
	return func(*terraform.State) error {
		g, err := e.api.DescribeParameterGroup(context.Background(), w.stateAttr(t, parameterGroupRes, "id"))
		if err != nil {
			return err
		}
		if !maps.Equal(g.Parameters, want) || g.ForceRestart != restarts {
			return fmt.Errorf("group holds %v (ForceRestart %t), want exactly %v (%t)", g.Parameters, g.ForceRestart, want, restarts)
		}
		return nil
	}
}

// rds_parameter_group: create, a change that removes a parameter (ModifyMode=Individual: really
// removed from the group), the cloud's spelling of a value making no diff, `restarts` planned and
// read back, import (by id), destroy.
func TestParameterGroup_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	first := map[string]string{"wait_timeout": "3600", "back_log": "4000"}
	plan := w.applyChecked(t, "create", parameterGroupResources("fleet_default", first), env.groupIs(w, t, first, true))
	expectAction(t, "create", plan, parameterGroupRes, actCreate)
	expectPlanned(t, "create", plan, parameterGroupRes, "restarts", true)
	if n := env.requests("CreateParameterGroup"); n != 1 {
		t.Fatalf("CreateParameterGroup sent %d times", n)
	}
	expectEmptyPlan(t, "create again", mustPlan(t, w, parameterGroupResources("fleet_default", first)))
	w.importVerify(t, parameterGroupRes)
	w.identityIs(t, parameterGroupRes, "parameter_group_id", w.stateAttr(t, parameterGroupRes, "id"))

	second := map[string]string{"wait_timeout": "7200", "innodb_adaptive_hash_index": "on"}
	plan = w.applyChecked(t, "change", parameterGroupResources("fleet_default", second),
		env.groupIs(w, t, map[string]string{"wait_timeout": "7200", "innodb_adaptive_hash_index": "ON"}, false))
	expectAction(t, "change", plan, parameterGroupRes, actUpdate)
	expectPlanned(t, "change", plan, parameterGroupRes, "restarts", false)
	if n := env.requests("ModifyParameterGroup"); n != 1 {
		t.Fatalf("ModifyParameterGroup sent %d times", n)
	}
	expectEmptyPlan(t, "change again", mustPlan(t, w, parameterGroupResources("fleet_default", second)))

	id := w.stateAttr(t, parameterGroupRes, "id")
	w.destroyStep(t, env)
	if _, err := env.api.DescribeParameterGroup(context.Background(), id); !rdsapi.IsParameterGroupNotFound(err) {
		t.Fatalf("after destroy: %v", err)
	}
}

// Bad input is refused at plan, every refusal at once, with the rows and messages of an
// instance's `parameters`, and nothing is sent.
func TestParameterGroup_badInputRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	text := w.planErrorOf(t, parameterGroupResources("web", map[string]string{
		"back_lg": "1", "wait_timeout": "0", "innodb_buffer_pool_size": "1", "innodb_doublewrite": "OFF"}))
	for _, want := range []string{
		`name = "web": a parameter group name is 8 to 64 characters`,
		`parameters\["back_lg"\]: MySQL 8.0 has no parameter "back_lg"`,
		`(?s)parameters\["wait_timeout"\] = "0" is not allowed on MySQL 8.0.*the default is "86400"`,
		`parameters\["innodb_buffer_pool_size"\] = "1" is not allowed on MySQL 8.0: allowed range is the whole numbers`,
		`innodb_doublewrite cannot be in a parameter group`,
	} {
		expectErrorText(t, "bad group", text, regexp.MustCompile(want))
	}
	if n := env.mutations(); n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
}

func mustPlan(t *testing.T, w *oracleWorld, order []oracleResource) *oraclePlan {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("plan: %v %s", err, plan.errMsg)
	}
	return plan
}

// groupInstance is a group (planted in the cloud first) and an instance that uses it.
func groupInstance(groupParams map[string]string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 20, "instance_name": "acctest"}
	maps.Copy(attrs, extra)
	return append(parameterGroupResources("fleet_default", groupParams), oracleResource{addr: testRes, attrs: attrs})
}

// parameter_group_id (P8): at create the group goes out as DBParamGroupId and nothing restarts;
// a group change reaching the instance re-applies it with ModifyParameter's ParameterGroupId and
// restarts the instance as the plan names; the instance's own parameters win over the group's,
// and the plan says so; deferred to the maintenance window with apply_restarts.
func TestParameterGroup_instances(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	first := map[string]string{"wait_timeout": "3600"}
	w.applyChecked(t, "group", parameterGroupResources("fleet_default", first))
	group := w.stateAttr(t, parameterGroupRes, "id")
	var id string
	w.checkedStep(t, "create", groupInstance(first, map[string]any{"parameter_group_id": group}), &id)
	if got := env.running(t, id, "wait_timeout"); got != "3600" || env.restarts(id) != 0 || env.requests("ModifyParameter") != 0 {
		t.Fatalf("created with the group: wait_timeout %q, %d restarts, %d ModifyParameter", got, env.restarts(id), env.requests("ModifyParameter"))
	}
	// The group gains a restart-needing value outside Terraform; the instance's refresh finds it
	// does not run the group's values, so the plan applies the group again and names the restart.
	second := map[string]string{"wait_timeout": "3600", "back_log": "4000"}
	if err := env.api.ModifyParameterGroup(context.Background(), &rdsapi.ModifyParameterGroupRequest{ID: group, Name: "fleet_default",
		Parameters: second, ModifyMode: rdsapi.ParameterGroupModeIndividual}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	plan := mustPlan(t, w, groupInstance(second, map[string]any{"parameter_group_id": group}))
	expectAction(t, "re-apply", plan, testRes, actUpdate)
	expectWarning(t, "re-apply", plan, testRes, regexp.MustCompile(`(?s)restart.*back_log`))
	w.applyChecked(t, "re-apply", groupInstance(second, map[string]any{"parameter_group_id": group}))
	if got := env.running(t, id, "back_log"); got != "4000" || env.restarts(id) != 1 || env.requests("ModifyParameter") != 1 {
		t.Fatalf("re-applied group: back_log %q, %d restarts, %d ModifyParameter", got, env.restarts(id), env.requests("ModifyParameter"))
	}
	expectEmptyPlan(t, "re-applied", mustPlan(t, w, groupInstance(second, map[string]any{"parameter_group_id": group})))
	// The instance's own value wins, and the plan says so.
	own := map[string]any{"parameter_group_id": group, "parameters": map[string]string{"wait_timeout": "600"}}
	plan = w.applyChecked(t, "override", groupInstance(second, own))
	expectWarning(t, "override", plan, testRes, regexp.MustCompile(`parameters\["wait_timeout"\] = "600", and parameter group `+group+` sets "3600"`))
	if got := env.running(t, id, "wait_timeout"); got != "600" {
		t.Fatalf("own value: wait_timeout %q", got)
	}
	expectEmptyPlan(t, "override again", mustPlan(t, w, groupInstance(second, own)))
	// The group changed in the same run, in the maintenance window: nothing restarts now (in a window closed
	// now: the default 18:00Z-22:00Z is open for part of the day, and the cloud then runs the change at once).
	third := map[string]string{"wait_timeout": "3600", "back_log": "5000"}
	if err := env.api.ModifyDBInstanceMaintainTime(context.Background(), id, realClockWindow); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	window := map[string]any{"parameter_group_id": group, "parameters": map[string]string{"wait_timeout": "600"},
		"apply_restarts": "in_maintenance_window"}
	plan = w.applyChecked(t, "in the window", groupInstance(third, window))
	expectWarning(t, "in the window", plan, testRes, regexp.MustCompile(`(?s)restart of RDS instance `+id+`.*in the maintenance window.*back_log 4000 -> 5000`))
	if env.restarts(id) != 0 || env.running(t, id, "back_log") != "4000" || env.running(t, id, "wait_timeout") != "600" {
		t.Fatalf("deferred: %d restarts, back_log runs %q, wait_timeout %q", env.restarts(id), env.running(t, id, "back_log"), env.running(t, id, "wait_timeout"))
	}
	// Removing parameter_group_id stops applying the group: nothing is sent, the instance keeps its values.
	env.sim.ResetStats()
	w.applyChecked(t, "group removed", groupInstance(third, map[string]any{"parameters": map[string]string{"wait_timeout": "600"},
		"apply_restarts": "in_maintenance_window"}))
	if n := env.requests("ModifyParameter"); n != 0 || env.running(t, id, "wait_timeout") != "600" {
		t.Fatalf("group removed: %d ModifyParameter, wait_timeout %q", n, env.running(t, id, "wait_timeout"))
	}
	// An instance without a group costs no parameter group read at refresh or plan: the one read is
	// the group resource's own refresh.
	env.sim.ResetStats()
	expectEmptyPlan(t, "without a group", mustPlan(t, w, groupInstance(third, map[string]any{"parameters": map[string]string{"wait_timeout": "600"},
		"apply_restarts": "in_maintenance_window"})))
	if n := env.requests("DescribeParameterGroup"); n != 1 {
		t.Errorf("the plan sent %d DescribeParameterGroup, want 1 (the group's refresh)", n)
	}
	w.destroyStep(t, env)
}

// identityIs reads addr's state back and checks that its resource identity holds want in attr.
func (w *oracleWorld) identityIs(t *testing.T, addr, attr, want string) {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	typeName := strings.SplitN(addr, ".", 2)[0]
	read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName,
		CurrentState: dynamic(w.h.objType(typeName), w.state[addr]), Private: w.priv[addr]})
	if err != nil || diagsHaveError(read.Diagnostics) || read.NewIdentity == nil {
		t.Fatalf("read %s: %v %s (identity %v)", addr, err, diagText(read.Diagnostics), read.NewIdentity)
	}
	v, err := read.NewIdentity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: map[string]tftypes.Type{attr: tftypes.String}})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := attrOf(v, attr).As(&got); err != nil || got != want {
		t.Fatalf("identity of %s: %s = %q (%v), want %q", addr, attr, got, err, want)
	}
}

// groupFleet is a group, a primary and a read-only instance whose parameter_group_id reference it.
func groupFleet(groupParams map[string]string) []oracleResource {
	order := groupInstance(groupParams, map[string]any{"parameter_group_id": oracleRef{parameterGroupRes, "id"}})
	return append(order, oracleResource{addr: "rds_readonly_instance.ro", attrs: map[string]any{
		"master_instance_id": oracleRef{testRes, "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 20,
		"parameter_group_id": oracleRef{parameterGroupRes, "id"}}})
}

// A group changed in the same run as the instances that use it (P8): the instances' plans take
// the group's planned parameters, name the restart they cause, and their applies apply the group
// again after its update, in one run, with no plan left. A read-only instance gets its group
// right after creation (CreateReadOnlyDBInstance takes none).
func TestParameterGroup_changedWithItsInstances(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const ro = "rds_readonly_instance.ro"
	first := map[string]string{"wait_timeout": "3600"}
	var id string
	w.checkedStep(t, "create", groupFleet(first), &id)
	roID := w.stateAttr(t, ro, "id")
	if got := env.running(t, roID, "wait_timeout"); got != "3600" || env.restarts(roID) != 0 || env.requests("ModifyParameter") != 1 {
		t.Fatalf("read-only instance created with the group: wait_timeout %q, %d restarts, %d ModifyParameter",
			got, env.restarts(roID), env.requests("ModifyParameter"))
	}
	second := map[string]string{"wait_timeout": "3600", "back_log": "4000"}
	env.sim.ResetStats()
	plan := mustPlan(t, w, groupFleet(second))
	for _, addr := range []string{testRes, ro} {
		expectAction(t, "same run", plan, addr, actUpdate)
		expectWarning(t, "same run", plan, addr, regexp.MustCompile(`(?s)restart.*back_log 3000 -> 4000`))
	}
	w.applyChecked(t, "same run", groupFleet(second))
	for _, instance := range []string{id, roID} {
		if got := env.running(t, instance, "back_log"); got != "4000" || env.restarts(instance) != 1 {
			t.Fatalf("%s after the group's change: back_log %q, %d restarts", instance, got, env.restarts(instance))
		}
	}
	if got := w.stringMapAttr(t, ro, "parameter_group_values"); !maps.Equal(got, second) {
		t.Fatalf("parameter_group_values %v, want %v", got, second)
	}
	w.destroyStep(t, env)
}

// G7: a group's name is unique in its region: a new group or a rename onto a name another group
// holds is refused at plan, naming that group, with nothing sent; an unchanged group's plan lists
// nothing.
func TestParameterGroup_nameUniqueInRegion(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	params := map[string]string{"wait_timeout": "3600"}
	other, err := env.api.CreateParameterGroup(context.Background(), &rdsapi.CreateParameterGroupRequest{Name: "fleet_default", Engine: "MySQL",
		EngineVersion: "8.0", Parameters: params})
	if err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	taken := regexp.MustCompile(`name = "fleet_default": region \S+ already has a parameter group of this name \(` + other + `\)`)
	expectErrorText(t, "new group", w.planErrorOf(t, parameterGroupResources("fleet_default", params)), taken)
	w.applyChecked(t, "another name", parameterGroupResources("fleet_second", params))
	env.sim.ResetStats()
	expectEmptyPlan(t, "unchanged", mustPlan(t, w, parameterGroupResources("fleet_second", params)))
	if n := env.requests("DescribeParameterGroups"); n != 0 {
		t.Errorf("an unchanged group's plan listed the region's groups %d times", n)
	}
	expectErrorText(t, "rename", w.planErrorOf(t, parameterGroupResources("fleet_default", params)), taken)
	if n := env.mutations(); n != 0 {
		t.Errorf("the refused plans sent %d mutating requests", n)
	}
	w.destroyStep(t, env)
}

// G8: a create of a group killed before Terraform recorded it is adopted by the next apply of the
// same configuration (the id the cloud answered, or a lost answer and the group created since),
// and the journal forgets it; without an interrupted create the name is refused.
func TestParameterGroup_killedCreateAdopted(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	env.data.Journal = rdsservice.OpenCreateJournal(work, func(string) string { return "" })
	ctx := context.Background()
	id, err := env.api.CreateParameterGroup(ctx, &rdsapi.CreateParameterGroupRequest{Name: "fleet_default", Engine: "MySQL",
		EngineVersion: "8.0", Parameters: map[string]string{"wait_timeout": "3600"}})
	if err != nil {
		t.Fatal(err)
	}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}
	config := tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "fleet_default")})}
	key := configKey(parameterGroupKind, config)
	r := &parameterGroupResource{resourceBase{typeName: parameterGroupKind, data: env.data}}
	plan := parameterGroupModel{Name: types.StringValue("fleet_default")}
	var refused diag.Diagnostics
	if _, _, ok := r.claimGroupCreate(ctx, plan, config, &refused); ok || !strings.Contains(problemsOf(refused), "name already taken") {
		t.Fatalf("no interrupted create: %q, want the name refused", problemsOf(refused))
	}
	for _, entryID := range []string{id, ""} {
		leaveInterruptedCreate(t, env.data.Journal.Dir(), parameterGroupKind, key, actionCreateParamGrp, "", entryID, time.Now().Add(-time.Minute))
		var diags diag.Diagnostics
		adopted, claim, ok := r.claimGroupCreate(ctx, plan, config, &diags)
		if !ok || adopted == nil || adopted.ID.ValueString() != id || !strings.Contains(problemsOf(diags), "Adopting "+id) {
			t.Fatalf("entry %q: adopted %+v, %q; want %s adopted", entryID, adopted, problemsOf(diags), id)
		}
		claim.done(true)
		if left := env.data.Journal.Interrupted(parameterGroupKind, key); len(left) != 0 {
			t.Fatalf("entries left after the adoption: %+v", left)
		}
	}
}

// rds_parameter_groups and the list resource: one DescribeParameterGroups call, name_regex, the
// group's parameters; a listed group's generated configuration plans empty.
func TestParameterGroup_dataSourceAndList(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "group", parameterGroupResources("fleet_default", map[string]string{"wait_timeout": "3600", "back_log": "4000"}))
	id := w.stateAttr(t, parameterGroupRes, "id")
	if _, err := env.api.CreateParameterGroup(context.Background(), &rdsapi.CreateParameterGroupRequest{Name: "other_group", Engine: "MySQL",
		EngineVersion: "8.0", Parameters: map[string]string{"wait_timeout": "600"}}); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	state, diags := dsRead(t, env, NewParameterGroupsDataSource(), map[string]tftypes.Value{
		"name_regex": tftypes.NewValue(tftypes.String, "^fleet_")})
	if diags.HasError() {
		t.Fatal(diags)
	}
	var m parameterGroupsModel
	if diags := state.Get(context.Background(), &m); diags.HasError() {
		t.Fatal(diags)
	}
	groups := m.Groups.Elements()
	if len(groups) != 1 || env.requests("DescribeParameterGroups") != 1 {
		t.Fatalf("rds_parameter_groups: %v after %d calls, want fleet_default in one", groups, env.requests("DescribeParameterGroups"))
	}
	g := groups[0].(types.Object).Attributes()
	if g["id"].(types.String).ValueString() != id || !g["restarts"].(types.Bool).ValueBool() ||
		g["parameters"].(types.Map).Elements()["back_log"].(types.String).ValueString() != "4000" {
		t.Fatalf("group read: %v", g)
	}
	if all := listed(t, w, parameterGroupKind, nil, false, 0); len(all) != 2 {
		t.Fatalf("listed %d groups, want 2", len(all))
	}
	results := listed(t, w, parameterGroupKind, map[string]string{"name_regex": "^fleet_"}, true, 0)
	if len(results) != 1 || identityString(t, results[0], "parameter_group_id") != id {
		t.Fatalf("groups named ^fleet_: %v, want %s", results, id)
	}
	planGenerated(t, w, parameterGroupKind, results)
}

// `moved` from alicloud_rds_parameter_group: the group's state is built from the source's (its
// param_detail as parameters) and the refreshed configuration plans empty; alicloud_db_instance's
// db_param_group_id becomes parameter_group_id.
func TestMoveFromAlicloudParameterGroup(t *testing.T) {
	c := newMovedCloud(t)
	id, err := c.api.CreateParameterGroup(context.Background(), &rdsapi.CreateParameterGroupRequest{Name: "fleet_default", Engine: "mysql",
		EngineVersion: "8.0", Parameters: map[string]string{"wait_timeout": "3600", "back_log": "4000"}})
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf(`{"id": %q, "engine": "mysql", "engine_version": "8.0", "parameter_group_name": "fleet_default",
		"parameter_group_desc": "", "param_detail": [{"param_name": "wait_timeout", "param_value": "3600"},
		{"param_name": "back_log", "param_value": "4000"}]}`, id)
	resp := c.move(t, alicloudProvider, "alicloud_rds_parameter_group", parameterGroupKind, []byte(raw))
	c.planAfterMove(t, "rds_parameter_group.fleet", resp, map[string]any{"name": "fleet_default", "engine_version": "8.0",
		"parameters": map[string]string{"wait_timeout": "3600", "back_log": "4000"}})
	pg := c.move(t, alicloudProvider, "alicloud_rds_parameter_group", parameterGroupKind, []byte(`{"id": "rpg-1", "engine": "PostgreSQL"}`))
	if !diagsHaveError(pg.Diagnostics) {
		t.Fatal("a PostgreSQL group moved")
	}

	facts := c.instanceFacts(t, movedPrimary)
	source := strings.Replace(string(renderAlicloudState(t, "db_instance", facts)), `"db_param_group_id": ""`, `"db_param_group_id": "`+id+`"`, 1)
	moved := c.move(t, alicloudProvider, "alicloud_db_instance", "rds_instance", []byte(source))
	state, err := moved.TargetState.Unmarshal(c.w.h.objType("rds_instance"))
	if err != nil || diagsHaveError(moved.Diagnostics) {
		t.Fatalf("move: %v %s", err, diagText(moved.Diagnostics))
	}
	if got := attrOf(state, "parameter_group_id"); !got.Equal(tftypes.NewValue(tftypes.String, id)) {
		t.Fatalf("parameter_group_id after the move = %s, want %s", got, id)
	}
}
