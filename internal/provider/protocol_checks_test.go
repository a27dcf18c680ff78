package provider

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// The checks of a terraform acceptance step at the plugin protocol, shared by the *_protocol_test.go
// files: a step with its Check functions, the plan checks (ExpectResourceAction, ExpectKnownValue,
// ExpectEmptyPlan) and the state checks.

// runChecks runs a step's checks, each failure an error of the step name.
func runChecks(t *testing.T, name string, checks ...resource.TestCheckFunc) {
	t.Helper()
	for _, c := range checks {
		if err := c(nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// applyChecked is a terraform step with Check: the apply, then checks on the state it wrote, then
// the plan that must be empty. It returns the apply's plan and fails the test on an error.
func (w *oracleWorld) applyChecked(t *testing.T, name string, order []oracleResource, checks ...resource.TestCheckFunc) *oraclePlan {
	t.Helper()
	plan, err := w.applyStep(order, func() { runChecks(t, name, checks...) })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return plan
}

// expectEmptyPlan is plancheck.ExpectEmptyPlan on a step's plan.
func expectEmptyPlan(t *testing.T, name string, plan *oraclePlan) {
	t.Helper()
	for addr, p := range plan.res {
		if p.action != actNoop {
			t.Errorf("%s: the plan is not empty: %s %s", name, addr, p.action)
		}
	}
}

// expectAction checks the action planned for addr.
func expectAction(t *testing.T, name string, plan *oraclePlan, addr string, want oracleAction) {
	t.Helper()
	p := plan.res[addr]
	if p == nil {
		t.Errorf("%s: no plan for %s, want %s", name, addr, want)
		return
	}
	if p.action != want {
		t.Errorf("%s: planned %s for %s, want %s", name, p.action, addr, want)
	}
}

// expectPlanned is plancheck.ExpectKnownValue: addr's planned attr is known and equals want (a
// configuration value as oracleResource attrs hold them).
func expectPlanned(t *testing.T, name string, plan *oraclePlan, addr, attr string, want any) {
	t.Helper()
	p := plan.res[addr]
	if p == nil {
		t.Errorf("%s: no plan for %s", name, addr)
		return
	}
	got := attrOf(p.planned, attr)
	if !got.IsFullyKnown() || !sameValue(toValue(got.Type(), want, nil), got) {
		t.Errorf("%s: %s planned %s = %s, want %v", name, addr, attr, shortValue(got), want)
	}
}

// warningText is the summaries and details of the warnings among ds, one per line.
func warningText(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			parts = append(parts, d.Summary+": "+oneLine(d.Detail))
		}
	}
	return strings.Join(parts, "\n")
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
