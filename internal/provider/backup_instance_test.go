package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// A new cloud-disk instance always keeps its latest set: another released_keep_policy is a plan
// error with no write; Lastest is accepted, kept in state across a refresh, and changing it is an
// update with no API write; the destroy releases the instance.
func TestAccInstance_releasedKeepPolicy(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(env.checkDestroyed(), func(*terraform.State) error {
			if n := env.requests("DeleteDBInstance"); n != 1 {
				return fmt.Errorf("DeleteDBInstance requests = %d", n)
			}
			return nil
		}),
		Steps: []resource.TestStep{
			{
				Config:      env.instanceConfig(`  released_keep_policy = "None"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)released_keep_policy = "None".*created on or after 2024-02-01.*Fix: set released_keep_policy\s+= "Lastest"`),
			},
			{
				PreConfig: func() {
					if n := env.mutations(); n != 0 {
						t.Fatalf("%d writes for a refused plan", n)
					}
				},
				Config: env.instanceConfig(`  released_keep_policy = "Lastest"`),
				Check:  resource.TestCheckResourceAttr(testRes, "released_keep_policy", "Lastest"),
			},
			{
				Config:      env.instanceConfig(`  released_keep_policy = "Sometimes"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)released_keep_policy = "Sometimes" must be None`),
			},
			{
				PreConfig: func() { env.sim.ResetStats() },
				Config:    env.instanceConfig(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("released_keep_policy"), knownvalue.Null()),
				}},
				Check: func(*terraform.State) error {
					if n := env.mutations(); n != 0 {
						return fmt.Errorf("%d API writes for a released_keep_policy change", n)
					}
					return nil
				},
			},
		},
	})
}
