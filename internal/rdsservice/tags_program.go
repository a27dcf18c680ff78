package rdsservice

import (
	"sort"
)

// Tags and the resource group in the program: the planner turns the planned tags_all and
// resource_group_id into operations (TagResources/UntagResources, ModifyResourceGroup), the one
// executor runs them. Tag writes go out in calls of at most 20 tags or keys, removals first, so
// that an instance at the 20-tag limit can swap tags; the provider's own tag is never removed.

// Operation kinds of tags and resource groups.
const (
	OpTags                = "TagResources/UntagResources"
	OpModifyResourceGroup = "ModifyResourceGroup"
)

// TagPlan is what the planner knows of an instance's tags and resource group.
type TagPlan struct {
	// Want is tags_all as planned; WantUnknown is set while it is known only at apply (the
	// program then holds the operation without its change; the apply decides it again).
	Want        map[string]string
	WantUnknown bool
	// Prior is tags_all in the state (nil for a create).
	Prior map[string]string
	// ResourceGroup is the configured resource_group_id ("" when not set); PriorResourceGroup the
	// state's.
	ResourceGroup, PriorResourceGroup string
	// CreateCarriesTags: the create request itself carries the tags and the group
	// (CreateDBInstance); CreateReadOnlyDBInstance and CloneDBInstance take no tags.
	CreateCarriesTags bool
}

// TagChange is what one OpTags sends: tags to set (added or changed) and keys to remove.
type TagChange struct {
	Set    map[string]string
	Remove []string
}

// Empty reports whether there is nothing to send.
func (c TagChange) Empty() bool { return len(c.Set) == 0 && len(c.Remove) == 0 }

// ChangeFrom is the change that turns current into want; the provider's own tags are never removed.
func ChangeFrom(current, want map[string]string) TagChange {
	c := TagChange{Set: map[string]string{}}
	for k, v := range want {
		if cur, ok := current[k]; !ok || cur != v {
			c.Set[k] = v
		}
	}
	for k := range current {
		if _, ok := want[k]; !ok && !OwnTag(k) {
			c.Remove = append(c.Remove, k)
		}
	}
	sort.Strings(c.Remove)
	return c
}

// tagOperations adds the tag and resource-group operations of the program: after a create whose
// request could not carry them, and now for an update.
func (b *programBuilder) tagOperations(label string, when When) {
	t := b.in.Desired.Tags
	if when == WhenAfterCreate && t.CreateCarriesTags {
		return
	}
	switch change := ChangeFrom(t.Prior, t.Want); {
	case t.WantUnknown:
		// Known at apply, when the planner runs again with the values.
		b.add(Operation{Instance: label, Action: OpTags, When: when})
	case !change.Empty():
		b.add(Operation{Instance: label, Action: OpTags, When: when, Tags: &change})
	}
	if when == WhenAfterCreate {
		b.resourceGroup(label, when)
	}
}

// resourceGroup adds the move to another resource group. An update sends it first, before any
// operation that restarts the instance: the plan checks the group with Resource Manager's
// ListResourceGroups, but cannot when the credentials may not list groups, and a group the cloud
// refuses then stops the apply before anything changed rather than after a restart (issue 41 §2.8).
func (b *programBuilder) resourceGroup(label string, when When) {
	if t := b.in.Desired.Tags; t.ResourceGroup != "" && t.ResourceGroup != t.PriorResourceGroup {
		b.add(Operation{Instance: label, Action: OpModifyResourceGroup, When: when, ResourceGroup: t.ResourceGroup})
	}
}
