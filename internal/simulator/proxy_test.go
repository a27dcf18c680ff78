package simulator

import (
	"encoding/json"
	"testing"
	"time"
)

func (e *env) readOnly(primary string) string {
	e.t.Helper()
	id := e.c.ok("CreateReadOnlyDBInstance", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": primary, "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid", "ZoneId": "cn-hangzhou-i"})["DBInstanceId"].(string)
	e.clock.Add(createD)
	return id
}

func (e *env) proxyEndpoint(id string) map[string]any {
	e.t.Helper()
	return e.c.ok("DescribeDBProxyEndpoint", map[string]string{"DBInstanceId": id})
}

// TestProxyLifecycle: Startup makes a default ReadWrite endpoint; weights, features and the delay
// threshold read back; EffectiveTime MaintainTime (the default) waits for the window; Shutdown
// turns it off.
func TestProxyLifecycle(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"TargetMinorVersion": "rds_20230630"})
	ro := e.readOnly(id)
	if off := e.c.ok("DescribeDBProxy", map[string]string{"DBInstanceId": id}); off["DBProxyInstanceStatus"] != nil || off["DBProxyServiceStatus"] != "Shutdown" {
		t.Fatalf("proxy before Startup: %v", off)
	}
	e.c.fails("DescribeDBProxyEndpoint", map[string]string{"DBInstanceId": id}, 400, "InvalidDBProxy.NotStarted")
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup", "DBProxyInstanceNum": "2", "DBProxyInstanceType": "exclusive"})
	e.c.fails("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup"}, 400, "InvalidDBProxy.AlreadyStarted")
	e.settle()
	px := e.c.ok("DescribeDBProxy", map[string]string{"DBInstanceId": id})
	if px["DBProxyInstanceStatus"] != "Running" || px["DBProxyInstanceType"] != "2" || jsonNum(px["DBProxyInstanceNum"]) != "2" {
		t.Fatalf("DescribeDBProxy: %v", px)
	}
	ep := e.proxyEndpoint(id)
	if ep["DbProxyEndpointReadWriteMode"] != "ReadWrite" || ep["ReadOnlyInstanceMaxDelayTime"] != "30" || ep["ReadOnlyInstanceDistributionType"] != "Standard" {
		t.Fatalf("default endpoint: %v", ep)
	}
	endpointID := ep["DBProxyEndpointId"].(string)
	modify := map[string]string{"DBInstanceId": id, "DBProxyEndpointId": endpointID, "ReadOnlyInstanceDistributionType": "Custom",
		"ReadOnlyInstanceWeight": `{"` + id + `":"100","` + ro + `":"300"}`, "ReadOnlyInstanceMaxDelayTime": "5",
		"ConfigDBProxyFeatures": "ReadWriteSpliting:1;ConnectionPersist:1;CausalConsistRead:2"}
	e.c.ok("ModifyDBProxyEndpoint", modify) // EffectiveTime left out: MaintainTime
	if e.proxyEndpoint(id)["ReadOnlyInstanceMaxDelayTime"] != "30" {
		t.Fatal("a change for the maintenance window took effect at once")
	}
	e.sim.AdvanceClock(25 * time.Hour)
	ep = e.proxyEndpoint(id)
	var weights []map[string]any
	if err := json.Unmarshal([]byte(ep["ReadOnlyInstanceWeight"].(string)), &weights); err != nil || len(weights) != 2 {
		t.Fatalf("weights %v: %v", ep["ReadOnlyInstanceWeight"], err)
	}
	if ep["ReadOnlyInstanceMaxDelayTime"] != "5" || ep["DBProxyFeatures"] != "CausalConsistRead:2;ConnectionPersist:1;ReadWriteSpliting:1;TransactionReadSqlRouteOptimizeStatus:0" {
		t.Fatalf("endpoint after the window: %v", ep)
	}
	e.c.ok("ModifyDBProxyInstance", map[string]string{"DBInstanceId": id, "DBProxyInstanceNum": "4", "EffectiveTime": "Immediate"})
	if px := e.c.ok("DescribeDBProxy", map[string]string{"DBInstanceId": id}); jsonNum(px["DBProxyInstanceNum"]) != "4" {
		t.Fatalf("resize Immediate: %v", px)
	}
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Shutdown"})
	if off := e.c.ok("DescribeDBProxy", map[string]string{"DBInstanceId": id}); off["DBProxyInstanceStatus"] != nil {
		t.Fatalf("proxy after Shutdown: %v", off)
	}
}

// TestProxyRefusals: the documented limits and prerequisites.
func TestProxyRefusals(t *testing.T) {
	e := newEnv(t)
	basic := e.create(map[string]string{"Category": "Basic", "DBInstanceStorageType": "cloud_essd", "DBInstanceClass": "mysql.n2.medium.1", "VSwitchId": "vsw-2"})
	e.c.fails("ModifyDBProxy", map[string]string{"DBInstanceId": basic, "ConfigDBProxyService": "Startup"}, 400, "InvalidDBInstanceCategory.NotSupported")
	old := e.create(map[string]string{"TargetMinorVersion": "rds_20191015", "EngineVersion": "5.6", "VSwitchId": "vsw-3"})
	hangzhouD := e.create(map[string]string{"ZoneId": "cn-hangzhou-d", "VSwitchId": "vsw-6"}) // README "Database proxy" [P9]
	e.c.fails("ModifyDBProxy", map[string]string{"DBInstanceId": hangzhouD, "ConfigDBProxyService": "Startup"}, 400, "InvalidZone.NotSupported")
	id := e.create(map[string]string{"VSwitchId": "vsw-4"})
	other := e.create(map[string]string{"VSwitchId": "vsw-5"})
	otherRO := e.readOnly(other)
	e.c.fails("ModifyDBProxy", map[string]string{"DBInstanceId": old, "ConfigDBProxyService": "Startup"}, 400, "InvalidMinorVersion.NotSupported")
	e.c.fails("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup", "DBProxyInstanceNum": "17"}, 400, "InvalidParameter")
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup"})
	e.settle()
	ep := e.proxyEndpoint(id)["DBProxyEndpointId"].(string)
	base := func(k, v string) map[string]string {
		return map[string]string{"DBInstanceId": id, "DBProxyEndpointId": ep, "EffectiveTime": "Immediate", k: v}
	}
	e.c.fails("ModifyDBProxyEndpoint", base("ReadOnlyInstanceWeight", `{"`+id+`":"150"}`), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("ReadOnlyInstanceWeight", `{"`+id+`":"10100"}`), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("ReadOnlyInstanceWeight", `{"`+otherRO+`":"100"}`), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("ReadOnlyInstanceMaxDelayTime", "3601"), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("ConfigDBProxyFeatures", "ReadWriteSpliting:2"), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("ReadOnlyInstanceDistributionType", "Custom"), 400, "InvalidParameter")
	e.c.fails("ModifyDBProxyEndpoint", base("DbEndpointOperator", "Delete"), 400, "InvalidDBProxyEndpoint.Default")
	e.c.fails("ModifyDBProxyInstance", map[string]string{"DBInstanceId": id, "DBProxyInstanceNum": "0"}, 400, "InvalidParameter")
	// 1-16, the current API reference (README "Database proxy" [P2]).
	e.c.fails("ModifyDBProxyInstance", map[string]string{"DBInstanceId": id, "DBProxyInstanceNum": "17", "EffectiveTime": "Immediate"}, 400, "InvalidParameter")
	e.c.ok("ModifyDBProxyInstance", map[string]string{"DBInstanceId": id, "DBProxyInstanceNum": "16", "EffectiveTime": "Immediate"})
	created := e.c.ok("ModifyDBProxyEndpoint", map[string]string{"DBInstanceId": id, "DbEndpointOperator": "Create", "DbEndpointReadWriteMode": "ReadOnly"})
	roEP := e.c.ok("DescribeDBProxyEndpoint", map[string]string{"DBInstanceId": id, "DBProxyEndpointId": created["DBProxyEndpointId"].(string)})
	if roEP["ReadOnlyInstanceMaxDelayTime"] != "-1" || roEP["DbProxyEndpointReadWriteMode"] != "ReadOnly" {
		t.Fatalf("read-only endpoint: %v", roEP)
	}
}
