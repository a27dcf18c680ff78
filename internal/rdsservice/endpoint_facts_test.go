package rdsservice

import (
	"context"
	"errors"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// netInfoAPI fails DescribeDBInstanceNetInfo and DescribeDBInstances, counting the calls.
type netInfoAPI struct {
	rdsapi.API
	netInfo, list int
}

func (a *netInfoAPI) DescribeDBInstanceNetInfo(context.Context, string) (*rdsapi.DescribeDBInstanceNetInfoResponse, error) {
	a.netInfo++
	return nil, errors.New("boom")
}

func (a *netInfoAPI) DescribeDBInstances(context.Context, *rdsapi.DescribeDBInstancesRequest) (*rdsapi.DescribeDBInstancesResponse, error) {
	a.list++
	return nil, errors.New("boom")
}

// The endpoint facts are read only where the plan needs them, and a failed read is a warning.
func TestReadEndpointFactsWarnsWhereItReads(t *testing.T) {
	ctx := context.Background()
	api := &netInfoAPI{}
	env := Env{API: api}
	if f := readEndpointFacts(ctx, env, "rm-1", true, &EndpointPlan{}); f != nil || api.netInfo+api.list != 0 {
		t.Fatalf("unmanaged endpoints: %+v, %d+%d reads", f, api.netInfo, api.list)
	}
	managed := EndpointPlan{PublicManaged: true}
	if f := readEndpointFacts(ctx, env, "rm-1", true, &managed); len(f) != 1 || !f[0].Warning || f[0].Summary != "Cannot read the endpoints" || api.netInfo != 1 {
		t.Fatalf("existing instance: %+v, %d reads", f, api.netInfo)
	}
	create := EndpointPlan{Internal: Endpoint{Prefix: "app", Port: 3306}}
	if f := readEndpointFacts(ctx, env, "", false, &create); len(f) != 1 || !f[0].Warning || f[0].Summary != "Cannot check the new prefix" || api.netInfo != 1 || api.list == 0 {
		t.Fatalf("new prefix: %+v, %d+%d reads", f, api.netInfo, api.list)
	}
}
