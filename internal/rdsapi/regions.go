package rdsapi

import (
	"context"
	"sort"
)

// RDSRegion is one item of DescribeRegions: the service lists one item per zone of a region.
type RDSRegion struct {
	RegionID       string `json:"RegionId"`
	ZoneID         string `json:"ZoneId"`
	LocalName      string `json:"LocalName"`
	RegionEndpoint string `json:"RegionEndpoint"`
}

// DescribeRegionsResponse is the answer to DescribeRegions.
type DescribeRegionsResponse struct {
	RequestID string `json:"RequestId"`
	Regions   struct {
		RDSRegion []RDSRegion `json:"RDSRegion"`
	} `json:"Regions"`
}

// DescribeRegions lists the regions and zones where RDS is offered. It takes no RegionId: the
// answer is the same from every endpoint.
func (c *Client) DescribeRegions(ctx context.Context) (*DescribeRegionsResponse, error) {
	var out DescribeRegionsResponse
	if err := c.call(ctx, "DescribeRegions", params{}, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RegionIDs returns the distinct region ids of the answer, sorted.
func (r *DescribeRegionsResponse) RegionIDs() []string {
	seen := map[string]bool{}
	var ids []string
	for _, item := range r.Regions.RDSRegion {
		if item.RegionID != "" && !seen[item.RegionID] {
			seen[item.RegionID] = true
			ids = append(ids, item.RegionID)
		}
	}
	sort.Strings(ids)
	return ids
}
