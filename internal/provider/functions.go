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

// rdsFunction is one provider function: its name, its definition and run, which answers a call.
type rdsFunction struct {
	name       string
	definition function.Definition
	run        func(ctx context.Context, req function.RunRequest, resp *function.RunResponse)
}

func (f rdsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f rdsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.definition
}

func (f rdsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	f.run(ctx, req, resp)
}

// twoStringsRun answers a function of two strings with answer; its problems are the error, at the
// second argument when the first problem is secondRule's.
func twoStringsRun[T any](answer func(a, b string) (T, []rdsservice.Problem), secondRule rdsservice.RuleID) func(context.Context, function.RunRequest, *function.RunResponse) {
	return func(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
		var a, b string
		if resp.Error = req.Arguments.Get(ctx, &a, &b); resp.Error != nil {
			return
		}
		out, problems := answer(a, b)
		if len(problems) > 0 {
			argument := int64(0)
			if problems[0].Rule == secondRule {
				argument = 1
			}
			resp.Error = funcError(argument, problems)
			return
		}
		resp.Error = resp.Result.Set(ctx, out)
	}
}
