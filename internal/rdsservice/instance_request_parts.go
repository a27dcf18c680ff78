package rdsservice

import (
	"context"
	"sort"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The parts of an instance's plan request both instance resources read alike, and the nested
// attributes (objects, maps, sets) read into the planner's values.

// sharedRequest sets what both instance resources' requests take alike: the replacement, a spec
// change waiting for the window, the tags (createCarriesTags: the create call sends them), the
// endpoints, the parameter group, and for an instance kept in place its pending task and whether
// its state holds the configured parameters.
func sharedRequest(m ModelRequest, createCarriesTags bool, in *PlanInput, req *InstanceRequest) {
	config, plan, state := m.Config, m.Plan, m.State
	req.Replaced, in.Facts.SpecChangePending, in.Facts.PendingClass = m.Replace, m.SpecPending, m.PendingClass
	req.Group = GroupQuery{ID: plan.Get("parameter_group_id").Str()}
	in.Desired.Tags = TagPlan{WantUnknown: plan.Get("tags_all").IsUnknown(), Want: plan.Get("tags_all").StringMap(),
		Prior: state.Get("tags_all").StringMap(), ResourceGroup: plan.Get("resource_group_id").String(),
		PriorResourceGroup: state.Get("resource_group_id").String(), CreateCarriesTags: createCarriesTags}
	in.Desired.Endpoints = EndpointPlan{InternalUnknown: config.Get(AttrConnectionPrefix).IsUnknown() || config.Get(AttrPort).IsUnknown(),
		PreventChange: config.Get(AttrPreventEndpointChange).Bool().Value(),
		Internal:      Endpoint{Prefix: config.Get(AttrConnectionPrefix).String(), Port: config.Get(AttrPort).Int().Value()},
		PublicManaged: !m.create() && !state.Get(AttrPublicEndpoint).IsNull()}
	in.Desired.Endpoints.Public, in.Desired.Endpoints.PublicUnknown = publicEndpointOf(config.Get(AttrPublicEndpoint))
	if m.create() || len(m.Replace) > 0 {
		return
	}
	req.Group.PriorID = state.Get("parameter_group_id").String()
	in.Facts.Pending = PendingOf(state.Get(AttrScheduledChange))
	in.Desired.Parameters.Recorded = state.Get("parameters").Equal(config.Get("parameters"))
}

// settingsRequest sets the planner's configured storage_auto_scale, sql_audit, prevent_data_loss,
// ha_config, monitoring_period and sync_mode, and for an update the ones in state (read back).
func settingsRequest(m ModelRequest, d *Desired) {
	plan, state := m.Plan, m.State
	d.AutoScale.Want, d.AutoScale.WantUnknown = AutoScaleOf(plan.Get("storage_auto_scale"))
	d.SQLAudit.Want, d.SQLAudit.Configured, d.SQLAudit.WantUnknown = SQLAuditOf(plan.Get("sql_audit"))
	d.HASwitch.Want, d.HASwitch.Configured, d.HASwitch.WantUnknown = HASwitchOf(plan.Get("ha_config"))
	d.PreventDataLoss = plan.Get("prevent_data_loss").Bool().Value()
	monitoring, sync := plan.Get("monitoring_period"), plan.Get("sync_mode")
	d.Monitoring.Configured, d.Monitoring.WantUnknown, d.Monitoring.Want = !monitoring.IsNull(), monitoring.IsUnknown(), monitoring.Int().Value()
	d.SyncMode.Configured, d.SyncMode.WantUnknown, d.SyncMode.Want = !sync.IsNull(), sync.IsUnknown(), sync.String()
	if m.create() {
		return
	}
	if prior, configured, _ := SQLAuditOf(state.Get("sql_audit")); configured {
		d.SQLAudit.Prior = &prior
	}
	if prior, configured, unknown := HASwitchOf(state.Get("ha_config")); configured && !unknown {
		d.HASwitch.Prior = &prior
	}
	if v := state.Get("monitoring_period"); v.IsKnown() {
		d.Monitoring.Prior = ptrTo(v.Int().Value())
	}
	if v := state.Get("sync_mode"); v.IsKnown() {
		d.SyncMode.Prior = v.String()
	}
}

// billingRequest is PlanBilling of the plan's billing and the prior state's.
func billingRequest(m ModelRequest) BillingPlan {
	want := BillingOf(m.Plan.Get(AttrBilling))
	protection := m.Plan.Get("deletion_protection").Bool()
	if m.create() {
		return PlanBilling(want, protection, nil)
	}
	billing := m.State.Get(AttrBilling)
	return PlanBilling(want, protection, &BillingState{Billing: BillingOf(billing), PayType: billing.Get("pay_type").String(),
		ExpireTime: m.State.Get("expire_time").String(), OnDestroy: m.State.Get(AttrPrepaidOnDestroy).String()})
}

// BillingOf is the configured billing; nil when it is not set or not known yet.
func BillingOf(b AttrValue) *Billing {
	if !b.IsKnown() || !b.WhollyKnown() {
		return nil
	}
	return &Billing{PayType: b.Get("pay_type").String(), Period: b.Get("period").String(), UsedTime: b.Get("used_time").Int().Value(),
		AutoRenew: b.Get("auto_renew").Bool().Value()}
}

// accessRequest sets security_ip_groups, security_group_ids and whitelist_template_ids for the
// planner: the planned lists (security_ips as configured), the prior's (none for a create or a
// replacement) and, for an existing instance, its hidden arrays (a failed read leaves them to the
// apply's own read).
func accessRequest(ctx context.Context, api rdsapi.API, m ModelRequest, in *PlanInput) {
	g, sgs, links := &in.Desired.IPGroups, &in.Desired.SecurityGroups, &in.Desired.TemplateLinks
	ips := m.Config.Get("security_ips")
	g.Want, g.WantUnknown = ipGroupsOf(m.Plan.Get("security_ip_groups"))
	g.DefaultSet, g.DefaultIPs = !ips.IsNull(), sortedStrings(ips)
	sgs.Want, sgs.WantUnknown = idsOf(m.Plan.Get("security_group_ids"))
	links.Want, links.WantUnknown = idsOf(m.Plan.Get("whitelist_template_ids"))
	if m.create() || len(m.Replace) > 0 {
		return
	}
	g.Prior, _ = ipGroupsOf(m.State.Get("security_ip_groups"))
	sgs.Prior, _ = idsOf(m.State.Get("security_group_ids"))
	links.Prior, _ = idsOf(m.State.Get("whitelist_template_ids"))
	if g.Want == nil || api == nil {
		return
	}
	if resp, err := api.DescribeDBInstanceIPArrayList(ctx, m.State.Get("id").String()); err == nil {
		g.Hidden = map[string][]string{}
		for _, a := range resp.Items {
			if a.DBInstanceIPArrayAttribute == rdsapi.IPArrayHidden {
				g.Hidden[a.DBInstanceIPArrayName] = SplitList(a.SecurityIPList)
			}
		}
	}
}

// ipGroupsOf is a security_ip_groups value as the planner takes it: nil when null.
func ipGroupsOf(v AttrValue) (groups map[string][]string, unknown bool) {
	if !v.IsKnown() {
		return nil, v.IsUnknown()
	}
	groups = map[string][]string{}
	for name, set := range v.Attributes() {
		if set.IsUnknown() {
			return nil, true
		}
		for _, e := range set.Elements() {
			if !e.IsKnown() {
				return nil, true
			}
		}
		groups[name] = sortedStrings(set)
	}
	return groups, false
}

// idsOf is a security_group_ids or whitelist_template_ids value as the planner takes it, sorted:
// nil when null.
func idsOf(v AttrValue) (ids []string, unknown bool) {
	if !v.IsKnown() {
		return nil, v.IsUnknown()
	}
	for _, e := range v.Elements() {
		if !e.IsKnown() {
			return nil, true
		}
	}
	return sortedStrings(v), false
}

// publicEndpointOf reads public_endpoint: nil when left out.
func publicEndpointOf(v AttrValue) (*Endpoint, bool) {
	prefix, port := v.Get(AttrConnectionPrefix), v.Get(AttrPort)
	switch {
	case v.IsUnknown() || prefix.IsUnknown() || port.IsUnknown():
		return nil, true
	case v.IsNull():
		return nil, false
	}
	return &Endpoint{Prefix: prefix.String(), Port: port.Int().Value()}, false
}

// AutoScaleOf is a storage_auto_scale value as the API takes it (Enabled false: not set).
func AutoScaleOf(v AttrValue) (cfg rdsapi.StorageAutoScale, unknown bool) {
	threshold, upper := v.Get("threshold"), v.Get("upper_bound")
	switch {
	case v.IsUnknown() || threshold.IsUnknown() || upper.IsUnknown():
		return cfg, true
	case v.IsNull():
		return cfg, false
	}
	return rdsapi.StorageAutoScale{Enabled: true, Threshold: threshold.Int().Value(), UpperBound: upper.Int().Value()}, false
}

// SQLAuditOf is a sql_audit value as the API takes it; configured is false when it is null.
func SQLAuditOf(v AttrValue) (cfg rdsapi.SQLAudit, configured, unknown bool) {
	enabled, retention, hot := v.Get("enabled"), v.Get("retention_days"), v.Get("hot_retention_days")
	switch {
	case v.IsUnknown() || enabled.IsUnknown() || retention.IsUnknown() || hot.IsUnknown():
		return cfg, true, true
	case v.IsNull():
		return cfg, false, false
	case !enabled.Bool().Value():
		return cfg, true, false
	}
	return rdsapi.SQLAudit{Enabled: true, Retention: retention.Int().Value(), HotRetention: hot.Int().Value()}, true, false
}

// HASwitchOf is an ha_config value as the API takes it; configured is false when it is null.
func HASwitchOf(v AttrValue) (cfg rdsapi.HASwitch, configured, unknown bool) {
	mode, until := v.Get("mode"), v.Get("manual_until")
	switch {
	case v.IsUnknown() || mode.IsUnknown() || until.IsUnknown():
		return cfg, true, true
	case v.IsNull():
		return cfg, false, false
	}
	return rdsapi.HASwitch{HAConfig: mode.String(), ManualHATime: until.String()}, true, false
}

// PendingOf is the task a scheduled_change value records, for the planner; nil when none.
func PendingOf(v AttrValue) *PendingChange {
	changes := v.Get("changes")
	if !v.IsKnown() || !changes.IsKnown() {
		return nil
	}
	return &PendingChange{TaskID: v.Get("task_id").String(), Window: v.Get("window").String(), StartsAt: v.Get("starts_at").String(),
		Changes: changes.Strings()}
}

// DesiredParametersOf is `parameters` as the planner reads it.
func DesiredParametersOf(v AttrValue) DesiredParameters {
	d := DesiredParameters{Set: !v.IsNull(), Unknown: v.IsUnknown()}
	if !v.IsKnown() {
		return d
	}
	d.Values, d.UnknownValues = map[string]string{}, map[string]bool{}
	for name, e := range v.Attributes() {
		switch {
		case e.IsUnknown():
			d.UnknownValues[name] = true
		case e.IsNull():
			d.NullValues = append(d.NullValues, name)
		default:
			d.Values[name] = e.String()
		}
	}
	sort.Strings(d.NullValues)
	return d
}
