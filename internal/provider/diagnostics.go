package provider

// Diagnostics: rule-table problems as diagnostics at their attribute, timeouts and operation errors.

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// operationBudget is the operation's timeout, or the default.
func operationBudget(ctx context.Context, v timeouts.Value, op string, diags *diag.Diagnostics) (time.Duration, bool) {
	var d time.Duration
	var dd diag.Diagnostics
	switch op {
	case "create":
		d, dd = v.Create(ctx, defaultCreateTimeout)
	case "update":
		d, dd = v.Update(ctx, defaultUpdateTimeout)
	default:
		d, dd = v.Delete(ctx, defaultDeleteTimeout)
	}
	diags.Append(dd...)
	addProblems(diags, rdsservice.CheckTimeouts(serviceValue(ctx, v.Object)))
	return d, !diags.HasError()
}

// attributePath maps a rule table attribute ("restore_from.source_instance_id") to a path.
func attributePath(name string) path.Path {
	if key, ok := strings.CutPrefix(name, rdsservice.AttrParameters+"."); ok {
		return path.Root(rdsservice.AttrParameters).AtMapKey(key)
	}
	parts := strings.Split(name, ".")
	p := path.Root(parts[0])
	for _, part := range parts[1:] {
		p = p.AtName(part)
	}
	return p
}

// addProblems adds the planner's problems as diagnostics at their attributes.
func addProblems(diags *diag.Diagnostics, problems []rdsservice.Problem) {
	for _, p := range problems {
		if p.Attribute == "" { // about the environment, not a value
			if p.Severity == rdsservice.SeverityWarning {
				diags.AddWarning(p.Summary, p.Detail)
			} else {
				diags.AddError(p.Summary, p.Detail)
			}
			continue
		}
		at := attributePath(p.Attribute)
		if p.Severity == rdsservice.SeverityWarning {
			diags.AddAttributeWarning(at, p.Summary, p.Detail)
		} else {
			diags.AddAttributeError(at, p.Summary, p.Detail)
		}
	}
}
