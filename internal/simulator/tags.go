package simulator

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Tags (issues 12 and 27). CreateDBInstance takes Tag.N.Key / Tag.N.Value; DescribeDBInstances filters by
// Tag.N.key / Tag.N.value (the spellings of Alibaba's request models; the simulator accepts either
// case, an assumption). Limits follow the tag documentation (README): keys up to 64 characters,
// values up to 128, neither starting with "aliyun", "acs:", "http://" or "https://"; tags are
// numbered 1 to 20.

var tagParam = regexp.MustCompile(`^Tag\.([0-9]+)\.([A-Za-z]+)$`)

const maxTags = 20

// parseTags reads the Tag.N.Key / Tag.N.Value pairs of a request.
func parseTags(p params) (map[string]string, *apiError) {
	keys, values := map[int]string{}, map[int]string{}
	for name, v := range p {
		m := tagParam.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 || n > maxTags {
			return nil, errInvalid(name, "tags are numbered 1 to %d", maxTags)
		}
		switch strings.ToLower(m[2]) {
		case "key":
			keys[n] = v
		case "value":
			values[n] = v
		default:
			return nil, errInvalid(name, "a tag has a Key and a Value")
		}
	}
	if len(keys) == 0 && len(values) == 0 {
		return nil, nil
	}
	tags := map[string]string{}
	for n, v := range values {
		if _, ok := keys[n]; !ok {
			return nil, errInvalid("Tag."+strconv.Itoa(n)+".Key", "a tag value needs its key")
		}
		if len(v) > 128 || reservedTagPrefix(v) {
			return nil, errInvalid("Tag."+strconv.Itoa(n)+".Value", "a tag value is at most 128 characters and does not start with aliyun, acs:, http:// or https://")
		}
	}
	for n, k := range keys {
		if k == "" || len(k) > 64 || reservedTagPrefix(k) {
			return nil, errInvalid("Tag."+strconv.Itoa(n)+".Key", "a tag key is 1 to 64 characters and does not start with aliyun, acs:, http:// or https://")
		}
		tags[k] = values[n]
	}
	return tags, nil
}

// reservedTagPrefix: keys and values must not start with these, in any case (README).
func reservedTagPrefix(s string) bool {
	lower := strings.ToLower(s)
	for _, p := range []string{"aliyun", "acs:", "http://", "https://"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// hasTags reports whether the instance carries every tag of filter.
func hasTags(in *instance, filter map[string]string) bool {
	for k, v := range filter {
		if got, ok := in.Tags[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// The tag actions (TagResources, UntagResources, ListTagResources with ResourceType INSTANCE) and
// ModifyResourceGroup, after the RDS API reference (README). Limits: 1 to 50 ResourceId.N per call,
// 1 to 20 tags or TagKey.N per call, at most maxTagsPerInstance tags on one instance (the Tag
// service's per-resource limit; an assumption for RDS). Tags change in any status and lock mode
// (an assumption: tags are the Tag service's metadata, not a change to the instance).

const (
	maxTagResources    = 50
	maxTagsPerInstance = 20
	listTagsPageSize   = 100 // an assumption: the reference names no page size
)

var (
	resourceIDParam = regexp.MustCompile(`^ResourceId\.([0-9]+)$`)
	tagKeyParam     = regexp.MustCompile(`^TagKey\.([0-9]+)$`)
)

// tagTargets are the instances a tag action names, in ResourceId order.
func (s *Simulator) tagTargets(p params) ([]*instance, *apiError) {
	if t, e := p.required("ResourceType"); e != nil {
		return nil, e
	} else if !strings.EqualFold(t, "INSTANCE") {
		return nil, errInvalid("ResourceType", "must be INSTANCE")
	}
	ids, e := numbered(p, resourceIDParam, "ResourceId", maxTagResources)
	if e != nil {
		return nil, e
	}
	if len(ids) == 0 {
		return nil, errMissing("ResourceId.1")
	}
	var out []*instance
	for _, id := range ids {
		in, ok := s.state.Instances[id]
		if !ok {
			return nil, errNotFound(id)
		}
		out = append(out, in)
	}
	return out, nil
}

// numbered reads Name.1 .. Name.limit in order.
func numbered(p params, re *regexp.Regexp, name string, limit int) ([]string, *apiError) {
	byN := map[int]string{}
	for k, v := range p {
		m := re.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 || n > limit {
			return nil, errInvalid(k, "%s is numbered 1 to %d", name, limit)
		}
		byN[n] = v
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, byN[n])
	}
	return out, nil
}

func (s *Simulator) tagResources(c *call) (map[string]any, *apiError) {
	targets, e := s.tagTargets(c.p)
	if e != nil {
		return nil, e
	}
	tags, e := parseTags(c.p)
	if e != nil {
		return nil, e
	}
	if len(tags) == 0 {
		return nil, errMissing("Tag.1.Key")
	}
	for _, in := range targets {
		n := len(in.Tags)
		for k := range tags {
			if _, ok := in.Tags[k]; !ok {
				n++
			}
		}
		if n > maxTagsPerInstance {
			return nil, newErr(400, "NumberExceed.Tags", "Instance %s would have %d tags; at most %d are allowed.", in.ID, n, maxTagsPerInstance)
		}
	}
	for _, in := range targets {
		if in.Tags == nil {
			in.Tags = map[string]string{}
		}
		for k, v := range tags {
			in.Tags[k] = v
		}
	}
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) untagResources(c *call) (map[string]any, *apiError) {
	targets, e := s.tagTargets(c.p)
	if e != nil {
		return nil, e
	}
	keys, e := numbered(c.p, tagKeyParam, "TagKey", maxTags)
	if e != nil {
		return nil, e
	}
	all, e := c.p.boolean("All")
	if e != nil {
		return nil, e
	}
	if len(keys) == 0 && !all {
		return nil, errMissing("TagKey.1")
	}
	for _, in := range targets {
		if all {
			in.Tags = nil
			continue
		}
		for _, k := range keys {
			delete(in.Tags, k)
		}
	}
	c.dirty = true
	return map[string]any{}, nil
}

// listTagResources pages the tags of the named instances, by instance then key; NextToken is the
// offset of the next page.
func (s *Simulator) listTagResources(c *call) (map[string]any, *apiError) {
	targets, e := s.tagTargets(c.p)
	if e != nil {
		return nil, e
	}
	var all []map[string]any
	for _, in := range targets {
		keys := make([]string, 0, len(in.Tags))
		for k := range in.Tags {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			all = append(all, map[string]any{"ResourceId": in.ID, "ResourceType": "ALIYUN::RDS::INSTANCE", "TagKey": k, "TagValue": in.Tags[k]})
		}
	}
	start := 0
	if tok := c.p.get("NextToken"); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 || n > len(all) {
			return nil, errInvalid("NextToken", "not a token this action returned")
		}
		start = n
	}
	end, next := min(start+listTagsPageSize, len(all)), ""
	if end < len(all) {
		next = strconv.Itoa(end)
	}
	page := all[start:end]
	if page == nil {
		page = []map[string]any{}
	}
	return map[string]any{"NextToken": next, "TagResources": map[string]any{"TagResource": page}}, nil
}

var resourceGroupPattern = regexp.MustCompile(`^rg-[a-z0-9]{4,32}$`)

// modifyResourceGroup moves an instance to another resource group of the account. The simulator
// knows no list of groups: any well-formed id (rg-...) is one (an assumption).
func (s *Simulator) modifyResourceGroup(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	rg, e := c.p.required("ResourceGroupId")
	if e != nil {
		return nil, e
	}
	if !resourceGroupPattern.MatchString(rg) {
		return nil, errInvalid("ResourceGroupId", "%q is not a resource group id (rg-...)", truncate(rg))
	}
	in.ResourceGroupID = rg
	c.dirty = true
	return map[string]any{}, nil
}

// resourceManagerAPIVersion is the version Resource Manager actions name (ListResourceGroups).
const resourceManagerAPIVersion = "2020-03-31"

// resourceGroupCreateDate is every group's CreateDate: the simulator keeps no list of groups, so
// no creation time (README "Tag actions and resource groups", an assumption).
const resourceGroupCreateDate = "2024-01-01T00:00:00+08:00"

// resourceManagerActions are the actions of the Resource Manager API the simulator serves.
var resourceManagerActions = map[string]bool{"ListResourceGroups": true}

func init() { actions["ListResourceGroups"] = (*Simulator).listResourceGroups }

// listResourceGroups is Resource Manager's ListResourceGroups filtered by ResourceGroupId (README
// "Tags and resource groups"): as ModifyResourceGroup, the simulator takes every well-formed id
// for a group of the account (an assumption), so an id of another form is not found. Without the
// filter it lists the account's default group and the groups its instances are in.
func (s *Simulator) listResourceGroups(c *call) (map[string]any, *apiError) {
	want := c.p.get("ResourceGroupId")
	groups := []map[string]any{}
	add := func(id string) {
		for _, g := range groups {
			if g["Id"] == id {
				return
			}
		}
		groups = append(groups, map[string]any{"Id": id, "Name": id, "DisplayName": id, "Status": "OK",
			"AccountId": accountUID, "CreateDate": resourceGroupCreateDate})
	}
	switch {
	case want != "" && resourceGroupPattern.MatchString(want):
		add(want)
	case want == "":
		add(resourceGroupID)
		for _, in := range s.state.Instances {
			add(resourceGroupOf(in))
		}
	}
	return map[string]any{"ResourceGroups": map[string]any{"ResourceGroup": groups}, "TotalCount": len(groups), "PageNumber": 1, "PageSize": max(len(groups), 10)}, nil
}

// resourceGroupOf is the instance's resource group: the account's default group until moved.
func resourceGroupOf(in *instance) string {
	if in.ResourceGroupID != "" {
		return in.ResourceGroupID
	}
	return resourceGroupID
}

// optionalResourceGroup is a create's ResourceGroupId: "" (the default group) or a group id.
func optionalResourceGroup(p params) (string, *apiError) {
	rg := p.get("ResourceGroupId")
	if rg != "" && !resourceGroupPattern.MatchString(rg) {
		return "", errInvalid("ResourceGroupId", "%q is not a resource group id (rg-...)", truncate(rg))
	}
	return rg, nil
}
