package simulator

import (
	"regexp"
	"strconv"
	"strings"
)

// Tags (issue 12). CreateDBInstance takes Tag.N.Key / Tag.N.Value; DescribeDBInstances filters by
// Tag.N.key / Tag.N.value (the spellings of Alibaba's request models; the simulator accepts either
// case, an assumption). Limits follow the tag documentation (README): keys up to 64 characters,
// values up to 128, keys not starting with "aliyun" or "acs:"; tags are numbered 1 to 20.

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
		if len(v) > 128 {
			return nil, errInvalid("Tag."+strconv.Itoa(n)+".Value", "a tag value is at most 128 characters")
		}
	}
	for n, k := range keys {
		lower := strings.ToLower(k)
		if k == "" || len(k) > 64 || strings.HasPrefix(lower, "aliyun") || strings.HasPrefix(lower, "acs:") {
			return nil, errInvalid("Tag."+strconv.Itoa(n)+".Key", "a tag key is 1 to 64 characters and does not start with aliyun or acs:")
		}
		tags[k] = values[n]
	}
	return tags, nil
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
