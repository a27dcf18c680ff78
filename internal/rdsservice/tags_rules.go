package rdsservice

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Tags at plan: the merged set an instance carries (the provider's default_tags under the
// resource's tags) and the cloud's limits on it, raised from the rule table.

// Tag limits (RDS API reference; simulator README, "Tag actions and resource groups").
const (
	MaxTagKeyLength   = 64
	MaxTagValueLength = 128
	// MaxTagsPerInstance is the cloud's limit per instance, the provider's own tag included.
	MaxTagsPerInstance = 20
)

// ReservedTagPrefixes start no key or value, in any case.
var ReservedTagPrefixes = []string{"aliyun", "acs:", "http://", "https://"}

const (
	RuleTagKeyLength      RuleID = "tag-key-length"
	RuleTagValueLength    RuleID = "tag-value-length"
	RuleTagReservedPrefix RuleID = "tag-reserved-prefix"
	RuleTagProviderKey    RuleID = "tag-provider-key"
	RuleTagCount          RuleID = "tag-count"
	RuleResourceGroupID   RuleID = "resource-group-id"
	RuleResourceGroupGone RuleID = "resource-group-missing"
	RuleResourceGroupOpen RuleID = "resource-group-unchecked"
)

// AttrTags is the attribute tag rules point at.
const AttrTags = "tags"

// OwnTag reports whether a tag is the provider's own (the create-token tag): it never shows in
// tags or tags_all and is never removed.
func OwnTag(key string) bool { return key == CreateTokenTagKey }

// MergeTags is tags_all: the defaults, overridden by the resource's tags.
func MergeTags(defaults, tags map[string]string) map[string]string {
	out := make(map[string]string, len(defaults)+len(tags))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range tags {
		out[k] = v
	}
	return out
}

// CheckTags checks the merged tags of an instance. fromDefaults tells, for a key, whether its value
// comes from the provider's default_tags (the message names where to fix it). ownTags is the number
// of the provider's own tags the instance carries (1 when created by this provider).
func CheckTags(merged map[string]string, fromDefaults func(key string) bool, ownTags int) []Problem {
	var problems []Problem
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where := "tags"
		if fromDefaults(k) {
			where = "the provider's default_tags"
		}
		problems = append(problems, checkTag(where, k, merged[k])...)
	}
	if n := len(merged) + ownTags; n > MaxTagsPerInstance {
		problems = append(problems, Raise(RuleTagCount, fmt.Sprint(n), n, len(merged), ownTags, MaxTagsPerInstance))
	}
	return problems
}

func checkTag(where, key, value string) []Problem {
	var problems []Problem
	if n := len(key); n == 0 || n > MaxTagKeyLength {
		problems = append(problems, Raise(RuleTagKeyLength, key, where, key, n, MaxTagKeyLength))
	}
	if n := len(value); n > MaxTagValueLength {
		problems = append(problems, Raise(RuleTagValueLength, value, where, key, n, MaxTagValueLength))
	}
	if p := reservedPrefix(key); p != "" {
		problems = append(problems, Raise(RuleTagReservedPrefix, key, where, "key", key, p))
	}
	if p := reservedPrefix(value); p != "" {
		problems = append(problems, Raise(RuleTagReservedPrefix, value, where, "value", value, p))
	}
	if OwnTag(key) {
		problems = append(problems, Raise(RuleTagProviderKey, key, where, key))
	}
	return problems
}

func reservedPrefix(s string) string {
	lower := strings.ToLower(s)
	for _, p := range ReservedTagPrefixes {
		if strings.HasPrefix(lower, p) {
			return p
		}
	}
	return ""
}

// CheckResourceGroupID checks a configured resource_group_id ("" is not set).
func CheckResourceGroupID(id string) []Problem {
	if id == "" || (strings.HasPrefix(id, "rg-") && len(id) > 3 && strings.Trim(id[3:], "abcdefghijklmnopqrstuvwxyz0123456789") == "") {
		return nil
	}
	return []Problem{Raise(RuleResourceGroupID, id, id)}
}

// CheckResourceGroupExists refuses a resource_group_id the account does not have, given what
// Resource Manager's ListResourceGroups found for it (groups) or why it could not be asked
// (lookupErr): a group being deleted is no group to move into. A failed lookup is a warning: the
// apply moves the instance first, before anything that restarts it (tags_program.go).
func CheckResourceGroupExists(id string, groups []rdsapi.ResourceGroup, lookupErr error) []Problem {
	switch {
	case lookupErr != nil:
		return []Problem{Raise(RuleResourceGroupOpen, id, id, lookupErr.Error())}
	case !slices.ContainsFunc(groups, func(g rdsapi.ResourceGroup) bool { return g.ID == id && g.Status != "PendingDelete" }):
		return []Problem{Raise(RuleResourceGroupGone, id, id)}
	}
	return nil
}

// TagsFromCloud is `tags` after a refresh: the instance's tags (its own tag left out) that are the
// resource's rather than the defaults'. A key the state's tags held stays there (its value as the
// cloud has it: drift shows); a key only the defaults, or the state's tags_all without tags, gave
// the same value is the defaults'; any other key was added outside Terraform and shows in tags,
// so the next plan removes it once. A null prior stays null when nothing is the resource's.
func TagsFromCloud(cloud, priorTags, priorAll, defaults map[string]string, priorNull bool) map[string]string {
	out := map[string]string{}
	for k, v := range cloud {
		_, mine := priorTags[k]
		fromDefaults := defaults[k] == v && hasKey(defaults, k)
		fromPriorAll := priorAll[k] == v && hasKey(priorAll, k) && !mine
		if mine || (!fromDefaults && !fromPriorAll) {
			out[k] = v
		}
	}
	if len(out) == 0 && priorNull {
		return nil
	}
	return out
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// WithoutOwnTags drops the provider's own tags from an instance's tags.
func WithoutOwnTags(tags map[string]string) map[string]string {
	out := make(map[string]string, len(tags))
	for k, v := range tags {
		if !OwnTag(k) {
			out[k] = v
		}
	}
	return out
}
