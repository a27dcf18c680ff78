package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Provider-defined functions (Terraform 1.8+, OpenTofu 1.7+): each a thin adapter over an
// rdsservice function the planner uses (rdsservice/functions.go, functions_rules.go). They
// call no API, so they run in `terraform validate` and under a test's mock_provider.

var _ provider.ProviderWithFunctions = (*RDSProvider)(nil)

// Functions lists the provider's functions.
func (p *RDSProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		NewAtomicWrite16KFunction, NewInstanceClassFunction, NewMaintenanceWindowUTCFunction, NewParameterRestartsFunction,
	}
}

// funcError turns the plan's problems into one function error at an argument.
func funcError(argument int64, problems []rdsservice.Problem) *function.FuncError {
	if len(problems) == 0 {
		return nil
	}
	var parts []string
	for _, p := range problems {
		parts = append(parts, p.Summary+": "+p.Detail)
	}
	return function.NewArgumentFuncError(argument, strings.Join(parts, "\n"))
}
