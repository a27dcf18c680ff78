package provider

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// destroyStep is the end of a terraform test: destroy everything, then CheckDestroy (no instance
// left in the region but keep).
func (w *oracleWorld) destroyStep(t *testing.T, env *testEnv, keep ...string) {
	t.Helper()
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed(keep...)(nil); err != nil {
		t.Error(err)
	}
}

// runChecks runs a step's checks, each failure an error of the step name.
func runChecks(t *testing.T, name string, checks ...resource.TestCheckFunc) {
	t.Helper()
	for _, c := range checks {
		if err := c(nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// plannedAction asserts the action plan planned for addr.
func plannedAction(t *testing.T, name string, plan *oraclePlan, addr string, want oracleAction) {
	t.Helper()
	if got := plan.res[addr].action; got != want {
		t.Errorf("%s: planned %s for %s, want %s", name, got, addr, want)
	}
}

// stringSetOf is v, a set or list of strings, sorted (nil when null).
func stringSetOf(t *testing.T, what string, v tftypes.Value) []string {
	t.Helper()
	if v.IsNull() {
		return nil
	}
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		var s string
		if err := e.As(&s); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// expectStrings asserts a set of strings (state or plan) equals want, in any order.
func expectStrings(t *testing.T, what string, v tftypes.Value, want ...string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	if got := stringSetOf(t, what, v); !slices.Equal(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// valueIs compares v with a Go value: nil (null), bool, string or int.
func valueIs(v tftypes.Value, want any) error {
	if want == nil {
		if !v.IsNull() {
			return fmt.Errorf("%s, want null", shortValue(v))
		}
		return nil
	}
	var got any
	var err error
	switch want.(type) {
	case bool:
		var b bool
		err, got = v.As(&b), b
	case string:
		var s string
		err, got = v.As(&s), s
	case int:
		var n big.Float
		err = v.As(&n)
		i, _ := n.Int64()
		got = int(i)
	default:
		return fmt.Errorf("valueIs: unsupported %T", want)
	}
	if err != nil || got != want {
		return fmt.Errorf("%s (%v), want %v", shortValue(v), err, want)
	}
	return nil
}

// stateIs checks addr's state attribute against want (see valueIs), as TestCheckResourceAttr does.
func (w *oracleWorld) stateIs(addr, attr string, want any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if err := valueIs(attrOf(w.state[addr], attr), want); err != nil {
			return fmt.Errorf("state %s.%s: %v", addr, attr, err)
		}
		return nil
	}
}

// plannedIs checks a planned attribute of addr against want (see valueIs).
func plannedIs(t *testing.T, name string, plan *oraclePlan, addr, attr string, want any) {
	t.Helper()
	if err := valueIs(attrOf(plan.res[addr].planned, attr), want); err != nil {
		t.Errorf("%s: planned %s.%s: %v", name, addr, attr, err)
	}
}
