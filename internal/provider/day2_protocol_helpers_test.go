package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Helpers of the day-2, backup and unusual-states tests played at the plugin protocol.

// applyFailsWith is a terraform step with ExpectError whose plan succeeds and whose apply fails:
// the plan must succeed, the apply must fail with an error matching want. It returns the plan (its
// warnings are the step's promises) and the apply's error; the state keeps what the apply wrote.
func (w *oracleWorld) applyFailsWith(t *testing.T, name string, order []oracleResource, want *regexp.Regexp) (*oraclePlan, string) {
	t.Helper()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if plan.errAt != "" {
		t.Fatalf("%s: the plan failed at %s: %s, want it to succeed and the apply to fail", name, plan.errAt, plan.errMsg)
	}
	res, err := w.applyWalk(order, plan)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.errAt == "" {
		t.Fatalf("%s: the apply succeeded, want an error matching %s", name, want)
	}
	expectErrorText(t, name, res.errMsg, want)
	return plan, res.errMsg
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

// expectWarning checks that addr's plan warns with text matching want.
func expectWarning(t *testing.T, name string, plan *oraclePlan, addr string, want *regexp.Regexp) {
	t.Helper()
	p := plan.res[addr]
	if p == nil {
		t.Errorf("%s: no plan for %s", name, addr)
		return
	}
	if text := warningText(p.diags); !want.MatchString(text) {
		t.Errorf("%s: %s warns %q, want a warning matching %s", name, addr, text, want)
	}
}

// applyChecked is a terraform step with Check, for configurations without testRes (checkedStep
// reads its id): the apply, then checks on what it left, then the plan that must be empty.
func (w *oracleWorld) applyChecked(t *testing.T, name string, order []oracleResource, checks ...resource.TestCheckFunc) *oraclePlan {
	t.Helper()
	plan, err := w.applyStep(order, func() {
		for _, c := range checks {
			if err := c(nil); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return plan
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
