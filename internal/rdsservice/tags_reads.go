package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

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
