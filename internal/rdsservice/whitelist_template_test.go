package rdsservice

import (
	"fmt"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Issue 42 §2: a template's refusals at once (name, entries, a name another template holds); the
// template's own name is no conflict; template ids are whole numbers.
func TestWhitelistTemplateProblems(t *testing.T) {
	existing := []rdsapi.WhitelistTemplate{{TemplateID: 7, TemplateName: "office"}}
	got := ruleIDs(WhitelistTemplateProblems(WhitelistTemplateSpec{Name: "office", IPs: []string{"10.0.0.300"}}, 0, existing))
	if fmt.Sprint(got) != fmt.Sprint([]RuleID{RuleSecurityIP, RuleTemplateNameTaken}) {
		t.Fatalf("problems %v", got)
	}
	if ps := WhitelistTemplateProblems(WhitelistTemplateSpec{Name: "office", IPs: []string{"10.0.0.1"}}, 7, existing); len(ps) != 0 {
		t.Fatalf("its own name: %v", ruleIDs(ps))
	}
	if got := ruleIDs(WhitelistTemplateProblems(WhitelistTemplateSpec{Name: " "}, 0, nil)); fmt.Sprint(got) != fmt.Sprint([]RuleID{RuleTemplateName, RuleTemplateEmpty}) {
		t.Fatalf("no name, no entries: %v", got)
	}
	if got := ruleIDs(TemplateIDProblems([]string{"12", "office", "-1"})); len(got) != 2 {
		t.Fatalf("ids: %v", got)
	}
}
