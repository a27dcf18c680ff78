package simulator

import "testing"

// The read/write-splitting endpoint (EP6): listed with ConnectionStringType ReadWriteSplitting beside the
// instance's own endpoints; the instance's endpoint actions refuse to change or release it, and its prefix is
// taken for the others.
func TestReadWriteSplittingEndpoint(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	if err := e.sim.AddReadWriteSplittingEndpoint(id, "orders-rw"); err != nil {
		t.Fatal(err)
	}
	rw := "orders-rw.mysql.rds.aliyuncs.com"
	body := e.c.ok("DescribeDBInstanceNetInfo", map[string]string{"DBInstanceId": id})
	types := map[string]string{}
	for _, item := range body["DBInstanceNetInfos"].(map[string]any)["DBInstanceNetInfo"].([]any) {
		m := item.(map[string]any)
		types[m["ConnectionString"].(string)] = m["ConnectionStringType"].(string)
	}
	if len(types) != 2 || types[rw] != "ReadWriteSplitting" || types[id+".mysql.rds.aliyuncs.com"] != "Normal" {
		t.Fatalf("DescribeDBInstanceNetInfo lists %v", types)
	}
	e.c.fails("ModifyDBInstanceConnectionString", map[string]string{"DBInstanceId": id, "CurrentConnectionString": rw,
		"ConnectionStringPrefix": "orders-rw-02", "Port": "3306"}, 400, "OperationDenied.ReadWriteSplitting")
	e.c.fails("ReleaseInstancePublicConnection", map[string]string{"DBInstanceId": id, "CurrentConnectionString": rw}, 400, "OperationDenied.ReadWriteSplitting")
	e.c.fails("ModifyDBInstanceConnectionString", map[string]string{"DBInstanceId": id, "CurrentConnectionString": id + ".mysql.rds.aliyuncs.com",
		"ConnectionStringPrefix": "orders-rw", "Port": "3306"}, 400, "DnsConflict")
	e.c.fails("AllocateInstancePublicConnection", map[string]string{"DBInstanceId": id, "ConnectionStringPrefix": "orders-rw", "Port": "3306"},
		400, "OtherEndpoint.Exist")
}
