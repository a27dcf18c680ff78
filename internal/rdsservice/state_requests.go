package rdsservice

import "time"

// The requests read from an instance resource's state or configuration alone (AttrValue): the
// unchanged instance's plan, the destroy's, and the configured timeouts' check.

// UnchangedOf is an unchanged instance's state as PlanUnchangedInstance reads it (a read-only
// instance's state has master_instance_id).
func UnchangedOf(state AttrValue) UnchangedInstance {
	s := func(name string) string { return state.Get(name).String() }
	u := UnchangedInstance{Role: RolePrimary, ID: s("id"), Category: s("category"), Status: s("status"), LockMode: s("lock_mode"),
		ParameterGroup: s("parameter_group_id"), PreventRestart: state.Get(AttrPreventRestart).Bool().Value(), Pending: PendingOf(state.Get(AttrScheduledChange))}
	if state.Has("master_instance_id") {
		u.Role, u.PrimaryID = RoleReadOnly, s("master_instance_id")
		u.AtomicWrite, u.AtomicWriteSupported = state.Get(AttrAtomicWrite).Bool().Value(), state.Get("atomic_write_16k_supported").Bool().Value()
	}
	return u
}

// DestroyRequestOf is the destroy of an instance resource as its state gives it (the plan's and
// the apply's alike).
func DestroyRequestOf(state AttrValue) DestroyRequest {
	s := func(name string) string { return state.Get(name).String() }
	req := DestroyRequest{InstanceID: s("id"), DeletionProtection: state.Get(AttrDeletionProtection).Bool().Value(), OnDestroy: s(AttrPrepaidOnDestroy),
		KeepPolicy: s(AttrReleasedKeepPolicy), LockMode: s("lock_mode"), ReadOnly: state.Has("master_instance_id"), MasterID: s("master_instance_id"),
		StorageType: s(AttrStorageType), PreventDataLoss: state.Get(AttrPreventDataLoss).Bool().Value(), ReadOnlyInstances: state.Get("read_only_instance_ids").Strings()}
	if state.Has(AttrBilling) {
		req.Prepaid = BillingState{PayType: state.Get(AttrBilling).Get("pay_type").String(), ExpireTime: s("expire_time")}.Prepaid()
	}
	return req
}

// CheckTimeouts refuses a configured timeout (timeouts.create, update or delete) that is not positive.
func CheckTimeouts(timeouts AttrValue) []Problem {
	var problems []Problem
	for _, name := range []string{"create", "update", "delete"} {
		raw := timeouts.Get(name).String() // "" (null or unknown) does not parse
		if d, err := time.ParseDuration(raw); err == nil && d <= 0 {
			problems = append(problems, Raise(RuleTimeoutNotPositive, raw, name, raw).At("timeouts."+name))
		}
	}
	return problems
}

// TagRequestOf is the tags' request of an instance's plan from its configuration and prior state
// (null for a create); the caller adds the provider's default_tags.
func TagRequestOf(config, state AttrValue, ownTags int) TagRequest {
	tags := config.Get("tags")
	in := TagRequest{OwnUnknown: !tags.WhollyKnown(), OwnNull: tags.IsNull(), Group: config.Get("resource_group_id").String(),
		PriorGroup: state.Get("resource_group_id").String(), HasPrior: !state.IsNull(), OwnTagCount: ownTags}
	if !in.OwnUnknown {
		in.Own = tags.StringMap()
	}
	return in
}
