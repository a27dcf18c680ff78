package rdsservice

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The class catalogue: what the cloud offers, asked once per process and shared by the planner
// (ClassFacts) and the discovery data sources (catalogue_select.go), so that a class the data
// sources offer is one the plan accepts.

// AnswerCache remembers successful answers of a read-only API call for the life of the provider
// process: a plan of many instances of one kind asks the cloud once, not once per instance (and
// not again when Terraform plans once more during apply). The zero value is ready to use.
type AnswerCache[K comparable, V any] struct {
	mu      sync.Mutex
	answers map[K]V
}

// Get returns the answer for key, calling fetch on a miss. Only successful answers are kept; the
// lock is held across a miss so that concurrent plans of the same kind wait for one request.
func (c *AnswerCache[K, V]) Get(key K, fetch func() (V, error)) (V, error) {
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

// Catalogue caches DescribeAvailableClasses (per combination and zone), DescribeAvailableZones
// (per engine and version) and ListClasses (once per region). The zero value is ready to use.
type Catalogue struct {
	classes AnswerCache[rdsapi.DescribeAvailableClassesRequest, *rdsapi.DescribeAvailableClassesResponse]
	zones   AnswerCache[rdsapi.DescribeAvailableZonesRequest, []Zone]
	details AnswerCache[string, map[string]ClassDetail]
}

// Offered returns the classes offered for req.
func (c *Catalogue) Offered(ctx context.Context, api rdsapi.API, req rdsapi.DescribeAvailableClassesRequest) (*rdsapi.DescribeAvailableClassesResponse, error) {
	return c.classes.Get(req, func() (*rdsapi.DescribeAvailableClassesResponse, error) {
		return api.DescribeAvailableClasses(ctx, &req)
	})
}

// ClassFacts asks the catalogue about one combination (req names the region and the pay type)
// and sorts the answer for the planner: offered classes, or why there are none.
func (c *Catalogue) ClassFacts(ctx context.Context, api rdsapi.API, req rdsapi.DescribeAvailableClassesRequest) *ClassFacts {
	f := &ClassFacts{Combination: fmt.Sprintf("%s %s, category %s, storage_type %s%s",
		req.Engine, req.EngineVersion, req.Category, req.DBInstanceStorageType, inZone(req.ZoneID))}
	out, err := c.Offered(ctx, api, req)
	switch {
	case err == nil:
	case rdsapi.ErrorCode(err) == "" || rdsapi.IsAuth(err):
		f.Unavailable = err.Error()
		return f
	case rdsapi.IsThrottled(err) || rdsapi.IsTransient(err) || rdsapi.IsBusy(err):
		f.LookupError = err.Error()
		return f
	default:
		// A definite refusal of the combination itself: the create would be refused the same way.
		f.Refusal, f.RefusedAttribute = err.Error(), refusedAttribute(err)
		return f
	}
	for _, o := range out.DBInstanceClasses {
		rng := o.DBInstanceStorageRange
		f.Offered = append(f.Offered, OfferedClass{Class: o.DBInstanceClass,
			MinStorage: int64(rng.MinValue), MaxStorage: int64(rng.MaxValue), Step: int64(rng.Step)})
	}
	return f
}

func inZone(zone string) string {
	if zone == "" {
		return ""
	}
	return " in zone " + zone
}

// refusedAttribute maps the API parameter a refusal names to the attribute to fix.
func refusedAttribute(err error) string {
	message := err.Error()
	for _, candidate := range []struct{ parameter, attribute string }{
		{"EngineVersion", AttrEngineVersion}, {"DBInstanceStorageType", AttrStorageType}, {"StorageType", AttrStorageType},
		{"Category", AttrCategory}, {"ZoneId", "zone_id"}, {"Engine", AttrEngine},
	} {
		if strings.Contains(message, candidate.parameter) {
			return candidate.attribute
		}
	}
	return AttrInstanceType
}
