package rdsservice

import (
	"context"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TemplateCache caches DescribeParameterTemplates, converted for the planner, for the life of the
// provider process (per engine, version and edition). The zero value is ready to use.
type TemplateCache struct {
	cache AnswerCache[rdsapi.DescribeParameterTemplatesRequest, ParameterTemplate]
}

// Template returns the template of an engine, version and edition.
func (c *TemplateCache) Template(ctx context.Context, api rdsapi.API, req rdsapi.DescribeParameterTemplatesRequest) (ParameterTemplate, error) {
	return c.cache.Get(req, func() (ParameterTemplate, error) {
		answer, err := api.DescribeParameterTemplates(ctx, &req)
		if err != nil {
			return ParameterTemplate{}, err
		}
		return TemplateFromAPI(req.Engine, req.EngineVersion, answer), nil
	})
}
