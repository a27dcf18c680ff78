package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// What an instance's plan reads the cloud through, and the facts it could not read (modifyplan.go
// writes the rest of rdsservice.PlanInstance's answer back).

// planEnv is what a plan reads the cloud through (rdsservice.Env).
func (p *ProviderData) planEnv() rdsservice.Env {
	return rdsservice.Env{API: p.API, Region: p.Region, Now: p.cloudNow, Classes: &p.classes, Templates: &p.parameterTemplates, Ledger: &p.plans,
		Journal: p.Journal}
}

// addReadFailures reports the facts the plan could not read.
func addReadFailures(diags *diag.Diagnostics, failures []rdsservice.ReadFailure) {
	for _, f := range failures {
		switch {
		case f.Warning:
			diags.AddWarning(f.Summary, f.Detail)
		case f.Attribute != "":
			diags.AddAttributeError(path.Root(f.Attribute), f.Summary, f.Detail)
		default:
			diags.AddError(f.Summary, f.Detail)
		}
	}
}
