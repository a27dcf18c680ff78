package provider

import (
	"context"
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// answerCache remembers successful answers of a read-only API call for the life of the provider
// process: a plan of many instances of one kind asks the cloud once, not once per instance (and
// not again when Terraform plans once more during apply). The zero value is ready to use.
type answerCache[K comparable, V any] struct {
	mu      sync.Mutex
	answers map[K]V
}

// get returns the answer for key, calling fetch on a miss. Only successful answers are kept; the
// lock is held across a miss so that concurrent plans of the same kind wait for one request.
func (c *answerCache[K, V]) get(key K, fetch func() (V, error)) (V, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if answer, ok := c.answers[key]; ok {
		return answer, nil
	}
	answer, err := fetch()
	if err != nil {
		return answer, err
	}
	if c.answers == nil {
		c.answers = map[K]V{}
	}
	c.answers[key] = answer
	return answer, nil
}

// classCatalogue caches DescribeAvailableClasses.
type classCatalogue struct {
	cache answerCache[rdsapi.DescribeAvailableClassesRequest, *rdsapi.DescribeAvailableClassesResponse]
}

// offered returns the classes offered for req.
func (c *classCatalogue) offered(ctx context.Context, api rdsapi.API, req rdsapi.DescribeAvailableClassesRequest) (*rdsapi.DescribeAvailableClassesResponse, error) {
	return c.cache.get(req, func() (*rdsapi.DescribeAvailableClassesResponse, error) {
		return api.DescribeAvailableClasses(ctx, &req)
	})
}

// parameterTemplateCache caches DescribeParameterTemplates, converted for the planner.
type parameterTemplateCache struct {
	cache answerCache[rdsapi.DescribeParameterTemplatesRequest, rdsservice.ParameterTemplate]
}

// template returns the template of an engine, version and edition.
func (c *parameterTemplateCache) template(ctx context.Context, api rdsapi.API, req rdsapi.DescribeParameterTemplatesRequest) (rdsservice.ParameterTemplate, error) {
	return c.cache.get(req, func() (rdsservice.ParameterTemplate, error) {
		answer, err := api.DescribeParameterTemplates(ctx, &req)
		if err != nil {
			return rdsservice.ParameterTemplate{}, err
		}
		return rdsservice.TemplateFromAPI(req.Engine, req.EngineVersion, answer), nil
	})
}
