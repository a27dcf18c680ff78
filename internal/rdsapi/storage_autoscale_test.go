package rdsapi

import (
	"testing"

	"github.com/aliyun/credentials-go/credentials"
)

// DAS actions go to DAS's endpoint with its API version on the real cloud, and to the endpoint
// override (the simulator serves both APIs) when one is set; RDS actions are unchanged.
func TestDASActionsTargetTheirEndpointAndVersion(t *testing.T) {
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").SetAccessKeyId("id").SetAccessKeySecret("secret"))
	if err != nil {
		t.Fatal(err)
	}
	cloud, err := New(Config{RegionID: "cn-beijing", Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	if e, v := cloud.target("DescribeAutoScalingConfig"); e != "https://das.cn-shanghai.aliyuncs.com/" || v != DASAPIVersion {
		t.Fatalf("DAS on the real cloud: %s %s", e, v)
	}
	if e, v := cloud.target("ModifyDasInstanceConfig"); e != cloud.Endpoint() || v != APIVersion {
		t.Fatalf("ModifyDasInstanceConfig is an RDS action: %s %s", e, v)
	}
	sim, err := New(Config{RegionID: "cn-beijing", Credentials: cred, Endpoint: "http://127.0.0.1:9000"})
	if err != nil {
		t.Fatal(err)
	}
	if e, v := sim.target("DescribeAutoScalingConfig"); e != sim.Endpoint() || v != DASAPIVersion {
		t.Fatalf("DAS with an endpoint override: %s %s", e, v)
	}
}
