package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// maxListPages bounds token paging against a server that never ends the list.
const maxListPages = 10000

// ListAllDBInstances reads every page of DescribeDBInstances in token mode (MaxResults 100 unless
// req sets another) and returns all items. A server that repeats a token is an error, not a loop.
func ListAllDBInstances(ctx context.Context, api rdsapi.API, req *rdsapi.DescribeDBInstancesRequest) ([]rdsapi.DBInstanceSummary, error) {
	r := rdsapi.DescribeDBInstancesRequest{}
	if req != nil {
		r = *req
	}
	r.PageNumber, r.PageSize = 0, 0
	if r.MaxResults <= 0 || r.MaxResults > 100 {
		r.MaxResults = 100
	}
	seen := map[string]bool{}
	if r.NextToken != "" {
		seen[r.NextToken] = true
	}
	var all []rdsapi.DBInstanceSummary
	for page := 1; ; page++ {
		resp, err := api.DescribeDBInstances(ctx, &r)
		if err != nil {
			return nil, fmt.Errorf("listing RDS instances (page %d): %w", page, err)
		}
		all = append(all, resp.Items.DBInstance...)
		next := resp.NextToken
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("listing RDS instances: the server returned NextToken %q again on page %d; stopping instead of looping", next, page)
		}
		if page >= maxListPages {
			return nil, fmt.Errorf("listing RDS instances: more than %d pages; stopping", maxListPages)
		}
		seen[next] = true
		r.NextToken = next
	}
}
