package provider

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// parameterTemplateCache caches DescribeParameterTemplates, converted for the planner.
type parameterTemplateCache struct {
	cache rdsservice.AnswerCache[rdsapi.DescribeParameterTemplatesRequest, rdsservice.ParameterTemplate]
}

// template returns the template of an engine, version and edition.
func (c *parameterTemplateCache) template(ctx context.Context, api rdsapi.API, req rdsapi.DescribeParameterTemplatesRequest) (rdsservice.ParameterTemplate, error) {
	return c.cache.Get(req, func() (rdsservice.ParameterTemplate, error) {
		answer, err := api.DescribeParameterTemplates(ctx, &req)
		if err != nil {
			return rdsservice.ParameterTemplate{}, err
		}
		return rdsservice.TemplateFromAPI(req.Engine, req.EngineVersion, answer), nil
	})
}
