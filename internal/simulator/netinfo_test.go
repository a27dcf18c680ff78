package simulator

import (
	"net/http"
	"testing"
)

// netInfo lists an instance's endpoints as "connection string:port" by IP type.
func (e *env) netInfo(id string) map[string]string {
	e.t.Helper()
	body := e.c.ok("DescribeDBInstanceNetInfo", map[string]string{"DBInstanceId": id})
	out := map[string]string{}
	for _, item := range body["DBInstanceNetInfos"].(map[string]any)["DBInstanceNetInfo"].([]any) {
		m := item.(map[string]any)
		out[m["IPType"].(string)] = m["ConnectionString"].(string) + ":" + m["Port"].(string)
	}
	return out
}

// Allocate, change and release a public endpoint; change the internal one; every string and port reads back.
func TestEndpointLifecycle(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	internal := id + ".mysql.rds.aliyuncs.com:3306"
	if got := e.netInfo(id); len(got) != 1 || got["Private"] != internal {
		t.Fatalf("new instance: %v", got)
	}
	allocated := e.c.ok("AllocateInstancePublicConnection", map[string]string{"DBInstanceId": id, "ConnectionStringPrefix": "orders-pub", "Port": "3307"})
	if allocated["ConnectionString"] != "orders-pub.mysql.rds.aliyuncs.com" || allocated["DbInstanceName"] != id {
		t.Fatalf("allocate answered %v", allocated)
	}
	e.c.ok("ModifyDBInstanceConnectionString", map[string]string{"DBInstanceId": id, "CurrentConnectionString": "orders-pub.mysql.rds.aliyuncs.com",
		"ConnectionStringPrefix": "orders-public", "Port": "3308"})
	e.c.ok("ModifyDBInstanceConnectionString", map[string]string{"DBInstanceId": id, "CurrentConnectionString": id + ".mysql.rds.aliyuncs.com",
		"ConnectionStringPrefix": "orders-internal", "Port": "3306"})
	got := e.netInfo(id)
	if got["Public"] != "orders-public.mysql.rds.aliyuncs.com:3308" || got["Private"] != "orders-internal.mysql.rds.aliyuncs.com:3306" {
		t.Fatalf("after the changes: %v", got)
	}
	if cs := e.attr(id)["ConnectionString"]; cs != "orders-internal.mysql.rds.aliyuncs.com" {
		t.Fatalf("DescribeDBInstanceAttribute ConnectionString = %v", cs)
	}
	e.c.ok("ReleaseInstancePublicConnection", map[string]string{"DBInstanceId": id, "CurrentConnectionString": "orders-public.mysql.rds.aliyuncs.com"})
	if got := e.netInfo(id); len(got) != 1 {
		t.Fatalf("after the release: %v", got)
	}
	if n := e.sim.Stats().Restarts[id]; n != 0 {
		t.Fatalf("endpoint changes restarted the instance %d times", n)
	}
}

// The documented refusals: prefix lengths and characters, ports, a prefix another instance holds, a second
// public endpoint, the only endpoint released, a string the instance does not have, the SSL endpoint.
func TestEndpointRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	other := e.create(map[string]string{"VSwitchId": "vsw-2"})
	alloc := func(prefix, port string) map[string]string {
		return map[string]string{"DBInstanceId": id, "ConnectionStringPrefix": prefix, "Port": port}
	}
	modify := func(current, prefix, port string) map[string]string {
		return map[string]string{"DBInstanceId": id, "CurrentConnectionString": current, "ConnectionStringPrefix": prefix, "Port": port}
	}
	e.c.fails("AllocateInstancePublicConnection", alloc("abcd", "3306"), 400, "InvalidConnectionString.Malformed")
	e.c.fails("AllocateInstancePublicConnection", alloc("a123456789012345678901234567890123456789x", "3306"), 400, "InvalidConnectionString.Malformed")
	e.c.fails("AllocateInstancePublicConnection", alloc("orders#pub", "3306"), 400, "InvalidConnectionString.Malformed")
	e.c.fails("AllocateInstancePublicConnection", alloc("orders", "999"), 400, "InvalidPort.Malformed")
	e.c.fails("AllocateInstancePublicConnection", alloc("orders", "6000"), 400, "InvalidPort.Malformed")
	e.c.fails("AllocateInstancePublicConnection", alloc(other, "3306"), 400, "OtherEndpoint.Exist")
	e.c.ok("AllocateInstancePublicConnection", alloc("orders-pub", "1000"))
	e.c.fails("AllocateInstancePublicConnection", alloc("orders2", "5999"), 400, "NetTypeExists")
	internal := id + ".mysql.rds.aliyuncs.com"
	e.c.fails("ModifyDBInstanceConnectionString", modify(internal, "short7c", "3306"), 400, "InvalidConnectionString.Malformed")
	e.c.fails("ModifyDBInstanceConnectionString", modify(internal, other, "3306"), 400, "DnsConflict")
	e.c.fails("ModifyDBInstanceConnectionString", modify(internal, "orders-pub", "3306"), 400, "DnsConflict")
	e.c.fails("ModifyDBInstanceConnectionString", modify("nothere.mysql.rds.aliyuncs.com", "ordersinternal", "3306"), 404, "InvalidCurrentConnectionString.NotFound")
	e.c.fails("ReleaseInstancePublicConnection", map[string]string{"DBInstanceId": id, "CurrentConnectionString": internal}, 400, "AtLeastOneNetTypeExists")
	e.c.ok("ModifyDBInstanceSSL", map[string]string{"DBInstanceId": id, "ConnectionString": "orders-pub.mysql.rds.aliyuncs.com", "SSLEnabled": "1"})
	e.settle()
	e.c.fails("ModifyDBInstanceConnectionString", modify("orders-pub.mysql.rds.aliyuncs.com", "orders-new", "3306"), 400, "OperationDenied.SSLEnabled")
	e.c.fails("ReleaseInstancePublicConnection", map[string]string{"DBInstanceId": id, "CurrentConnectionString": "orders-pub.mysql.rds.aliyuncs.com"}, 400, "OperationDenied.SSLEnabled")
	if a := e.c.call("ModifyDBInstanceConnectionString", modify(internal, "orders-internal", "3310")); a.status != http.StatusOK {
		t.Fatalf("the internal endpoint, SSL being on the public one: %s", a.raw)
	}
}
