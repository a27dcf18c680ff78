package provider

import (
	"context"
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// parameterTemplateCache remembers DescribeParameterTemplates answers for the life of the provider
// process, as classCatalogue does for classes: a plan of many instances of one engine version asks
// the cloud once. The zero value is ready to use.
type parameterTemplateCache struct {
	mu      sync.Mutex
	answers map[rdsapi.DescribeParameterTemplatesRequest]rdsservice.ParameterTemplate
}

// template returns the template of an engine, version and edition. Only successful answers are
// kept; the lock is held across a miss so that concurrent plans of one kind wait for one request.
func (c *parameterTemplateCache) template(ctx context.Context, api rdsapi.API, req rdsapi.DescribeParameterTemplatesRequest) (rdsservice.ParameterTemplate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.answers[req]; ok {
		return t, nil
	}
	answer, err := api.DescribeParameterTemplates(ctx, &req)
	if err != nil {
		return rdsservice.ParameterTemplate{}, err
	}
	t := rdsservice.TemplateFromAPI(req.Engine, req.EngineVersion, answer)
	if c.answers == nil {
		c.answers = map[rdsapi.DescribeParameterTemplatesRequest]rdsservice.ParameterTemplate{}
	}
	c.answers[req] = t
	return t, nil
}
