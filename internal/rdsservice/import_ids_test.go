package rdsservice

import (
	"slices"
	"testing"
)

// An access resource's import id has exactly its parts, none empty, and a grant's privilege is
// one the API takes; each refusal is a row of the table naming the format and an example.
func TestSplitImportID(t *testing.T) {
	const grant, grantExample = "<instance_id>:<account_name>:<privilege>", "rm-bp1example:app_user:ReadWrite"
	for _, tc := range []struct {
		id, format string
		want       []string
		rule       RuleID
	}{
		{"rm-1:orders", "<instance_id>:<name>", []string{"rm-1", "orders"}, ""},
		{" rm-1:orders ", "<instance_id>:<name>", []string{"rm-1", "orders"}, ""},
		{"rm-1", "<instance_id>:<name>", nil, RuleAccessImportID},
		{"rm-1: ", "<instance_id>:<name>", nil, RuleAccessImportID},
		{"rm-1:a:b", "<instance_id>:<name>", nil, RuleAccessImportID},
		{"rm-1:app:ReadOnly", grant, []string{"rm-1", "app", "ReadOnly"}, ""},
		{"rm-1:app:readonly", grant, nil, RuleImportPrivilege},
		{"rm-1:app", grant, nil, RuleAccessImportID},
	} {
		parts, problems := SplitImportID(tc.id, tc.format, grantExample)
		if !slices.Equal(parts, tc.want) {
			t.Errorf("%q: parts %q, want %q", tc.id, parts, tc.want)
		}
		if got := ruleOf(problems); got != tc.rule {
			t.Errorf("%q: rule %q, want %q (%v)", tc.id, got, tc.rule, problems)
		}
	}
}

func ruleOf(problems []Problem) RuleID {
	if len(problems) == 0 {
		return ""
	}
	return problems[0].Rule
}
