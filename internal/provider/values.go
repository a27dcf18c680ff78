package provider

// Conversions between the framework's attribute values, the API's answers and the planner's values.

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The conversions below turn a DescribeDBInstanceAttribute answer into attribute values, the same
// way for every resource and data source.

// attrPort parses Port (a string on the wire); empty is null, anything else that is not a number
// is an error rather than text in state.
func attrPort(a *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) types.Int64 {
	p := strings.TrimSpace(string(a.Port))
	if p == "" {
		return types.Int64Null()
	}
	n, err := strconv.ParseInt(p, 10, 64)
	if err != nil {
		diags.AddError("Unexpected answer from the RDS API", fmt.Sprintf("instance %s: Port %q is not a number", a.DBInstanceID, p))
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

func stringSetValue(items []string, diags *diag.Diagnostics) types.Set {
	set, d := types.SetValue(types.StringType, stringValues(items))
	diags.Append(d...)
	return set
}

func stringListValue(items []string, diags *diag.Diagnostics) types.List {
	list, d := types.ListValue(types.StringType, stringValues(items))
	diags.Append(d...)
	return list
}

func stringValues(items []string) []attr.Value {
	values := make([]attr.Value, 0, len(items))
	for _, item := range items {
		values = append(values, types.StringValue(item))
	}
	return values
}

// Small helpers used across resources and data sources.

func isKnown(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

func stringIfKnown(v types.String) string {
	if isKnown(v) {
		return v.ValueString()
	}
	return ""
}

func optimizedWrites(on bool) string {
	if on {
		return rdsapi.OptimizedWritesOn
	}
	return rdsapi.OptimizedWritesOff
}

func switchValue(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

func setStrings(ctx context.Context, s types.Set, diags *diag.Diagnostics) []string {
	if !isKnown(s) {
		return nil
	}
	var out []string
	diags.Append(s.ElementsAs(ctx, &out, false)...)
	sort.Strings(out)
	return out
}

// keepSpelling keeps the configured value when the cloud reports the same value spelled
// differently (e.g. category case), so a refresh never shows a spurious diff.
func keepSpelling(current types.String, reported string) types.String {
	if isKnown(current) && strings.EqualFold(current.ValueString(), reported) {
		return current
	}
	return types.StringValue(reported)
}

// emptyAsNull is null for an empty string: optional attributes the cloud reports empty.
func emptyAsNull(v types.String) types.String {
	if isKnown(v) && v.ValueString() == "" {
		return types.StringNull()
	}
	return v
}
