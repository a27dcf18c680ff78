package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// More of the read-only family at the plugin protocol. The family keeps
// TestAccReadonlyInstanceCountAndImport and TestAccReadonlyInstanceInheritAndCascade
// (readonly_instance_resource_test.go) with terraform.

// offUnderPrimaryOn is a primary with 16K atomic write on and, withRO, a read-only instance with it
// off.
func offUnderPrimaryOn(withRO bool) []oracleResource {
	order := readonlyOnResources(withRO, "mysqlro.n2.medium.1c", 100, false)
	order[0].attrs["atomic_write_16k"] = true
	return order
}

// atomic_write_16k = false on a read-only instance of an existing primary that has it on fails at
// plan time, and nothing is sent to the cloud. At the plugin protocol; the family keeps TestAccReadonlyInstanceCountAndImport with terraform.
func TestReadonlyInstanceOffRejectedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "primary", offUnderPrimaryOn(false))
	env.sim.ResetStats()
	plan, err := w.planWalk(offUnderPrimaryOn(true))
	if err != nil {
		t.Fatal(err)
	}
	if plan.errAt != testRO {
		t.Errorf("off: the plan failed at %q (%s), want at %s", plan.errAt, plan.errMsg, testRO)
	}
	expectErrorText(t, "off", w.planErrorOf(t, offUnderPrimaryOn(true)), roAccOffError)
	w.applyChecked(t, "primary again", offUnderPrimaryOn(false), func(*terraform.State) error {
		if n := env.mutations(); n != 0 {
			return fmt.Errorf("%d mutating requests were sent for a configuration refused at plan time", n)
		}
		return nil
	})
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}

// With the primary created in the same apply its value is unknown at plan time: the same error
// comes at apply, before CreateReadOnlyDBInstance is sent.
// At the plugin protocol; the family keeps TestAccReadonlyInstanceCountAndImport with terraform.
func TestReadonlyInstanceOffRejectedAtApplyWhenPrimaryUnknown(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	_, err := w.applyStep(offUnderPrimaryOn(true))
	if err == nil || !strings.HasPrefix(err.Error(), "apply: "+testRO) {
		t.Errorf("both: %v, want the read-only instance's apply to fail", err)
	} else {
		expectErrorText(t, "both", err.Error(), roAccOffError)
	}
	w.applyChecked(t, "primary", offUnderPrimaryOn(false), env.wantRequests("CreateReadOnlyDBInstance", 0))
	destroyThenCheck(t, w, roAccCheckDestroy(env))
}

// Issue 31 §1: a read-only instance of a read-only instance is refused at plan, from the instance
// the plan has already read; CreateReadOnlyDBInstance is never sent.
// At the plugin protocol; the family keeps TestAccReadonlyInstanceCountAndImport with terraform.
func TestReadonlyInstanceOfReadOnlyRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	primary := roSeedPrimary(t, env, false)
	replica := roSeedReadonly(t, env, primary, false)
	env.sim.ResetStats()
	ro := []oracleResource{{addr: testRO, attrs: map[string]any{"master_instance_id": replica, "instance_type": "mysqlro.n2.medium.1c",
		"storage": 100, "instance_name": "reporting"}}}
	expectErrorText(t, "read-only of read-only", w.planErrorOf(t, ro),
		regexp.MustCompile(`(?s)The primary instance is itself a read-only instance.*Set master_instance_id to the\s+primary `+primary))
	w.applyChecked(t, "nothing", nil, func(*terraform.State) error {
		if n := env.mutations(); n != 0 {
			return fmt.Errorf("%d mutating requests (CreateReadOnlyDBInstance: %d) for a plan refused at plan time", n, env.requests("CreateReadOnlyDBInstance"))
		}
		return nil
	})
}
