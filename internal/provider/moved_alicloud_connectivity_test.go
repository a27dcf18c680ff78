package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// An instance whose alicloud configuration changed its endpoint (connection_string_prefix, port), attached a
// security group and kept security_ips in a list of its own (db_instance_ip_array_name), with a public endpoint
// from alicloud_db_connection: after the move, the configuration that sets the same plans empty, and the public
// endpoint, left out, stays (public_connection_string reads it). The guide's recipe for alicloud_db_connection
// (removed, then public_endpoint) records public_endpoint with no write to the cloud.
func TestMoveFromAlicloudConnectivity(t *testing.T) {
	c := newMovedCloud(t)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	attr, err := c.api.DescribeDBInstanceAttribute(ctx, movedPrimary)
	must(err)
	must(c.api.ModifyDBInstanceConnectionString(ctx, &rdsapi.ModifyDBInstanceConnectionStringRequest{DBInstanceID: movedPrimary,
		CurrentConnectionString: attr.ConnectionString, ConnectionStringPrefix: "orders-db-01", Port: "3307"}))
	_, err = c.api.AllocateInstancePublicConnection(ctx, &rdsapi.AllocateInstancePublicConnectionRequest{DBInstanceID: movedPrimary,
		ConnectionStringPrefix: "orders-pub", Port: "3306"})
	must(err)
	must(c.api.ModifySecurityGroupConfiguration(ctx, movedPrimary, []string{"sg-bp1orders000000001"}))
	must(c.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: movedPrimary, SecurityIps: "203.0.113.0/24",
		DBInstanceIPArrayName: "office"}))
	facts := c.instanceFacts(t, movedPrimary)
	if facts["ConnectionPrefix"] != "orders-db-01" || facts["Port"] != "3307" {
		t.Fatalf("the cloud's endpoint: %v:%v", facts["ConnectionPrefix"], facts["Port"])
	}
	facts["SecurityGroups"], facts["IPArrayName"], facts["SecurityIPs"] = `["sg-bp1orders000000001"]`, "office", `["203.0.113.0/24"]`
	resp := c.move(t, alicloudProvider, "alicloud_db_instance", "rds_instance", renderAlicloudState(t, "db_instance", facts))
	config := map[string]any{
		"engine": "MySQL", "engine_version": "8.0", "instance_type": facts["Class"], "storage": int(facts["Storage"].(int64)),
		"storage_type": facts["StorageType"], "category": facts["Category"], "zone_id": facts["Zone"], "vpc_id": facts["VPC"],
		"vswitch_id": facts["VSwitch"], "maintenance_window": facts["MaintainTime"],
		"released_keep_policy": "Lastest", "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags, "sql_audit": map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 7},
		"connection_string_prefix": "orders-db-01", "port": 3307, "security_group_ids": []string{"sg-bp1orders000000001"},
		"security_ip_groups": map[string][]string{"office": {"203.0.113.0/24"}},
	}
	const addr = "rds_instance.main"
	c.planAfterMove(t, addr, resp, config)
	if got := attrOf(c.w.state[addr], "public_connection_string"); !got.Equal(tftypes.NewValue(tftypes.String, "orders-pub.mysql.rds.aliyuncs.com")) {
		t.Errorf("public_connection_string after the move: %s", got)
	}
	config["public_endpoint"] = map[string]any{"connection_string_prefix": "orders-pub", "port": 3306}
	c.w.sim.ResetStats()
	c.w.applyChecked(t, "public_endpoint after removed", []oracleResource{{addr, config}})
	if n := mutationsIn(c.w.sim.Stats()); n != 0 {
		t.Errorf("recording public_endpoint wrote to the cloud %d times", n)
	}
}

// A read-only instance whose alicloud security_ips are a list of their own moves that list into security_ip_groups
// (rds_readonly_instance has no security_ips), and plans empty.
func TestMoveFromAlicloudReadonlyIPList(t *testing.T) {
	c := newMovedCloud(t)
	if err := c.api.ModifySecurityIps(context.Background(), &rdsapi.ModifySecurityIpsRequest{DBInstanceID: movedReadonly,
		SecurityIps: "198.51.100.7", DBInstanceIPArrayName: "reports"}); err != nil {
		t.Fatal(err)
	}
	facts := c.instanceFacts(t, movedReadonly)
	facts["IPArrayName"], facts["SecurityIPs"] = "reports", `["198.51.100.7"]`
	resp := c.move(t, alicloudProvider, "alicloud_db_readonly_instance", "rds_readonly_instance", renderAlicloudState(t, "db_readonly_instance", facts))
	config := map[string]any{
		"master_instance_id": movedPrimary, "engine_version": "8.0", "instance_type": facts["Class"],
		"storage": int(facts["Storage"].(int64)), "storage_type": facts["StorageType"], "zone_id": facts["Zone"],
		"vswitch_id": facts["VSwitch"], "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags, "security_ip_groups": map[string][]string{"reports": {"198.51.100.7"}},
	}
	c.planAfterMove(t, "rds_readonly_instance.replica", resp, config)
}
