package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Attribute validators shared by the resources and data sources. Each skips null and unknown
// values (Terraform checks those again once they are known) and names the value and the fix.

// multipleOf validates that an int64 is a multiple of n.
type multipleOfValidator struct{ n int64 }

func multipleOf(n int64) validator.Int64 { return multipleOfValidator{n: n} }

func (v multipleOfValidator) Description(context.Context) string {
	return fmt.Sprintf("value must be a multiple of %d", v.n)
}
func (v multipleOfValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}
func (v multipleOfValidator) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if !isKnown(req.ConfigValue) {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckStorageStep(req.ConfigValue.ValueInt64(), v.n))
}

// instanceNameValidator enforces the DBInstanceDescription rules.
type instanceNameValidator struct{}

func (instanceNameValidator) Description(context.Context) string {
	return "2 to 255 characters, starting with a letter, not starting with http:// or https://"
}
func (v instanceNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}
func (instanceNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !isKnown(req.ConfigValue) {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckInstanceName(req.ConfigValue.ValueString()))
}

// ipv4OrCIDRValidator accepts an IPv4 address or an IPv4 CIDR block.
type ipv4OrCIDRValidator struct{}

func (ipv4OrCIDRValidator) Description(context.Context) string {
	return "an IPv4 address (10.0.0.1) or CIDR block (10.0.0.0/24)"
}
func (v ipv4OrCIDRValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}
func (ipv4OrCIDRValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !isKnown(req.ConfigValue) {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckSecurityIP(req.ConfigValue.ValueString()))
}

// regexValidator accepts strings that compile as Go regular expressions.
type regexValidator struct{}

func (regexValidator) Description(context.Context) string {
	return "must be a valid regular expression (Go RE2 syntax)"
}

func (v regexValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (regexValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckRegex(req.ConfigValue.ValueString()))
}

// utcTimestampValidator accepts real instants written as UTC yyyy-MM-ddTHH:mm:ssZ (the cloud's
// format): the shape alone would let month 13 through to the API.
type utcTimestampValidator struct{}

const utcTimestampDescription = "must be UTC yyyy-MM-ddTHH:mm:ssZ, e.g. 2025-06-01T08:00:00Z"

func (utcTimestampValidator) Description(context.Context) string { return utcTimestampDescription }

func (v utcTimestampValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (utcTimestampValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckUTCTimestamp(req.Path.String(), req.ConfigValue.ValueString()))
}

// addProblemsAt adds rule table problems at the validated path.
func addProblemsAt(diags *diag.Diagnostics, at path.Path, problems []rdsservice.Problem) {
	for _, p := range problems {
		diags.AddAttributeError(at, p.Summary, p.Detail)
	}
}
