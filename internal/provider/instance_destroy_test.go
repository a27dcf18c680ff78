package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The plan of a primary's destroy is rendered from its program: the keep policy the release sends
// and the read-only instances the cloud releases with it, with no write; the destroy then sends one
// DeleteDBInstance (the read-only instance goes with its primary) and both are gone.
func TestDestroyOfPrimaryRendersAndRunsItsProgram(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	ctx := context.Background()
	primary := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	ro := seed(t, env, simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysqlro.n2.medium.1c",
		Storage: 20, StorageType: "cloud_essd", MasterID: primary})
	state := stateOf(t, env, primary)
	state.ReleasedKeepPolicy = types.StringValue("Lastest")
	config, _ := updateInputs(state, func(*instanceModel) {})
	var said []string
	for _, d := range runModifyPlan(t, env, &config, nil, &state).diags {
		said = append(said, d.Severity().String()+": "+d.Summary())
	}
	want := []string{"Warning: Releasing " + primary + " keeps its latest backup set",
		"Warning: Releasing " + primary + " also releases its read-only instances " + ro}
	if strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the destroy's plan says:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}

	s := instanceSchema(t)
	req := resource.DeleteRequest{State: tfsdk.State{Schema: s, Raw: rawOf(t, s, &state)}}
	resp := resource.DeleteResponse{State: tfsdk.State{Schema: s, Raw: req.State.Raw}}
	(&instanceResource{data: env.data}).Delete(ctx, req, &resp)
	if resp.Diagnostics.HasError() || env.requests("DeleteDBInstance") != 1 {
		t.Fatalf("destroy: %v, %d DeleteDBInstance", resp.Diagnostics, env.requests("DeleteDBInstance"))
	}
	for _, id := range []string{primary, ro} {
		if _, err := env.api.DescribeDBInstanceAttribute(ctx, id); err == nil {
			t.Errorf("%s still exists after the destroy", id)
		}
	}
}
