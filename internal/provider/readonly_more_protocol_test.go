package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// More of the read-only family at the plugin protocol. The family keeps
// TestAccReadonlyInstanceCountAndImport and TestAccReadonlyInstanceInheritAndCascade
// (readonly_instance_resource_test.go) with terraform.

// false on a read-only instance of an existing primary that has it on fails at plan time, and
// nothing is sent to the cloud.
func TestReadonlyInstanceOffRejectedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	primaryOn := func(withRO bool) []oracleResource {
		order := readonlyOnResources(withRO, "mysqlro.n2.medium.1c", 100, false)
		order[0].attrs["atomic_write_16k"] = true
		return order
	}
	protocolStep(t, w, "primary", primaryOn(false))
	env.sim.ResetStats()
	plan, err := w.planWalk(primaryOn(true))
	if err != nil {
		t.Fatal(err)
	}
	if plan.errAt != testRO {
		t.Errorf("off: the plan failed at %q (%s), want at %s", plan.errAt, plan.errMsg, testRO)
	}
	expectErrorText(t, "off", w.planErrorOf(t, primaryOn(true)), roAccOffError)
	protocolStep(t, w, "primary again", primaryOn(false), func(*terraform.State) error {
		if n := env.mutations(); n != 0 {
			return fmt.Errorf("%d mutating requests were sent for a configuration refused at plan time", n)
		}
		return nil
	})
	destroyAll(t, w, roAccCheckDestroy(env))
}
