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

// ipGroupsOf is a security_ip_groups value as the planner takes it: nil when null.
func ipGroupsOf(ctx context.Context, m types.Map, diags *diag.Diagnostics) (groups map[string][]string, unknown bool) {
	if m.IsUnknown() {
		return nil, true
	}
	if m.IsNull() {
		return nil, false
	}
	groups = map[string][]string{}
	for name, v := range m.Elements() {
		set, ok := v.(types.Set)
		if !ok || set.IsUnknown() {
			return nil, true
		}
		for _, e := range set.Elements() {
			if !isKnownValue(e) {
				return nil, true
			}
		}
		groups[name] = setStrings(ctx, set, diags)
	}
	return groups, false
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

// accessLists are a model's access list attributes; SecurityIPs is rds_instance's security_ips
// (null for a read-only instance, which has none: its `default` is a list like the others).
type accessLists struct {
	ID                                       types.String
	IPGroups                                 types.Map
	SecurityIPs, SecurityGroups, TemplateIDs types.Set
}

func (m instanceModel) accessLists() accessLists {
	return accessLists{ID: m.ID, IPGroups: m.SecurityIPGroups, SecurityIPs: m.SecurityIPs, SecurityGroups: m.SecurityGroupIDs, TemplateIDs: m.WhitelistTemplateIDs}
}

func (m readonlyInstanceModel) accessLists() accessLists {
	return accessLists{ID: m.ID, IPGroups: m.SecurityIPGroups, SecurityIPs: types.SetNull(types.StringType), SecurityGroups: m.SecurityGroupIDs,
		TemplateIDs: m.WhitelistTemplateIDs}
}

// accessListsInput sets security_ip_groups, security_group_ids and whitelist_template_ids for the
// planner: the planned lists (security_ips as configured), prior's (nil for a create or a
// replacement) and, for an existing instance, its hidden arrays (a failed read leaves them to the
// apply's own read).
func accessListsInput(ctx context.Context, api rdsapi.API, prior *accessLists, plan accessLists, in *rdsservice.PlanInput, diags *diag.Diagnostics) {
	g := &in.Desired.IPGroups
	g.Want, g.WantUnknown = ipGroupsOf(ctx, plan.IPGroups, diags)
	g.DefaultSet = !plan.SecurityIPs.IsNull()
	if isKnown(plan.SecurityIPs) {
		g.DefaultIPs = setStrings(ctx, plan.SecurityIPs, diags)
	}
	sgs, links := &in.Desired.SecurityGroups, &in.Desired.TemplateLinks
	sgs.Want, sgs.WantUnknown = securityGroupsOf(ctx, plan.SecurityGroups, diags)
	links.Want, links.WantUnknown = securityGroupsOf(ctx, plan.TemplateIDs, diags)
	if prior == nil {
		return
	}
	g.Prior, _ = ipGroupsOf(ctx, prior.IPGroups, diags)
	sgs.Prior, _ = securityGroupsOf(ctx, prior.SecurityGroups, diags)
	links.Prior, _ = securityGroupsOf(ctx, prior.TemplateIDs, diags)
	if g.Want == nil || api == nil {
		return
	}
	if resp, err := api.DescribeDBInstanceIPArrayList(ctx, prior.ID.ValueString()); err == nil {
		g.Hidden = map[string][]string{}
		for _, a := range resp.Items {
			if a.DBInstanceIPArrayAttribute == rdsapi.IPArrayHidden {
				g.Hidden[a.DBInstanceIPArrayName] = rdsservice.SplitList(a.SecurityIPList)
			}
		}
	}
}

// priorAccess is the prior state's access lists for the planner: nil for a create or a replacement
// (which creates the instance anew).
func priorAccess[M interface{ accessLists() accessLists }](state *M, replace []string) *accessLists {
	if state == nil || len(replace) > 0 {
		return nil
	}
	a := (*state).accessLists()
	return &a
}
