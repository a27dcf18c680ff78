package provider

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// providerDataFrom is what every resource's and data source's Configure does: nil while the
// provider is not configured yet (validation runs before it), an error for anything but
// *ProviderData.
func providerDataFrom(raw any, typeName string, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*ProviderData)
	if !ok || data == nil || data.API == nil || data.Waiter == nil {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("%s expected *provider.ProviderData, got %T. This is a bug in the provider; please report it.", typeName, raw))
		return nil
	}
	return data
}

// requireConfigured reports an error when an operation runs without a configured provider.
func requireConfigured(data *ProviderData, diags *diag.Diagnostics) bool {
	if data == nil {
		diags.AddError("Provider not configured",
			"The rds provider has no API client. Check the provider configuration (credentials, region, endpoint).")
		return false
	}
	return true
}

const deletionProtectedSummary = "RDS instance has deletion protection"

func deletionProtectedDetail(id string) string {
	return fmt.Sprintf("Instance %s has deletion_protection = true, so the cloud refuses to delete it. "+
		"Set deletion_protection = false, run terraform apply, then destroy or replace it.", id)
}

// deleteAndWait deletes an instance (retrying while it is busy) and waits until it is gone, within
// ctx's deadline. Not found counts as deleted.
func deleteAndWait(ctx context.Context, data *ProviderData, id string, diags *diag.Diagnostics) {
	err := data.Waiter.RetryBusy(ctx, func() error { return data.API.DeleteDBInstance(ctx, id) })
	switch {
	case rdsapi.IsNotFound(err):
		return
	case rdsapi.ErrorCode(err) == "OperationDenied.DeletionProtection":
		diags.AddAttributeError(path.Root("deletion_protection"), deletionProtectedSummary, deletionProtectedDetail(id))
		return
	case err != nil:
		diags.AddError("Error deleting RDS instance", fmt.Sprintf("DeleteDBInstance %s: %v", id, err))
		return
	}
	if err := data.Waiter.WaitDeleted(ctx, id); err != nil {
		diags.AddError("Error waiting for RDS instance deletion", err.Error())
	}
}

// The conversions below turn a DescribeDBInstanceAttribute answer into attribute values, the same
// way for every resource and data source.

// attrArchitecture is InstructionSetArch, or the class family's architecture when the cloud
// leaves it out.
func attrArchitecture(a *rdsapi.DBInstanceAttribute) types.String {
	if a.InstructionSetArch != "" {
		return types.StringValue(a.InstructionSetArch)
	}
	return types.StringValue(rdsservice.Architecture(a.DBInstanceClass))
}

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

// attrAtomicWrite returns optimized_writes and init_optimized_writes. Engines without the feature
// have no OptimizedWritesInfo: off and not supported.
func attrAtomicWrite(a *rdsapi.DBInstanceAttribute) (enabled, supported types.Bool) {
	if a.OptimizedWrites == nil {
		return types.BoolValue(false), types.BoolValue(false)
	}
	return types.BoolValue(a.OptimizedWrites.Enabled), types.BoolValue(a.OptimizedWrites.Supported)
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

func ptr[T any](v T) *T { return &v }

func boolOrUnknown(b *bool) types.Bool {
	if b == nil {
		return types.BoolUnknown()
	}
	return types.BoolValue(*b)
}

func stringIfKnown(v types.String) string {
	if isKnown(v) {
		return v.ValueString()
	}
	return ""
}

func isMySQL(engine string) bool { return strings.EqualFold(strings.TrimSpace(engine), "MySQL") }

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

func switchOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "on", "enabled":
		return true
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
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

func errorsOnly(d diag.Diagnostics) diag.Diagnostics { return d.Errors() }

func problemPath(p rdsservice.Problem) path.Path {
	switch p.Attribute {
	case rdsservice.AttrEngine, rdsservice.AttrEngineVersion, rdsservice.AttrStorageType, rdsservice.AttrCategory,
		rdsservice.AttrInstanceType, rdsservice.AttrAtomicWrite, rdsservice.AttrBufferPoolExtension:
		return path.Root(p.Attribute)
	}
	return path.Root("atomic_write_16k")
}
