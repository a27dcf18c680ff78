package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// security_ip_groups on rds_instance and rds_readonly_instance (issue 42 §2): named IP lists
// beside the default one. The decisions are rdsservice's (ip_groups.go); this file maps the
// attribute. While it is set, a refresh reads DescribeDBInstanceIPArrayList (one more call) and
// the plan reads it too, for the hidden arrays a name must not take and that count against the
// limits; unset, nothing is read and the lists are left alone.

var ipGroupsElemType = types.SetType{ElemType: types.StringType}

// ipGroupsAttribute is security_ip_groups.
func ipGroupsAttribute() schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: ipGroupsElemType,
		MarkdownDescription: "Named IP allow-lists (`DBInstanceIPArrayName` of `ModifySecurityIps`): list name to IPv4 addresses " +
			"and CIDR blocks. Every entry of every list has the same access; the lists only group them. While set, these are " +
			"all the instance's named lists: one removed from the configuration is removed from the instance, and one added " +
			"outside Terraform shows as drift. Lists of Alibaba services (marked `hidden`, e.g. DTS) are never shown, changed " +
			"or removed. Names are 2-32 lowercase letters, digits and underscores, starting with a letter. `default` is the " +
			"list of `security_ips` and may be named here only where `security_ips` is not set. An instance takes at most " +
			"1,000 entries across its lists (those of Alibaba services included) and 200 lists: both checked at plan.",
	}
}

func isKnownValue(v attr.Value) bool { return !v.IsUnknown() && !v.IsNull() }

// refreshIPGroups reads the named lists back where security_ip_groups is managed: every visible
// array but default (default too when the state's lists name it).
func refreshIPGroups(ctx context.Context, api rdsapi.API, id string, current types.Map, diags *diag.Diagnostics) types.Map {
	if current.IsNull() || current.IsUnknown() {
		return types.MapNull(ipGroupsElemType)
	}
	resp, err := api.DescribeDBInstanceIPArrayList(ctx, id)
	if rdsapi.IsNotFound(err) {
		return current
	}
	if err != nil {
		diags.AddError("Error reading the RDS instance's IP lists", fmt.Sprintf("DescribeDBInstanceIPArrayList %s: %v", id, err))
		return current
	}
	_, withDefault := current.Elements()[rdsapi.DefaultSecurityIPArray]
	out := map[string]attr.Value{}
	for _, a := range resp.Items {
		name := a.DBInstanceIPArrayName
		if a.DBInstanceIPArrayAttribute == rdsapi.IPArrayHidden || strings.EqualFold(name, rdsapi.DefaultSecurityIPArray) && !withDefault {
			continue
		}
		if strings.EqualFold(name, rdsapi.DefaultSecurityIPArray) {
			name = rdsapi.DefaultSecurityIPArray
		}
		out[name] = stringSetValue(rdsservice.SplitList(a.SecurityIPList), diags)
	}
	m, d := types.MapValue(ipGroupsElemType, out)
	diags.Append(d...)
	return m
}

// ipGroupsOrNull is a model's security_ip_groups, typed null when the model never had it.
func ipGroupsOrNull(m types.Map) types.Map {
	if m.IsNull() {
		return types.MapNull(ipGroupsElemType)
	}
	return m
}
