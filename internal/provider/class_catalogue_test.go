package provider

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func TestClassCatalogueAsksOncePerKind(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	var catalogue rdsservice.Catalogue
	mysql := rdsapi.DescribeAvailableClassesRequest{RegionID: simulator.DefaultRegion, Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceStorageType: "cloud_essd", Category: "HighAvailability", InstanceChargeType: rdsapi.PayTypePostpaid}
	basic := mysql
	basic.Category = "Basic"

	for range 3 {
		for _, req := range []rdsapi.DescribeAvailableClassesRequest{mysql, basic} {
			answer, err := catalogue.Offered(context.Background(), env.api, req)
			if err != nil {
				t.Fatal(err)
			}
			if len(answer.DBInstanceClasses) == 0 {
				t.Fatalf("no classes offered for %+v", req)
			}
		}
	}
	if got := env.sim.Stats().Requests["DescribeAvailableClasses"]; got != 2 {
		t.Fatalf("DescribeAvailableClasses sent %d times for 2 kinds, want 2", got)
	}
}
