package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rds_instance's security_ips is the instance's `default` IP array. DescribeDBInstanceAttribute's
// SecurityIPList cannot tell arrays apart (it holds every array's entries, those other Alibaba
// services add included), so a refresh reads the arrays with DescribeDBInstanceIPArrayList, one
// more call, when security_ips is set in the configuration. Without it, the refresh keeps to one
// call and the attribute shows SecurityIPList.

// securityIPsUnmanagedKey is the private state key recording that the last apply found
// security_ips unset in the configuration. Absent (an import, a state from an older version)
// means managed: the exact read.
const securityIPsUnmanagedKey = "security_ips_unmanaged"

// securityIPsManaged reports whether the refresh reads the default array.
func securityIPsManaged(ctx context.Context, private privateGetter, diags *diag.Diagnostics) bool {
	if private == nil {
		return true
	}
	raw, d := private.GetKey(ctx, securityIPsUnmanagedKey)
	diags.Append(d...)
	var unmanaged bool
	if len(raw) > 0 && json.Unmarshal(raw, &unmanaged) != nil {
		return true
	}
	return !unmanaged
}

// readDefaultSecurityIPs reads the default IP array (an empty set when the instance has none). An
// instance gone since its attribute read keeps current: the next refresh removes it.
func readDefaultSecurityIPs(ctx context.Context, api rdsapi.API, id string, current types.Set, diags *diag.Diagnostics) types.Set {
	resp, err := api.DescribeDBInstanceIPArrayList(ctx, id)
	if rdsapi.IsNotFound(err) {
		return current
	}
	if err != nil {
		diags.AddError("Error reading the RDS instance's IP allow-list", fmt.Sprintf("DescribeDBInstanceIPArrayList %s: %v", id, err))
		return types.SetNull(types.StringType)
	}
	var list string
	if a := resp.Array(rdsapi.DefaultSecurityIPArray); a != nil {
		list = a.SecurityIPList
	}
	return stringSetValue(rdsservice.SplitList(list), diags)
}

// settleSecurityIPs sets security_ips after Create or Update (after writeState) and records for the
// next refresh whether the configuration sets it. The apply set the default array to the planned
// value, so a known planned value stands; one known only at apply is read back (m.ID, as writeState
// set it).
func (r *instanceResource) settleSecurityIPs(ctx context.Context, configured, planned types.Set, m *instanceModel, private privateSetter, diags *diag.Diagnostics) {
	id := m.ID.ValueString()
	managed := !configured.IsNull()
	switch {
	case isKnown(planned):
		m.SecurityIPs = planned
	case managed:
		m.SecurityIPs = readDefaultSecurityIPs(ctx, r.data.API, id, m.SecurityIPs, diags)
	}
	raw, _ := json.Marshal(!managed)
	diags.Append(private.SetKey(ctx, securityIPsUnmanagedKey, raw)...)
}
