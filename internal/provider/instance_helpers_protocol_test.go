package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
