package rdsservice

import (
	"context"
	"fmt"
	"sort"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
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

// tags runs an OpTags or OpModifyResourceGroup. The change sent is computed from the instance's
// tags as read now, not as the last refresh saw them: a tag added outside Terraform since then, or
// on an instance whose tags were not managed until this apply (and so not read), is removed too,
// and the state the apply writes is what the cloud has.
func (x *executor) tags(ctx context.Context, op Operation) error {
	if op.Action == OpModifyResourceGroup {
		return x.w.RetryBusy(ctx, func() error { return x.api.ModifyResourceGroup(ctx, x.out.ID, op.ResourceGroup) })
	}
	if op.Tags == nil {
		return fmt.Errorf("the tags of %s are not known at apply", x.out.ID)
	}
	current, err := ReadTags(ctx, x.api, []string{x.out.ID})
	if err != nil {
		return err
	}
	return ApplyTagChange(ctx, x.api, x.w, x.out.ID, ChangeFrom(current[x.out.ID], x.e.Plan.Desired.Tags.Want))
}

// ApplyTagChange sends a change in calls of at most 20 keys, removals first.
func ApplyTagChange(ctx context.Context, api rdsapi.API, w *Waiter, id string, c TagChange) error {
	for _, keys := range chunks(c.Remove, rdsapi.MaxTagsPerCall) {
		req := &rdsapi.UntagResourcesRequest{ResourceIDs: []string{id}, TagKeys: keys}
		if err := w.RetryBusy(ctx, func() error { return api.UntagResources(ctx, req) }); err != nil {
			return fmt.Errorf("UntagResources %s: %w", id, err)
		}
	}
	keys := make([]string, 0, len(c.Set))
	for k := range c.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, part := range chunks(keys, rdsapi.MaxTagsPerCall) {
		req := &rdsapi.TagResourcesRequest{ResourceIDs: []string{id}}
		for _, k := range part {
			req.Tags = append(req.Tags, rdsapi.Tag{Key: k, Value: c.Set[k]})
		}
		if err := w.RetryBusy(ctx, func() error { return api.TagResources(ctx, req) }); err != nil {
			return fmt.Errorf("TagResources %s: %w", id, err)
		}
	}
	return nil
}

// ReadTags reads the tags of instances, 50 ids per ListTagResources (one call for up to 50
// instances of at most 20 tags each, more only when the answer pages). Every id gets a map, empty
// when the instance has no tags; the provider's own tags are left out.
func ReadTags(ctx context.Context, api rdsapi.API, ids []string) (map[string]map[string]string, error) {
	out := make(map[string]map[string]string, len(ids))
	for _, id := range ids {
		out[id] = map[string]string{}
	}
	for _, part := range chunks(ids, rdsapi.MaxTagResourcesPerCall) {
		req := &rdsapi.ListTagResourcesRequest{ResourceIDs: part}
		for pages := 0; ; pages++ {
			if pages > maxTagPages {
				return nil, fmt.Errorf("ListTagResources: more than %d pages for %d instances", maxTagPages, len(part))
			}
			page, err := api.ListTagResources(ctx, req)
			if err != nil {
				return nil, fmt.Errorf("ListTagResources: %w", err)
			}
			for _, t := range page.TagResources.TagResource {
				if m, ok := out[t.ResourceID]; ok && !OwnTag(t.TagKey) {
					m[t.TagKey] = t.TagValue
				}
			}
			if page.NextToken == "" || page.NextToken == req.NextToken {
				break
			}
			req.NextToken = page.NextToken
		}
	}
	return out, nil
}

// maxTagPages bounds the pages of one ListTagResources listing (50 instances of 20 tags are
// 1,000 tags), so an answer that never ends its paging cannot loop forever.
const maxTagPages = 1000

func chunks(items []string, size int) [][]string {
	var out [][]string
	for len(items) > size {
		out = append(out, items[:size])
		items = items[size:]
	}
	if len(items) > 0 {
		out = append(out, items)
	}
	return out
}
