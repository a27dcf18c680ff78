package rdsservice

import (
	"context"
	"errors"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// templateAPI answers DescribeParameterTemplates, failing the first failures calls.
type templateAPI struct {
	rdsapi.API
	calls, failures int
}

func (a *templateAPI) DescribeParameterTemplates(_ context.Context, req *rdsapi.DescribeParameterTemplatesRequest) (*rdsapi.DescribeParameterTemplatesResponse, error) {
	a.calls++
	if a.calls <= a.failures {
		return nil, errors.New("lost")
	}
	out := &rdsapi.DescribeParameterTemplatesResponse{Engine: req.Engine, EngineVersion: rdsapi.FlexString(req.EngineVersion)}
	out.Parameters.TemplateRecord = []rdsapi.ParameterTemplateRecord{{ParameterName: "max_connections"}}
	return out, nil
}

// TestTemplateCacheAsksOnce: a plan of many instances of one kind asks once; a failure is not kept.
func TestTemplateCacheAsksOnce(t *testing.T) {
	api := &templateAPI{failures: 1}
	var c TemplateCache
	req := rdsapi.DescribeParameterTemplatesRequest{Engine: "MySQL", EngineVersion: "8.0"}
	if _, err := c.Template(context.Background(), api, req); err == nil {
		t.Fatal("the failure was not reported")
	}
	for range 3 {
		got, err := c.Template(context.Background(), api, req)
		if _, ok := got.Parameters["max_connections"]; err != nil || !ok {
			t.Fatalf("template: %+v, %v", got, err)
		}
	}
	other := req
	other.EngineVersion = "5.7"
	if _, err := c.Template(context.Background(), api, other); err != nil || api.calls != 3 {
		t.Fatalf("calls %d, want 3 (one failed, one per version): %v", api.calls, err)
	}
}
