package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
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
