package simulator

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"
)

// Issue 19 item 7: Stopped, locked and Deleting instances, set by the admin call, and what the API
// answers for actions on them.
func TestUnusualStates(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	admin := func(path, body string) (int, map[string]any) {
		t.Helper()
		resp, err := e.srv.Client().Post(e.srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	desc := map[string]string{"DBInstanceId": id, "DBInstanceDescription": "renamed"}

	if code, out := admin("/_simulator/instances/"+id+"/state", `{"status":"Stopped"}`); code != 200 || out["status"] != statusStopped {
		t.Fatalf("stop: %d %v", code, out)
	}
	e.clock.Add(time.Hour) // Stopped does not end by itself
	if s := e.status(id); s != statusStopped {
		t.Fatalf("status after an hour = %s, want Stopped", s)
	}
	e.c.fails("ModifyDBInstanceDescription", desc, 400, "OperationDenied.DBInstanceStatus")
	e.c.fails("RestartDBInstance", map[string]string{"DBInstanceId": id}, 400, "OperationDenied.DBInstanceStatus")

	// Locked while Running: DescribeDBInstanceAttribute says so, every write is refused with the
	// lock code, except growing the storage or releasing an instance locked by a full disk.
	admin("/_simulator/instances/"+id+"/state", `{"status":"Running","lock_mode":"LockByExpiration"}`)
	a := e.attr(id)
	if a["DBInstanceStatus"] != statusRunning || a["LockMode"] != "LockByExpiration" || a["LockReason"] != "instance_expired" {
		t.Fatalf("locked instance reads %v / %v / %v", a["DBInstanceStatus"], a["LockMode"], a["LockReason"])
	}
	e.c.fails("ModifyDBInstanceDescription", desc, 403, "IncorrectDBInstanceLockMode")
	e.c.fails("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200"}, 403, "IncorrectDBInstanceLockMode")
	e.c.fails("CreateReadOnlyDBInstance", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": id, "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid"}, 403, "IncorrectDBInstanceLockMode")
	listed := e.c.ok("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": id})
	if item := listed["Items"].(map[string]any)["DBInstance"].([]any)[0].(map[string]any); item["LockMode"] != "LockByExpiration" {
		t.Fatalf("list item LockMode %v", item["LockMode"])
	}
	admin("/_simulator/instances/"+id+"/state", `{"lock_mode":"LockByDiskQuota","lock_reason":"disk_full"}`)
	e.c.fails("ModifyDBInstanceDescription", desc, 403, "IncorrectDBInstanceLockMode")
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceStorage": "200"})
	e.settle()
	admin("/_simulator/instances/"+id+"/state", `{"lock_mode":"Unlock"}`)
	e.c.ok("ModifyDBInstanceDescription", desc)

	// Deleting, as when someone else released it: writes are refused, then it is gone.
	if code, out := admin("/_simulator/instances/"+id+"/state", `{"status":"Deleting"}`); code != 200 || out["status"] != statusDeleting {
		t.Fatalf("deleting: %d %v", code, out)
	}
	e.c.fails("ModifyDBInstanceDescription", desc, 400, "OperationDenied.DBInstanceStatus")
	e.clock.Add(deleteD)
	e.c.fails("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id}, 404, "InvalidDBInstanceId.NotFound")

	// A primary released elsewhere takes its read-only instances with it.
	primary := e.create(nil)
	ro := e.c.ok("CreateReadOnlyDBInstance", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": primary, "EngineVersion": "8.0",
		"DBInstanceClass": "mysqlro.n2.medium.1c", "DBInstanceStorage": "100", "PayType": "Postpaid"})["DBInstanceId"].(string)
	e.clock.Add(createD)
	admin("/_simulator/instances/"+primary+"/state", `{"status":"Deleting"}`)
	if s := e.status(ro); s != statusDeleting {
		t.Fatalf("read-only of a primary released elsewhere is %s", s)
	}
	e.clock.Add(deleteD)
	e.c.fails("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": ro}, 404, "InvalidDBInstanceId.NotFound")

	for _, bad := range []struct{ path, body string }{
		{"/_simulator/instances/rm-seedbasic/state", `{"status":"Sleeping"}`},
		{"/_simulator/instances/rm-seedbasic/state", `{"lock_mode":"Locked"}`},
		{"/_simulator/instances/rm-seedbasic/state", `{"colour":"red"}`},
		{"/_simulator/instances/rm-seedbasic/ip-arrays", `{"name":"default","ips":"1.2.3.4"}`},
		{"/_simulator/instances/rm-seedbasic/ip-arrays", `{"name":"dms","ips":"not-an-ip"}`},
	} {
		if code, _ := admin(bad.path, bad.body); code != 400 {
			t.Fatalf("%s %s: HTTP %d, want 400", bad.path, bad.body, code)
		}
	}
	if code, _ := admin("/_simulator/instances/rm-missing/state", `{"status":"Stopped"}`); code != 404 {
		t.Fatalf("unknown instance: HTTP %d", code)
	}
}

// Issue 19 item 8: several IP arrays. ModifySecurityIps changes only the array it names,
// DescribeDBInstanceIPArrayList lists them all with their attributes, and the attribute's
// SecurityIPList is every array's IPs together (it cannot tell them apart).
func TestSecurityIPArrays(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil) // default array 10.0.0.0/8
	if err := e.sim.AddIPArray(id, "ali_dms_group", "100.104.0.0/16,10.0.0.0/8", ipArrayHidden); err != nil {
		t.Fatal(err)
	}
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "192.168.1.0/24", "DBInstanceIPArrayName": "app"})
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1"}) // default, Cover
	arrays := func() string {
		body := e.c.ok("DescribeDBInstanceIPArrayList", map[string]string{"DBInstanceId": id})
		var out []string
		for _, it := range body["Items"].(map[string]any)["DBInstanceIPArray"].([]any) {
			m := it.(map[string]any)
			out = append(out, m["DBInstanceIPArrayName"].(string)+"("+m["DBInstanceIPArrayAttribute"].(string)+")="+m["SecurityIPList"].(string))
		}
		return strings.Join(out, " ")
	}
	if got := arrays(); got != "default()=172.16.0.1 ali_dms_group(hidden)=100.104.0.0/16,10.0.0.0/8 app()=192.168.1.0/24" {
		t.Fatalf("arrays: %s", got)
	}
	if got := e.attr(id)["SecurityIPList"]; got != "172.16.0.1,100.104.0.0/16,10.0.0.0/8,192.168.1.0/24" {
		t.Fatalf("attribute SecurityIPList: %v", got)
	}
	// Emptying an array removes it, except default, which stays (empty).
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "192.168.1.0/24", "DBInstanceIPArrayName": "app", "ModifyMode": "Delete"})
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1", "ModifyMode": "Delete"})
	if got := arrays(); got != "default()= ali_dms_group(hidden)=100.104.0.0/16,10.0.0.0/8" {
		t.Fatalf("arrays after deletes: %s", got)
	}
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "1.2.3.4", "DBInstanceIPArrayAttribute": "secret"}, 400, "InvalidParameter")
	e.c.fails("DescribeDBInstanceIPArrayList", map[string]string{"DBInstanceId": "rm-missing"}, 404, "InvalidDBInstanceId.NotFound")
}

// Issue 13 item 2: a V1 request without Format gets XML, the real service's V1 default, for
// success and error answers alike.
func TestV1WithoutFormatAnswersXML(t *testing.T) {
	e := newEnv(t)
	v1 := e.c.with(func(c *client) { c.mode = "v1query" })
	send := func(action string, p map[string]string) (int, string, []byte) {
		t.Helper()
		p["Format"] = "" // no format chosen
		resp, err := e.srv.Client().Do(v1.build(action, p))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), data
	}
	status, ct, data := send("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": "rm-seedyitian2024"})
	var ok struct {
		XMLName   xml.Name `xml:"DescribeDBInstanceAttributeResponse"`
		RequestID string   `xml:"RequestId"`
		Items     struct {
			Attr []struct {
				ID   string `xml:"DBInstanceId"`
				Info string `xml:"OptimizedWritesInfo"`
			} `xml:"DBInstanceAttribute"`
		} `xml:"Items"`
	}
	if err := xml.Unmarshal(data, &ok); status != 200 || !strings.HasPrefix(ct, "text/xml") || err != nil || ok.RequestID == "" ||
		len(ok.Items.Attr) != 1 || ok.Items.Attr[0].Info != owJSON(true, true) {
		t.Fatalf("HTTP %d %s %v: %s", status, ct, err, data)
	}
	status, _, data = send("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": "rm-missing"})
	var fail struct {
		XMLName xml.Name `xml:"Error"`
		Code    string   `xml:"Code"`
	}
	if err := xml.Unmarshal(data, &fail); status != 404 || err != nil || fail.Code != "InvalidDBInstanceId.NotFound" {
		t.Fatalf("HTTP %d %v: %s", status, err, data)
	}
	// V3 without Format stays JSON.
	e.c.ok("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": "rm-seedyitian2024"})
}

// Issue 13 item 5: a clone is a new instance (CreationTime is its own) that keeps the source's
// product-line history, which only OptimizedWritesInfo.init_optimized_writes reveals: a clone of a
// YiTian instance bought in 2024 loses eligibility for good when it moves to an x86 class, although
// its own CreationTime is after 2025-05-14.
func TestCloneKeepsSourceProductLine(t *testing.T) {
	e := newEnv(t)
	clone := e.c.ok("CloneDBInstance", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": "rm-seedyitian2024",
		"PayType": "Postpaid", "BackupId": "b-1"})["DBInstanceId"].(string)
	e.clock.Add(createD)
	a := e.attr(clone)
	if a["CreationTime"] != e.clock.Now().Add(-createD).Format(timestampLayout) || a["OptimizedWritesInfo"] != owJSON(true, true) {
		t.Fatalf("clone: CreationTime %v, %v", a["CreationTime"], a["OptimizedWritesInfo"])
	}
	resp, err := e.srv.Client().Get(e.srv.URL + "/_simulator/instances/" + clone)
	if err != nil {
		t.Fatal(err)
	}
	var facts instanceFacts
	_ = json.NewDecoder(resp.Body).Decode(&facts)
	_ = resp.Body.Close()
	if facts.PurchaseTime.Year() != 2024 || facts.CreationTime.Year() != 2026 {
		t.Fatalf("facts: %+v", facts)
	}
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": clone, "DBInstanceClass": "mysql.x4.medium.2c"})
	e.settle()
	if got := e.owInfo(clone); got != owJSON(false, false) {
		t.Fatalf("clone moved to x86: %s, want off and not eligible (source bought 2024)", got)
	}
}
