package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TagRequest is what tags_all and resource_group_id are planned from (issue 27): the provider's
// default_tags, the resource's configured tags and group, and the group the state has.
type TagRequest struct {
	// Defaults is the provider's default_tags; DefaultsUnknown when any of it is unknown at plan
	// (or the provider is not configured yet).
	Defaults        map[string]string
	DefaultsUnknown bool
	// Own is the resource's configured tags; OwnUnknown when any of it is unknown, OwnNull when
	// tags is not configured at all.
	Own                 map[string]string
	OwnUnknown, OwnNull bool
	// Group is the configured resource_group_id ("" when unset or unknown); PriorGroup the state's,
	// HasPrior false for a create.
	Group, PriorGroup string
	HasPrior          bool
	// OwnTagCount is the number of the provider's own tags the instance carries (1 for a primary
	// this provider created: its create-token tag).
	OwnTagCount int
}

// TagsPlan is the planned tags_all (All: null when there are no tags anywhere, as a refresh finds
// it), with the problems of the merged tags and the group.
type TagsPlan struct {
	All      MapValue
	Problems []Problem
}

// PlanTags plans tags_all, checks the merged tags against the cloud's limits and checks the
// resource group (asking Resource Manager whether a group the plan moves the instance into exists).
// It runs before the planner's "nothing changed" shortcut: a changed default changes no resource's
// configuration.
func PlanTags(ctx context.Context, api rdsapi.API, req TagRequest) TagsPlan {
	var out TagsPlan
	if req.Group != "" {
		out.Problems = CheckResourceGroupID(req.Group)
		if len(out.Problems) == 0 && api != nil && (!req.HasPrior || req.PriorGroup != req.Group) {
			groups, err := api.ListResourceGroups(ctx, req.Group)
			out.Problems = CheckResourceGroupExists(req.Group, groups, err)
		}
	}
	if req.DefaultsUnknown || req.OwnUnknown {
		out.All.Unknown = true
		return out
	}
	merged := MergeTags(req.Defaults, req.Own)
	fromDefaults := func(k string) bool { _, mine := req.Own[k]; return !mine }
	out.Problems = append(out.Problems, CheckTags(merged, fromDefaults, req.OwnTagCount)...)
	out.All = MapValue{Values: merged, Null: len(merged) == 0 && req.OwnNull}
	return out
}
