package provider

// The oracle's access factor (issue 23: access writes are operations of the program): an account,
// two databases and a grant on the primary meet the instance features of a combination. After an
// apply, the accounts, databases and grants the cloud lists (read directly, not through the
// provider) must hold what the configuration says.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// comboAccess adds the access resources: created by the run, or created before it and changed by
// it (both descriptions and the password; the grant moved from one database to another, so the
// program revokes one and grants the other).
func comboAccess(level string, before, after []oracleResource) ([]oracleResource, []oracleResource) {
	primary := oracleRef{"rds_instance.primary", "id"}
	account := map[string]any{"instance_id": primary, "name": "app_user", "password": "Passw0rd!one", "description": "Application account"}
	orders := map[string]any{"instance_id": primary, "name": "orders", "character_set": "utf8mb4", "description": "Orders"}
	audit := map[string]any{"instance_id": primary, "name": "audit", "character_set": "utf8mb4"}
	grant := map[string]any{"instance_id": primary, "account_name": oracleRef{"rds_account.app", "name"}, "privilege": "ReadWrite",
		"db_names": []string{"orders"}}
	resources := func(account, orders, grant map[string]any) []oracleResource {
		return []oracleResource{{"rds_account.app", account}, {"rds_database.orders", orders}, {"rds_database.audit", audit},
			{"rds_account_privilege.grant", grant}}
	}
	switch level {
	case "created":
		after = append(after, resources(account, orders, grant)...)
	case "changed":
		before = append(before, resources(account, orders, grant)...)
		account, orders, grant = cloneAttrs(account), cloneAttrs(orders), cloneAttrs(grant)
		account["description"], account["password"] = "Reporting account", "Passw0rd!two"
		orders["description"] = "Orders and refunds"
		grant["db_names"] = []string{"audit"}
		after = append(after, resources(account, orders, grant)...)
	}
	return before, after
}

func isAccessType(typeName string) bool {
	return typeName == "rds_account" || typeName == "rds_database" || typeName == "rds_account_privilege"
}

// warnedOfAccessFailure: an access resource's plan warned (rule instance-locked or
// instance-stopped) that its instance takes no change, and the apply failed for that lock mode or
// status.
func warnedOfAccessFailure(p *oraclePlanned, applyErr string) bool {
	if p == nil {
		return false
	}
	for _, d := range p.diags {
		stateWarning := renderedFrom(rdsservice.RuleInstanceLocked, d.Summary) || renderedFrom(rdsservice.RuleInstanceStopped, d.Summary)
		if d.Severity != tfprotov6.DiagnosticSeverityWarning || !stateWarning {
			continue
		}
		for _, v := range []string{"LockByDiskQuota", "LockReadInstanceByDiskQuota", "ManualLock", "LockByExpiration", "LockByRestoration", "Stopped"} {
			if strings.Contains(d.Detail, v) && strings.Contains(applyErr, v) {
				return true
			}
		}
	}
	return false
}

// renderedFrom reports whether summary is the rule's summary rendered with some arguments: access
// plans keep no decisions, so their rule is told by its row's own format, not by a substring.
func renderedFrom(id rdsservice.RuleID, summary string) bool {
	for _, r := range rdsservice.RuleTable() {
		if r.ID == id {
			pattern := verbPattern.ReplaceAllString(regexp.QuoteMeta(r.Summary), ".+")
			return regexp.MustCompile("^" + pattern + "$").MatchString(summary)
		}
	}
	panic("renderedFrom: no rule " + string(id))
}

// verbPattern is a fmt verb (%s, %[2]d, ...) as regexp.QuoteMeta leaves it.
var verbPattern = regexp.MustCompile(`%(\\\[[0-9]+\\\])?[a-z]`)

// checkAccess compares each configured access resource with what the cloud lists after the apply;
// it returns how many it compared.
func (w *oracleWorld) checkAccess(order []oracleResource, disagree func(class, format string, args ...any)) (checked int) {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range order {
		if !isAccessType(r.typeName()) {
			continue
		}
		var id string
		if err := attrOf(w.state[r.addr], "instance_id").As(&id); err != nil || id == "" {
			disagree("access resource not in state after apply", "%s is configured, but not in state after the apply", r.addr)
			continue
		}
		attrs := w.resolvedAttrs(r)
		var wrong string
		switch r.typeName() {
		case "rds_account":
			a, err := rdsservice.FindAccount(ctx, api, id, attrs["name"].(string))
			switch {
			case err != nil || a == nil:
				wrong = fmt.Sprintf("account not listed (%v)", err)
			case a.AccountDescription != attrs["description"]:
				wrong = fmt.Sprintf("description %q, configured %q", a.AccountDescription, attrs["description"])
			}
		case "rds_database":
			db, err := rdsservice.FindDatabase(ctx, api, id, attrs["name"].(string))
			switch {
			case err != nil || db == nil:
				wrong = fmt.Sprintf("database not listed (%v)", err)
			case attrs["description"] != nil && db.DBDescription != attrs["description"]:
				wrong = fmt.Sprintf("description %q, configured %q", db.DBDescription, attrs["description"])
			}
		default:
			a, err := rdsservice.FindAccount(ctx, api, id, fmt.Sprint(attrs["account_name"]))
			if err != nil || a == nil {
				wrong = fmt.Sprintf("grantee not listed (%v)", err)
			} else if got, want := rdsservice.GrantedOn(a, attrs["privilege"].(string)), attrs["db_names"].([]string); !slices.Equal(got, want) {
				wrong = fmt.Sprintf("granted on %v, configured %v", got, want)
			}
		}
		checked++
		if wrong != "" {
			disagree("access resource in the cloud differs from the configuration: "+r.typeName(), "after the apply, %s on %s: %s", r.addr, id, wrong)
		}
	}
	return checked
}
