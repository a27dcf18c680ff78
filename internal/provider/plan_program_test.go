package provider

import (
	"fmt"
	"regexp"
	"testing"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Plan-side behaviour of issue 23 section 2 and issue 31 section 1: what the plan shows is what
// the apply does, and what the cloud would refuse is refused at plan.

// roOfLiteral declares one read-only instance of a literal master id.
func roOfLiteral(master string) string {
	return fmt.Sprintf(`
resource "rds_readonly_instance" "ro" {
  master_instance_id = %q
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
  instance_name      = "reporting"
}
`, master)
}

// Issue 31 §1: a read-only instance of a read-only instance is refused at plan, from the instance
// the plan has already read; CreateReadOnlyDBInstance is never sent.
func TestAccReadonlyInstanceOfReadOnlyRefusedAtPlan(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	replica := roSeedReadonly(t, env, primary, false)
	acc.Test(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				PreConfig:   env.sim.ResetStats,
				Config:      env.providerBlock() + roOfLiteral(replica),
				ExpectError: regexp.MustCompile(`(?s)The primary instance is itself a read-only instance.*Set master_instance_id to the\s+primary ` + primary),
			},
			{
				Config: env.providerBlock(),
				Check: func(*terraform.State) error {
					if n := env.mutations(); n != 0 {
						return fmt.Errorf("%d mutating requests (CreateReadOnlyDBInstance: %d) for a plan refused at plan time", n, env.requests("CreateReadOnlyDBInstance"))
					}
					return nil
				},
			},
		},
	})
}
