package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// A new cloud-disk instance always keeps its latest set: another released_keep_policy is a plan
// error with no write; Lastest is accepted, kept in state across a refresh, and changing it is an
// update with no API write; the destroy releases the instance. The steps and checks of a terraform
// test, played at the plugin protocol (TestAccInstance_createToggleNoopImport in
// instance_resource_test.go keeps the instance family's terraform test).
func TestInstance_releasedKeepPolicy(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	policy := func(p any) []oracleResource {
		return instanceResources("mysql.n2.medium.2c", 20, map[string]any{"released_keep_policy": p})
	}
	expectErrorText(t, "None", w.planErrorOf(t, policy("None")),
		regexp.MustCompile(`(?s)released_keep_policy = "None".*created on or after 2024-02-01.*Fix: set released_keep_policy\s+= "Lastest"`))
	if n := env.mutations(); n != 0 {
		t.Fatalf("%d writes for a refused plan", n)
	}
	w.checkedStep(t, "Lastest", policy("Lastest"), &id, w.stateIs(testRes, "released_keep_policy", "Lastest"))
	expectErrorText(t, "Sometimes", w.planErrorOf(t, policy("Sometimes")),
		regexp.MustCompile(`(?s)released_keep_policy = "Sometimes" must be Lastest.*the only value for an instance on cloud disks`))
	env.sim.ResetStats()
	plan := w.checkedStep(t, "unset", policy(nil), &id, func(*terraform.State) error {
		if n := env.mutations(); n != 0 {
			return fmt.Errorf("%d API writes for a released_keep_policy change", n)
		}
		return nil
	})
	expectAction(t, "unset", plan, testRes, actUpdate)
	expectPlanned(t, "unset", plan, testRes, "released_keep_policy", nil)
	w.destroyStep(t, env)
	if n := env.requests("DeleteDBInstance"); n != 1 {
		t.Errorf("DeleteDBInstance requests = %d", n)
	}
}
