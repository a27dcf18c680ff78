package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Plan-side behaviour of issue 23 section 2 and issue 31 section 1: what the plan shows is what
// the apply does, and what the cloud would refuse is refused at plan.
// The steps that need no terraform process run at the plugin protocol in program_protocol_test.go
// (TestInstanceWaitingParameterInPlaceChanges and the others there); the terraform tests here
// keep what needs one (import with generated configuration).

// Issue 23 item 3, the plan's words: a rename and a storage growth leave a value set outside
// Terraform waiting; the plan names it, its running value and what will apply it, and turning
// prevent_restart on is not refused for it.
func TestModifyPlanNamesWaitingParameter(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err := env.api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "5000"}}); err != nil {
		t.Fatal(err)
	}
	base := nullModel()
	base.ID = types.StringValue(id)
	base.Parameters = types.MapValueMust(types.StringType, map[string]attr.Value{"innodb_io_capacity": types.StringValue("20000")})
	state := readWith(t, env, base)
	config, plan := updateInputs(state, func(c *instanceModel) {
		c.InstanceName, c.Storage, c.Parameters = types.StringValue("renamed"), types.Int64Value(25), state.Parameters
	})
	plan.Parameters, plan.ParametersPending = config.Parameters, types.MapUnknown(types.StringType)
	res := runModifyPlan(t, env, &config, &plan, &state)
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("parameters"), "Parameters of "+id+" wait for a restart this apply does not make",
		"set outside Terraform: back_log = 5000.", "they keep waiting", "RestartDBInstance")

	config, plan = updateInputs(state, func(c *instanceModel) {
		c.PreventRestart, c.Parameters = types.BoolValue(true), state.Parameters
	})
	plan.Parameters, plan.ParametersPending = config.Parameters, types.MapUnknown(types.StringType)
	res = runModifyPlan(t, env, &config, &plan, &state)
	for _, d := range res.diags {
		if d.Severity() == diag.SeverityError || strings.Contains(d.Summary(), "restarts") {
			t.Fatalf("turning prevent_restart on with a waiting value: %v", res.diags)
		}
	}
}

// scheduleToggleOn orders the primary's 16K atomic write on for its maintenance window, as an
// earlier apply with apply_restarts = "in_maintenance_window" does.
func scheduleToggleOn(t *testing.T, env *testEnv, primary string) {
	t.Helper()
	// The seed's window (18:00Z-22:00Z) is open for part of the day, and the cloud runs a change
	// ordered for an open window at once: the task waits only for a window that is closed now.
	if err := env.api.ModifyDBInstanceMaintainTime(context.Background(), primary, realClockWindow); err != nil {
		t.Fatal(err)
	}
	_, err := env.api.ModifyDBInstanceSpec(context.Background(), &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: primary,
		DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 100, PayType: rdsapi.PayTypePostpaid, EffectiveTime: "MaintainTime",
		OptimizedWrites: rdsapi.OptimizedWritesOn})
	if err != nil {
		t.Fatal(err)
	}
}

// Issue 23 item 10: a new read-only instance added while its primary's toggle waits for the
// window names the restart it gets then; with prevent_restart = true it is refused, as the
// primary's own guard refuses the toggle.
func TestReadonlyModifyPlanPrimaryToggleScheduled(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	scheduleToggleOn(t, env, primary)
	r, s := roResource(t, env)
	cfg := roConfig(primary)
	res := roModifyPlan(t, r, s, cfg, roPlannedCreate(s, cfg), nil)
	w := roFindDiag(t, res.diags, diag.SeverityWarning, "atomic_write_16k")
	roWantContains(t, "warning", w.Summary()+"\n"+w.Detail(), `the new read-only instance "reporting"`,
		"follows its primary "+primary+" turning atomic_write_16k on", "restarts in the maintenance window of its primary "+primary+" (starts 20")
	if res.diags.HasError() {
		t.Fatalf("errors: %v", res.diags)
	}
	guarded := roMerge(cfg, roVals{"prevent_restart": true})
	res = roModifyPlan(t, r, s, guarded, roPlannedCreate(s, guarded), nil)
	e := roFindDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	roWantContains(t, "error", e.Summary()+"\n"+e.Detail(), "prevent_restart refuses this plan", "follows its primary "+primary)
	// An existing read-only instance that is off: the same restart, the same refusal.
	ro := roSeedReadonly(t, env, primary, false)
	state := roState(ro, primary, false)
	res = roModifyPlan(t, r, s, roMerge(cfg, roVals{"prevent_restart": true}), roMerge(state, roVals{"prevent_restart": true}), state)
	e = roFindDiag(t, res.diags, diag.SeverityError, "atomic_write_16k")
	roWantContains(t, "error", e.Detail(), ro, "follows its primary "+primary)
}

// Issue 23 item 8: importing an instance whose change waits for its window shows the change
// (scheduled_change) and imports apply_restarts = "in_maintenance_window", so configuration
// generated from the state keeps the change scheduled instead of ordering it at once.
func TestAccImportInstanceWithScheduledChange(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	id := roSeedPrimary(t, env, false)
	scheduleToggleOn(t, env, id)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{{
			Config: requiredProviders() + env.providerBlock() + `
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 100
}
`,
			ResourceName:       testRes,
			ImportState:        true,
			ImportStateId:      id,
			ImportStatePersist: true,
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if len(states) != 1 {
					return fmt.Errorf("%d states imported", len(states))
				}
				a := states[0].Attributes
				if a["apply_restarts"] != "in_maintenance_window" || a["scheduled_change.task_id"] == "" || a["scheduled_change.starts_at"] == "" {
					return fmt.Errorf("imported apply_restarts %q, scheduled_change task %q starting %q", a["apply_restarts"],
						a["scheduled_change.task_id"], a["scheduled_change.starts_at"])
				}
				if !strings.Contains(a["scheduled_change.changes.0"], "atomic_write_16k") {
					return fmt.Errorf("scheduled_change does not say what it changes: %v", a)
				}
				return nil
			},
		}, {
			// The configuration the imported state describes: nothing to order again.
			Config: env.providerBlock() + `
resource "rds_instance" "test" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 100
  atomic_write_16k   = true
  apply_restarts     = "in_maintenance_window"
}
`,
			PlanOnly: true,
		}},
	})
}

// Issue 23 item 9: the plan's "when" is the cloud's: after the simulator's clock moved ten hours
// ahead, the window the plan names is the one the cloud will use (scheduled_change.starts_at).
func TestModifyPlanWhenUsesTheCloudClock(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	id := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	h := (time.Now().UTC().Hour() + 5) % 24
	window := fmt.Sprintf("%02d:00Z-%02d:00Z", h, (h+1)%24)
	if err := env.api.ModifyDBInstanceMaintainTime(context.Background(), id, window); err != nil {
		t.Fatal(err)
	}
	env.sim.AdvanceClock(10 * time.Hour)
	state := stateOf(t, env, id)
	config, plan := updateInputs(state, func(c *instanceModel) {
		c.AtomicWrite16K = types.BoolValue(true)
		c.ApplyRestarts, c.MaintenanceWindow = types.StringValue("in_maintenance_window"), types.StringValue(window)
	})
	plan.ApplyRestarts, plan.MaintenanceWindow = config.ApplyRestarts, config.MaintenanceWindow
	res := runModifyPlan(t, env, &config, &plan, &state)
	w, _ := rdsservice.ParseMaintenanceWindow(window)
	cloudStart, _ := w.Next(time.Now().Add(10 * time.Hour))
	localStart, _ := w.Next(time.Now())
	if cloudStart.Equal(localStart) {
		t.Fatalf("the test needs a window whose next start differs by clock")
	}
	wantDiag(t, res.diags, diag.SeverityWarning, path.Root("apply_restarts"), "in the maintenance window",
		"(next: "+cloudStart.UTC().Format("2006-01-02T15:04Z")+")")
}
