package provider

import (
	"context"
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// classCatalogue remembers DescribeAvailableClasses answers for the life of the provider process:
// a plan of many instances of one kind asks the cloud once, not once per instance (and not again
// when Terraform plans once more during apply). The zero value is ready to use.
type classCatalogue struct {
	mu      sync.Mutex
	answers map[rdsapi.DescribeAvailableClassesRequest]*rdsapi.DescribeAvailableClassesResponse
}

// offered returns the classes offered for req. Only successful answers are kept; the lock is held
// across a miss so that concurrent plans of the same kind wait for one request.
func (c *classCatalogue) offered(ctx context.Context, api rdsapi.API, req rdsapi.DescribeAvailableClassesRequest) (*rdsapi.DescribeAvailableClassesResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if answer, ok := c.answers[req]; ok {
		return answer, nil
	}
	answer, err := api.DescribeAvailableClasses(ctx, &req)
	if err != nil {
		return nil, err
	}
	if c.answers == nil {
		c.answers = map[rdsapi.DescribeAvailableClassesRequest]*rdsapi.DescribeAvailableClassesResponse{}
	}
	c.answers[req] = answer
	return answer, nil
}
