package rdsservice

import (
	"strings"
	"testing"
)

// The validators' conditions live here: each bad value raises its row, each good one nothing.
func TestValueChecks(t *testing.T) {
	cases := []struct {
		name     string
		problems []Problem
		want     RuleID
	}{
		{"storage 21", CheckStorageStep(21, 5), RuleStorageStep},
		{"name of one letter", CheckInstanceName("a"), RuleNameLength},
		{"name with a scheme", CheckInstanceName("https://db"), RuleNameScheme},
		{"name with a digit first", CheckInstanceName("1db"), RuleNameLetter},
		{"IPv6", CheckSecurityIP("::1"), RuleSecurityIP},
		{"octet 300", CheckSecurityIP("10.0.0.300"), RuleSecurityIP},
		{"unclosed group", CheckRegex("("), RuleRegex},
		{"month 13", CheckUTCTimestamp("restore_from.restore_time", "2025-13-01T00:00:00Z"), RuleTimestamp},
		{"class without a dot", CheckReadOnlyClassShape("small"), RuleReadOnlyClassShape},
		{"empty import id", CheckImportID("rds_instance", ""), RuleImportID},
		{"import id with a colon", CheckImportID("rds_instance", "rm-bp1:x"), RuleImportID},
		{"import id with a space", CheckImportID("rds_readonly_instance", "rr-1 2"), RuleImportID},
		{"unknown engine filter", CheckListFilter("engine", "mysqll", []string{"MySQL"}), RuleListFilter},
		{"fractional retries", CheckWholeNumber("max_retries", "2.5", false, 2, 0, 100, 5), RuleWholeNumber},
		{"retries below", CheckWholeNumber("max_retries", "-1", true, -1, 0, 100, 5), RuleWholeNumber},
		{"retries above", CheckWholeNumber("max_retries", "101", true, 101, 0, 100, 5), RuleWholeNumber},
	}
	for _, c := range cases {
		if len(c.problems) != 1 || c.problems[0].Rule != c.want {
			t.Errorf("%s: %+v, want one %s", c.name, c.problems, c.want)
		}
	}
	for name, problems := range map[string][]Problem{
		"storage 25": CheckStorageStep(25, 5), "name": CheckInstanceName("orders-db"), "IP": CheckSecurityIP("10.0.0.1"),
		"CIDR": CheckSecurityIP("10.0.0.0/24"), "regex": CheckRegex("^db-"), "time": CheckUTCTimestamp("t", "2025-06-01T08:00:00Z"),
		"class": CheckReadOnlyClassShape("mysqlro.n2.medium.1c"), "import rm": CheckImportID("rds_instance", "rm-bp1example"),
		"import rr":              CheckImportID("rds_readonly_instance", "rr-seedx86legacy"),
		"filter in another case": CheckListFilter("engine", "mysql", []string{"MySQL"}),
		"retries at the bounds":  append(CheckWholeNumber("max_retries", "0", true, 0, 0, 100, 5), CheckWholeNumber("max_retries", "100", true, 100, 0, 100, 5)...),
	} {
		if len(problems) != 0 {
			t.Errorf("%s refused: %+v", name, problems)
		}
	}
	p := CheckImportID("rds_readonly_instance", "rr-1:x")[0]
	if !strings.Contains(p.Detail, `got "rr-1:x"`) || !strings.Contains(p.Detail, "terraform import rds_readonly_instance.db rr-bp1example") {
		t.Fatalf("import id message: %s", p.Detail)
	}
}
