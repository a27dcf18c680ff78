package rdsservice

import (
	"slices"
	"strings"
)

// The import ids of the access resources (issue 23 §1: import-id checks are rules of the table):
// `<instance_id>:<name>` for an account or a database, and
// `<instance_id>:<account_name>:<privilege>` for a grant, whose privilege must be one the API takes.

const (
	RuleAccessImportID  RuleID = "access-import-id"
	RuleImportPrivilege RuleID = "access-import-privilege"
)

// SplitImportID splits id into exactly the parts format names ("<a>:<b>[:<c>]"), none empty; a
// privilege, when format ends with one, must be one of AccountPrivileges. example is a valid id.
func SplitImportID(id, format, example string) ([]string, []Problem) {
	parts := strings.Split(strings.TrimSpace(id), ":")
	if len(parts) != strings.Count(format, ":")+1 || slices.ContainsFunc(parts, func(p string) bool { return strings.TrimSpace(p) == "" }) {
		return nil, []Problem{problem(RuleAccessImportID, id, format, example, id)}
	}
	if strings.HasSuffix(format, ":<privilege>") && !slices.Contains(AccountPrivileges, parts[len(parts)-1]) {
		privilege := parts[len(parts)-1]
		return nil, []Problem{problem(RuleImportPrivilege, id, privilege, id, strings.Join(AccountPrivileges, ", "), format, example)}
	}
	return parts, nil
}
