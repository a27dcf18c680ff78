package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Instances that are Stopped, locked or being deleted (issue 19 item 7): the plan names the
// instance, its state and the fix; the apply fails at once; an import of a Deleting instance is
// refused.

func seedMySQL(t *testing.T, env *testEnv) string {
	return seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", OptimizedWrites: true})
}

func setState(t *testing.T, env *testEnv, id string, st simulator.InstanceState) {
	t.Helper()
	if err := env.sim.SetInstanceState(id, st); err != nil {
		t.Fatal(err)
	}
}

// diagsWith returns the diagnostics of severity sev whose summary contains summary.
func diagsWith(diags diag.Diagnostics, sev diag.Severity, summary string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range diags {
		if d.Severity() == sev && strings.Contains(d.Summary(), summary) {
			out = append(out, d)
		}
	}
	return out
}

func TestModifyPlanNamesInstanceStates(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	classChange := func(c *instanceModel) { c.InstanceType = types.StringValue("mysql.n2.large.2c") }
	rename := func(c *instanceModel) { c.InstanceName = types.StringValue("renamed") }
	cases := []struct {
		name     string
		state    simulator.InstanceState
		change   func(c *instanceModel)
		severity diag.Severity
		summary  string
		detail   []string
		errors   int
	}{
		{"stopped, class change", simulator.InstanceState{Status: "Stopped"}, classChange, diag.SeverityWarning, "is Stopped",
			[]string{"refuses every change", "Start it"}, 0},
		{"stopped, rename", simulator.InstanceState{Status: "Stopped"}, rename, diag.SeverityWarning, "is Stopped", []string{"Start it"}, 0},
		{"deleting, rename", simulator.InstanceState{Status: "Deleting", ForMS: 600000}, rename, diag.SeverityError, "is being deleted",
			[]string{"released outside this Terraform run", "terraform state rm"}, 1},
		{"expired, class change", simulator.InstanceState{LockMode: "LockByExpiration"}, classChange, diag.SeverityWarning, "is locked",
			[]string{"lock_mode LockByExpiration", "Renew the subscription"}, 0},
		{"disk full, rename", simulator.InstanceState{LockMode: "LockByDiskQuota"}, rename, diag.SeverityWarning, "is locked",
			[]string{"lock_mode LockByDiskQuota", "grow storage"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := seedMySQL(t, env)
			setState(t, env, id, c.state)
			state := stateOf(t, env, id)
			config, plan := updateInputs(state, c.change)
			res := runModifyPlan(t, env, &config, &plan, &state)
			found := diagsWith(res.diags, c.severity, "RDS instance "+id+" "+c.summary)
			if len(found) != 1 || res.diags.ErrorsCount() != c.errors {
				t.Fatalf("want one %v %q (and %d errors), got %v", c.severity, c.summary, c.errors, res.diags)
			}
			for _, w := range c.detail {
				if !strings.Contains(found[0].Detail(), w) {
					t.Errorf("detail does not say %q:\n%s", w, found[0].Detail())
				}
			}
			if p, ok := found[0].(diag.DiagnosticWithPath); !ok || !p.Path().Equal(path.Root("status")) {
				t.Errorf("diagnostic not at status: %v", found[0])
			}
			if c.errors > 0 && len(diagsWith(res.diags, diag.SeverityWarning, "restarts")) > 0 {
				t.Errorf("a refused plan names no restart: %v", res.diags)
			}
			// A lock may be lifted before the apply (the fix the plan names): lock_mode is known only then.
			if locked := c.state.LockMode != ""; c.errors == 0 && locked != res.plan.LockMode.IsUnknown() {
				t.Errorf("planned lock_mode %v for lock %q", res.plan.LockMode, c.state.LockMode)
			}
		})
	}

	// Growing storage is the way out of a disk-quota lock: no lock warning.
	id := seedMySQL(t, env)
	setState(t, env, id, simulator.InstanceState{LockMode: "LockByDiskQuota"})
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) { c.Storage = types.Int64Value(40) })
	if res := runModifyPlan(t, env, &config, &plan, &state); len(diagsWith(res.diags, diag.SeverityWarning, "is locked")) != 0 || res.diags.HasError() {
		t.Errorf("growing storage under a disk-quota lock: %v", res.diags)
	}
}

func totalRequests(env *testEnv) int {
	n := 0
	for _, c := range env.sim.Stats().Requests {
		n += c
	}
	return n
}

// A plan that changes nothing: a Deleting or locked instance still warns (from the refreshed
// state, without an API call); a Stopped one does not (its owner stopped it; status shows it).
func TestModifyPlanUnchangedInstanceStates(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	for _, c := range []struct {
		state   simulator.InstanceState
		summary string
	}{
		{simulator.InstanceState{Status: "Stopped"}, ""},
		{simulator.InstanceState{Status: "Deleting", ForMS: 600000}, "is being deleted"},
		{simulator.InstanceState{LockMode: "ManualLock"}, "is locked"},
		{simulator.InstanceState{}, ""},
	} {
		id := seedMySQL(t, env)
		setState(t, env, id, c.state)
		state := stateOf(t, env, id)
		config, _ := updateInputs(state, func(*instanceModel) {})
		env.sim.ResetStats()
		res := runModifyPlan(t, env, &config, &state, &state)
		if n := totalRequests(env); n != 0 {
			t.Errorf("%+v: an unchanged plan made %d API calls", c.state, n)
		}
		if c.summary == "" {
			wantNoDiags(t, res.diags)
			continue
		}
		if len(res.diags) != 1 || len(diagsWith(res.diags, diag.SeverityWarning, "RDS instance "+id+" "+c.summary)) != 1 {
			t.Errorf("%+v: want one warning %q, got %v", c.state, c.summary, res.diags)
		}
	}
}

// Importing an instance that is being deleted is refused with the way out; a Stopped or locked
// instance imports (its status and lock_mode show what it is).
func TestImportRefusesADeletingInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	primary := seedMySQL(t, env)
	ro := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability", MasterID: primary, OptimizedWrites: true})
	stopped := seedMySQL(t, env)
	setState(t, env, stopped, simulator.InstanceState{Status: "Stopped", LockMode: "ManualLock"})
	setState(t, env, primary, simulator.InstanceState{Status: "Deleting", ForMS: 600000}) // takes ro with it

	importInto := func(r resource.ResourceWithImportState, s tfsdk.State, id string) diag.Diagnostics {
		resp := resource.ImportStateResponse{State: s}
		r.ImportState(context.Background(), resource.ImportStateRequest{ID: id}, &resp)
		return resp.Diagnostics
	}
	is := instanceSchema(t)
	emptyInstance := tfsdk.State{Schema: is, Raw: rawOf(t, is, nil)}
	var rs resource.SchemaResponse
	(&readonlyInstanceResource{}).Schema(context.Background(), resource.SchemaRequest{}, &rs)
	emptyRO := tfsdk.State{Schema: rs.Schema, Raw: tftypes.NewValue(rs.Schema.Type().TerraformType(context.Background()), nil)}

	for _, c := range []struct {
		diags diag.Diagnostics
		id    string
	}{
		{importInto(&instanceResource{data: env.data}, emptyInstance, primary), primary},
		{importInto(&readonlyInstanceResource{data: env.data}, emptyRO, ro), ro},
	} {
		if c.diags.ErrorsCount() != 1 || !strings.Contains(c.diags.Errors()[0].Summary(), "being deleted") ||
			!strings.Contains(c.diags.Errors()[0].Detail(), c.id+" is Deleting") || !strings.Contains(c.diags.Errors()[0].Detail(), "Import another instance") {
			t.Errorf("import of Deleting %s: %v", c.id, c.diags)
		}
	}
	if d := importInto(&instanceResource{data: env.data}, emptyInstance, stopped); d.HasError() {
		t.Errorf("a Stopped, locked instance imports: %v", d)
	}
	st := stateOf(t, env, stopped)
	if st.Status.ValueString() != "Stopped" || st.LockMode.ValueString() != "ManualLock" {
		t.Errorf("status %v, lock_mode %v", st.Status, st.LockMode)
	}
}

// Destroying an account or database whose instance is being released elsewhere succeeds at once:
// they go with the instance, so there is nothing left to delete and nothing to wait for. The
// family's terraform test; TestInstanceStates_applyFailsFast (unusual_states_protocol_test.go)
// plays the failing applies at the plugin protocol.
func TestAccInstanceStates_accessDestroyOnDeletingInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	config := accountConfig(env, id, passwordLines("First-pass1", 1)) + fmt.Sprintf(`
resource "rds_database" "orders" {
  instance_id = %q
  name        = "orders"
  timeouts    = { delete = "1m" }
}
`, id)
	tfresource.Test(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: config},
			{
				// The instance is released outside Terraform (and stays Deleting for the whole step).
				PreConfig: func() {
					setState(t, env, id, simulator.InstanceState{Status: "Deleting", ForMS: 10 * 60 * 1000})
					env.sim.ResetStats()
				},
				Config: env.providerBlock(),
				Check: func(*terraform.State) error {
					st := env.sim.Stats().Requests
					if st["DeleteAccount"] > 1 || st["DeleteDatabase"] > 1 {
						return fmt.Errorf("deletes were retried on a Deleting instance: %v", st)
					}
					return nil
				},
			},
		},
	})
}
