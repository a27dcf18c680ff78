package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The parameters family keeps one terraform test, TestAccInstanceParameters_importStable (an
// import step); the rest run at the plugin protocol in
// parameters_protocol_test.go and parameters_more_protocol_test.go
// (TestInstanceParameters_onlineRestartDriftImport, TestInstanceParameters_refusedAtPlan, ...).

// parametersBlock renders a parameters map in a stable order.
func parametersBlock(params map[string]string) string {
	if params == nil {
		return ""
	}
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("  parameters = {\n")
	for _, n := range names {
		fmt.Fprintf(&b, "    %s = %q\n", n, params[n])
	}
	b.WriteString("  }\n")
	return b.String()
}

// paramCounts asserts restarts of *id and the ModifyParameter/ModifyDBInstanceSpec requests so far.
func (e *testEnv) paramCounts(id *string, restarts, modifyParameter, specs int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := e.restarts(*id); got != restarts {
			return fmt.Errorf("instance %s restarted %d times, want %d", *id, got, restarts)
		}
		if got := e.requests("ModifyParameter"); got != modifyParameter {
			return fmt.Errorf("%d ModifyParameter requests, want %d", got, modifyParameter)
		}
		if got := e.requests("ModifyDBInstanceSpec"); got != specs {
			return fmt.Errorf("%d ModifyDBInstanceSpec requests, want %d", got, specs)
		}
		return nil
	}
}

// running reads one running parameter value straight from the simulator.
func (e *testEnv) running(t *testing.T, id, name string) string {
	t.Helper()
	answer, err := e.api.DescribeParameters(context.Background(), id)
	if err != nil {
		t.Fatalf("DescribeParameters: %v", err)
	}
	return answer.RunningParameters.Values()[name]
}

// outside changes a parameter as someone with the console would.
func (e *testEnv) outside(t *testing.T, id *string, name, value string) func() {
	return func() {
		err := e.api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: *id, Parameters: map[string]string{name: value}})
		if err != nil {
			t.Fatalf("changing %s outside Terraform: %v", name, err)
		}
	}
}

func paramState(name, value string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(testRes, tfjsonpath.New("parameters").AtMapKey(name), knownvalue.StringExact(value))
}

// Import into a configuration that manages parameters the instance already runs: the first apply
// records them without a write or a restart, and the plan after it is empty.
func TestAccInstanceParameters_importStable(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err := env.api.ModifyDBInstanceDescription(context.Background(), id, "acctest"); err != nil {
		t.Fatal(err)
	}
	for name, value := range map[string]string{"innodb_io_capacity": "4000", "innodb_read_io_threads": "8"} {
		env.outside(t, &id, name, value)()
	}
	if err := env.api.RestartDBInstance(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := env.data.Waiter.WaitRunning(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	params := map[string]string{"innodb_io_capacity": "4000", "innodb_read_io_threads": "8"}
	cfg := env.instanceConfig(parametersBlock(params))
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", testRes, id)
	before := env.mutations() + env.requests("ModifyParameter")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				// An import block: the plan imports the instance; parameters that already run are not a change.
				Config: cfg + importBlock,
				ConfigStateChecks: []statecheck.StateCheck{
					paramState("innodb_io_capacity", "4000"), paramState("innodb_read_io_threads", "8"),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("parameters_pending"), knownvalue.MapSizeExact(0)),
				},
				Check: func(*terraform.State) error {
					if n := env.mutations() + env.requests("ModifyParameter") - before; n != 0 {
						return fmt.Errorf("the import apply made %d writes (%v), want 0", n, env.sim.Stats().Requests)
					}
					if n := env.restarts(id); n != 1 {
						return fmt.Errorf("%d restarts, want only the one before the import", n)
					}
					return nil
				},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// Refresh costs one API call per instance without parameters and two with.
func TestReadParametersCallCount(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	env.sim.ResetStats()
	state := stateOf(t, env, id)
	if n, p := env.requests("DescribeDBInstanceAttribute"), env.requests("DescribeParameters"); n != 1 || p != 0 {
		t.Fatalf("refresh without parameters: %d DescribeDBInstanceAttribute, %d DescribeParameters; want 1 and 0", n, p)
	}
	if !state.Parameters.IsNull() || !state.ParametersPending.IsNull() {
		t.Fatalf("unmanaged parameters read: %v %v", state.Parameters, state.ParametersPending)
	}

	managed := nullModel()
	managed.ID = types.StringValue(id)
	managed.Parameters = types.MapValueMust(types.StringType, map[string]attr.Value{"binlog_format": types.StringValue("row")})
	env.sim.ResetStats()
	got := readWith(t, env, managed)
	if n, p := env.requests("DescribeDBInstanceAttribute"), env.requests("DescribeParameters"); n != 1 || p != 1 {
		t.Fatalf("refresh with parameters: %d DescribeDBInstanceAttribute, %d DescribeParameters; want 1 and 1", n, p)
	}
	// The cloud answers ROW; the configured spelling stays, so no diff.
	if v := got.Parameters.Elements()["binlog_format"]; !v.Equal(types.StringValue("row")) {
		t.Fatalf("binlog_format read as %v", v)
	}
}

// The restart warning names the parameters, and a restart for a spec change names the waiting
// parameters it applies too.
func TestModifyPlanParametersRestartWarning(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	base := nullModel()
	base.ID = types.StringValue(id)
	base.Parameters = types.MapValueMust(types.StringType, map[string]attr.Value{"innodb_io_capacity": types.StringValue("20000")})
	state := readWith(t, env, base)

	withParams := func(p map[string]string) func(c *instanceModel) {
		return func(c *instanceModel) {
			elems := map[string]attr.Value{}
			for k, v := range p {
				elems[k] = types.StringValue(v)
			}
			c.Parameters = types.MapValueMust(types.StringType, elems)
		}
	}
	config, plan := updateInputs(state, withParams(map[string]string{"innodb_io_capacity": "4000"}))
	plan.Parameters, plan.ParametersPending = config.Parameters, types.MapUnknown(types.StringType)
	res := runModifyPlan(t, env, &config, &plan, &state)
	for _, d := range res.diags {
		if d.Severity() == diag.SeverityWarning && strings.Contains(d.Summary(), "restart") {
			t.Fatalf("an online change warns of a restart: %v", d)
		}
	}

	config, plan = updateInputs(state, withParams(map[string]string{"innodb_io_capacity": "20000", "innodb_read_io_threads": "8"}))
	plan.Parameters, plan.ParametersPending = config.Parameters, types.MapUnknown(types.StringType)
	res = runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("parameters"), "This apply restarts RDS instance "+id,
		"innodb_read_io_threads 4 -> 8", "take effect only after a restart")
	if !res.plan.ParametersPending.Equal(types.MapValueMust(types.StringType, map[string]attr.Value{})) {
		t.Errorf("planned parameters_pending = %v, want {} after the restart", res.plan.ParametersPending)
	}

	// A value waiting for a restart (set outside) is applied by a class change: the warning says so.
	if err := env.api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "5000"}}); err != nil {
		t.Fatal(err)
	}
	state = readWith(t, env, state)
	config, plan = updateInputs(state, func(c *instanceModel) {
		c.InstanceType = types.StringValue("mysql.n2.large.2c")
		c.Parameters = state.Parameters
	})
	plan.Parameters, plan.ParametersPending = config.Parameters, types.MapUnknown(types.StringType)
	res = runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("instance_type"), "This apply restarts RDS instance "+id,
		`instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"`, "also applies parameters already waiting for one (back_log = 5000)")
}
