package simulator

import (
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
)

// sdkAccessLists drives the access-list actions of issue 42 §2 through the classic SDK's typed
// models: the ECS security groups set, read back, and removed.
func (e *sdkEnv) sdkAccessLists(id string) {
	e.t.Helper()
	modify := rds.CreateModifySecurityGroupConfigurationRequest()
	modify.DBInstanceId, modify.SecurityGroupId = id, "sg-app1,sg-app2"
	modified := rds.CreateModifySecurityGroupConfigurationResponse()
	e.do(modify, modified)
	if modified.DBInstanceName != id || len(modified.Items.EcsSecurityGroupRelation) != 2 {
		e.t.Fatalf("ModifySecurityGroupConfiguration: %+v", modified)
	}
	describe := rds.CreateDescribeSecurityGroupConfigurationRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeSecurityGroupConfigurationResponse()
	e.do(describe, described)
	if g := described.Items.EcsSecurityGroupRelation; len(g) != 2 || g[1].SecurityGroupId != "sg-app2" || g[0].RegionId != DefaultRegion || g[0].NetworkType == "" {
		e.t.Fatalf("DescribeSecurityGroupConfiguration: %+v", described)
	}
	clear := rds.CreateModifySecurityGroupConfigurationRequest()
	clear.DBInstanceId = id
	clear.QueryParams["SecurityGroupId"] = "" // the typed field is left out when empty
	e.do(clear, rds.CreateModifySecurityGroupConfigurationResponse())
}
