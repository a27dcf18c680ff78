package simulator

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 42 §2: ModifySecurityGroupConfiguration replaces the instance's ECS security groups (an
// empty list removes them), at most 10, each an sg- id; DescribeSecurityGroupConfiguration reads them.
func TestSecurityGroupConfiguration(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	groups := func() string {
		body := e.c.ok("DescribeSecurityGroupConfiguration", map[string]string{"DBInstanceId": id})
		var out []string
		for _, it := range body["Items"].(map[string]any)["EcsSecurityGroupRelation"].([]any) {
			m := it.(map[string]any)
			out = append(out, m["SecurityGroupId"].(string)+"@"+m["RegionId"].(string))
		}
		return strings.Join(out, " ")
	}
	if got := groups(); got != "" {
		t.Fatalf("a new instance has groups: %s", got)
	}
	e.c.ok("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id, "SecurityGroupId": "sg-app1,sg-app2,sg-app1"})
	if got := groups(); got != "sg-app1@"+DefaultRegion+" sg-app2@"+DefaultRegion {
		t.Fatalf("groups: %s", got)
	}
	var eleven []string
	for i := range 11 {
		eleven = append(eleven, fmt.Sprintf("sg-g%d", i))
	}
	e.c.fails("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id, "SecurityGroupId": strings.Join(eleven, ",")}, 400, "AssociatedEcsSecurityGroupIdQuotaExceed")
	e.c.fails("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id, "SecurityGroupId": "vpc-123"}, 400, "InvalidSecurityGroupId.Malformed")
	e.c.fails("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id}, 400, "MissingParameter")
	e.c.ok("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id, "SecurityGroupId": strings.Join(eleven[:10], ",")})
	e.c.ok("ModifySecurityGroupConfiguration", map[string]string{"DBInstanceId": id, "SecurityGroupId": ""})
	if got := groups(); got != "" {
		t.Fatalf("after removing every group: %s", got)
	}
	e.c.fails("DescribeSecurityGroupConfiguration", map[string]string{"DBInstanceId": "rm-missing"}, 404, "InvalidDBInstanceId.NotFound")
}
