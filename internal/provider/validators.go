package provider

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strings"
	"time"

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
	if req.ConfigValue.ValueInt64()%v.n != 0 {
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleStorageStep].Problem("", v.n, req.ConfigValue.ValueInt64(),
			(req.ConfigValue.ValueInt64()/v.n+1)*v.n))
	}
}

// instanceNameValidator enforces the DBInstanceDescription rules.
type instanceNameValidator struct{}

var startsWithLetter = regexp.MustCompile(`^\p{L}`)

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
	name := req.ConfigValue.ValueString()
	n := len([]rune(name))
	lower := strings.ToLower(name)
	switch {
	case n < 2 || n > 255:
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleNameLength].Problem(name, n))
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleNameScheme].Problem(name))
	case !startsWithLetter.MatchString(name):
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleNameLetter].Problem(name, name))
	}
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
	s := req.ConfigValue.ValueString()
	if ip := net.ParseIP(s); ip != nil && ip.To4() != nil && !strings.Contains(s, ":") {
		return
	}
	if ip, _, err := net.ParseCIDR(s); err == nil && ip.To4() != nil && !strings.Contains(s, ":") {
		return
	}
	addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleSecurityIP].Problem(s, s))
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
	if _, err := regexp.Compile(req.ConfigValue.ValueString()); err != nil {
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleRegex].Problem(req.ConfigValue.ValueString(), req.ConfigValue.ValueString(), err.Error()))
	}
}

// rdsapiTimeLayout is how the RDS API writes and reads instants.
const rdsapiTimeLayout = "2006-01-02T15:04:05Z"

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
	value := req.ConfigValue.ValueString()
	if _, err := time.Parse(rdsapiTimeLayout, value); err != nil {
		addProblemAt(&resp.Diagnostics, req.Path, rdsservice.Rules[rdsservice.RuleTimestamp].Problem(value, req.Path.String(), value))
	}
}

// addProblemAt adds a rule table problem at the validated path.
func addProblemAt(diags *diag.Diagnostics, at path.Path, p rdsservice.Problem) {
	diags.AddAttributeError(at, p.Summary, p.Detail)
}
