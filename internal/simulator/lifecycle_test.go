package simulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The status machine on an injected clock: nothing sleeps.
func TestStatusMachine(t *testing.T) {
	e := newEnv(t)
	id := e.c.ok("CreateDBInstance", mysqlCreate(map[string]string{"OptimizedWrites": "none"}))["DBInstanceId"].(string)
	if !strings.HasPrefix(id, "rm-") {
		t.Fatalf("id %q", id)
	}
	if s := e.status(id); s != statusCreating {
		t.Fatalf("just created: %s", s)
	}
	e.c.fails("ModifyDBInstanceDescription", map[string]string{"DBInstanceId": id, "DBInstanceDescription": "busy"}, 400, "OperationDenied.DBInstanceStatus")
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": id}, 400, "OperationDenied.DBInstanceStatus")
	e.clock.Add(createD - time.Millisecond)
	if s := e.status(id); s != statusCreating {
		t.Fatalf("just before CreateDuration: %s", s)
	}
	e.clock.Add(time.Millisecond)
	if s := e.status(id); s != statusRunning {
		t.Fatalf("at CreateDuration: %s", s)
	}

	// Toggle: DBInstanceClassChanging for RestartDuration, then Running, flag FlagLag later.
	if a := e.toggle(id, "optimized"); a.status != 200 {
		t.Fatal(a.raw)
	}
	if a := e.attr(id); a["DBInstanceStatus"] != statusClassChanging || a["OptimizedWritesInfo"] != owJSON(false, true) {
		t.Fatalf("during the restart: %v %v", a["DBInstanceStatus"], a["OptimizedWritesInfo"])
	}
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("restart not counted at its start: %d", n)
	}
	e.clock.Add(restartD)
	if a := e.attr(id); a["DBInstanceStatus"] != statusRunning || a["OptimizedWritesInfo"] != owJSON(false, true) {
		t.Fatalf("back to Running, before the lag: %v %v", a["DBInstanceStatus"], a["OptimizedWritesInfo"])
	}
	e.clock.Add(lagD)
	if got := e.owInfo(id); got != owJSON(true, true) {
		t.Fatalf("after the lag: %s", got)
	}

	// Restart: Rebooting, counted.
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": id})
	if s := e.status(id); s != statusRebooting {
		t.Fatalf("restarting: %s", s)
	}
	e.clock.Add(restartD)
	if s := e.status(id); s != statusRunning || e.sim.Stats().Restarts[id] != 2 {
		t.Fatalf("after restart: %s %v", s, e.sim.Stats().Restarts)
	}

	// Settings that do not restart.
	e.c.ok("ModifyDBInstanceDescription", map[string]string{"DBInstanceId": id, "DBInstanceDescription": "orders db"})
	e.c.fails("ModifyDBInstanceDescription", map[string]string{"DBInstanceId": id, "DBInstanceDescription": "1bad"}, 400, "InvalidParameter")
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "192.168.0.0/16,10.1.2.3"})
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "10.0.0.0/33"}, 400, "InvalidParameter")
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "10.0.0.1, evil"}, 400, "InvalidParameter")
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1,10.1.2.3", "ModifyMode": "Append"})
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1", "ModifyMode": "Delete"})
	e.c.ok("ModifyDBInstanceDeletionProtection", map[string]string{"DBInstanceId": id, "DeletionProtection": "true"})
	e.c.fails("ModifyDBInstanceDeletionProtection", map[string]string{"DBInstanceId": id, "DeletionProtection": "yes"}, 400, "InvalidParameter")
	a := e.attr(id)
	if a["DBInstanceDescription"] != "orders db" || a["SecurityIPList"] != "192.168.0.0/16,10.1.2.3" || a["DeletionProtection"] != true {
		t.Fatalf("settings: %v", a)
	}
	if a["Port"] != "3306" || a["InstructionSetArch"] != "x86" || a["CreationTime"] == "" || a["ConnectionString"] != id+".mysql.rds.aliyuncs.com" {
		t.Fatalf("attributes: %v", a)
	}

	// Deletion protection (Q10), then Deleting, then gone.
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": id}, 403, "OperationDenied.DeletionProtection")
	e.c.ok("ModifyDBInstanceDeletionProtection", map[string]string{"DBInstanceId": id, "DeletionProtection": "false"})
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
	if s := e.status(id); s != statusDeleting {
		t.Fatalf("deleting: %s", s)
	}
	e.clock.Add(deleteD)
	e.c.fails("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id}, 404, "InvalidDBInstanceId.NotFound")
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": id}, 404, "InvalidDBInstanceId.NotFound")
}

func TestClientTokenIdempotency(t *testing.T) {
	e := newEnv(t)
	p := mysqlCreate(map[string]string{"ClientToken": "token-1"})
	first := e.c.ok("CreateDBInstance", p)["DBInstanceId"]
	second := e.c.with(func(c *client) { c.mode = "v1form" }).ok("CreateDBInstance", p)["DBInstanceId"]
	if first != second {
		t.Fatalf("same token gave %v and %v", first, second)
	}
	list := e.c.ok("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "Engine": "MySQL", "DBInstanceStatus": statusCreating})
	if n := list["TotalRecordCount"].(float64); n != 1 {
		t.Fatalf("%v instances created", n)
	}
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": "token-1", "DBInstanceStorage": "200"}), 400, "IdempotentParameterMismatch")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": strings.Repeat("x", 65)}), 400, "InvalidParameter")
	if dry := e.c.ok("CreateDBInstance", mysqlCreate(map[string]string{"DryRun": "true"})); dry["DryRunResult"] != true || dry["DBInstanceId"] != nil {
		t.Fatalf("dry run: %v", dry)
	}
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"DBInstanceStorage": "103"}), 400, "InvalidParameter")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"DBInstanceClass": "pg.n2.medium.2c"}), 400, "InvalidDBInstanceClass.NotFound")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"RegionId": "eu-west-1"}), 400, "InvalidRegionId.NotFound")
	for _, required := range []string{"RegionId", "Engine", "EngineVersion", "DBInstanceClass", "DBInstanceStorage", "DBInstanceNetType", "SecurityIPList", "PayType"} {
		e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{required: ""}), 400, "MissingParameter")
	}

	// A restart with a token is carried out once.
	e.clock.Add(createD)
	for range 2 {
		e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": first.(string), "ClientToken": "restart-1"})
	}
	if n := e.sim.Stats().Restarts[first.(string)]; n != 1 {
		t.Fatalf("restarts = %d", n)
	}
}

func TestPaging(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Seed = false })
	var want []string
	for i := range 7 {
		id, err := e.sim.AddInstance(SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", PurchaseTime: e.clock.Now().Add(time.Duration(i) * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, id)
	}
	ids := func(body map[string]any) []string {
		var out []string
		for _, item := range body["Items"].(map[string]any)["DBInstance"].([]any) {
			m := item.(map[string]any)
			if m["CreateTime"] == nil {
				t.Fatalf("item lacks CreateTime: %v", m)
			}
			out = append(out, m["DBInstanceId"].(string))
		}
		return out
	}
	var classic []string
	for page := 1; ; page++ {
		body := e.c.ok("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "PageSize": "3", "PageNumber": fmt.Sprint(page)})
		if body["TotalRecordCount"].(float64) != 7 {
			t.Fatalf("TotalRecordCount %v", body["TotalRecordCount"])
		}
		got := ids(body)
		classic = append(classic, got...)
		if len(got) < 3 {
			break
		}
	}
	var token []string
	next := ""
	for pages := 0; ; pages++ {
		p := map[string]string{"RegionId": DefaultRegion, "MaxResults": "3"}
		if next != "" {
			p["NextToken"] = next
		}
		body := e.c.ok("DescribeDBInstances", p)
		token = append(token, ids(body)...)
		next = body["NextToken"].(string)
		if next == "" {
			break
		}
		if pages > 5 {
			t.Fatal("token paging does not end")
		}
	}
	if fmt.Sprint(classic) != fmt.Sprint(want) || fmt.Sprint(token) != fmt.Sprint(want) {
		t.Fatalf("classic %v, token %v, want %v", classic, token, want)
	}
	filtered := e.c.ok("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "DBInstanceId": want[1] + "," + want[4]})
	if got := ids(filtered); len(got) != 2 {
		t.Fatalf("id filter: %v", got)
	}
	for _, bad := range []map[string]string{
		{"PageSize": "101"}, {"PageSize": "0"}, {"MaxResults": "101"}, {"PageNumber": "0"}, {"PageSize": "x"},
		{"MaxResults": "5", "PageSize": "5"}, {"NextToken": "not-a-token"},
	} {
		bad["RegionId"] = DefaultRegion
		e.c.fails("DescribeDBInstances", bad, 400, "InvalidParameter")
	}
	e.c.fails("DescribeDBInstances", map[string]string{}, 400, "MissingParameter")
}

func TestAvailableClasses(t *testing.T) {
	e := newEnv(t)
	classes := func(extra map[string]string) map[string]bool {
		p := map[string]string{"RegionId": DefaultRegion, "ZoneId": "cn-hangzhou-i", "Engine": "MySQL", "EngineVersion": "8.0",
			"DBInstanceStorageType": "cloud_essd", "Category": "HighAvailability"}
		for k, v := range extra {
			p[k] = v
		}
		out := map[string]bool{}
		for _, c := range e.c.ok("DescribeAvailableClasses", p)["DBInstanceClasses"].([]any) {
			m := c.(map[string]any)
			r := m["DBInstanceStorageRange"].(map[string]any)
			if r["MinValue"].(float64) != 20 || r["Step"].(float64) != 5 {
				t.Fatalf("range %v", r)
			}
			out[m["DBInstanceClass"].(string)] = true
		}
		return out
	}
	ha := classes(nil)
	for _, c := range []string{"mysql.n2.medium.2c", "mysql.x4.medium.2c", "mysql.n2m.medium.2c", "mysqlro.n2m.small.1c"} {
		if !ha[c] {
			t.Errorf("HighAvailability lacks %s", c)
		}
	}
	if ro := classes(map[string]string{"CommodityCode": "rords"}); len(ro) != 4 || !ro["mysqlro.x2m.large.1c"] {
		t.Errorf("rords: %v", ro)
	}
	if local := classes(map[string]string{"DBInstanceStorageType": "local_ssd"}); local["mysql.n2m.medium.2c"] {
		t.Errorf("YiTian offered on local_ssd")
	}
	if cl := classes(map[string]string{"Category": "cluster"}); !cl["mysql.n2e.medium.xc"] || len(cl) != 3 {
		t.Errorf("cluster: %v", cl)
	}
	e.c.fails("DescribeAvailableClasses", map[string]string{"RegionId": DefaultRegion, "Engine": "MySQL"}, 400, "MissingParameter")
}

func TestFaults(t *testing.T) {
	e := newEnv(t)
	e.sim.SetFaults(Faults{ThrottleRate: 1})
	e.c.fails("CreateDBInstance", mysqlCreate(nil), 400, "Throttling.User")
	e.sim.SetFaults(Faults{ErrorRate: 1})
	e.c.fails("CreateDBInstance", mysqlCreate(nil), 503, "ServiceUnavailable")
	e.sim.SetFaults(Faults{})
	if n := e.c.ok("DescribeDBInstances", listParams)["TotalRecordCount"].(float64); n != 4 {
		t.Fatalf("a faulted request had a side effect: %v instances", n)
	}

	// Dropped response: the action is carried out, the client gets no answer.
	e.sim.SetFaults(Faults{DropResponseRate: 1})
	resp, err := e.srv.Client().Do(e.c.build("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": "dropped"})))
	if err == nil {
		_ = resp.Body.Close()
		t.Fatalf("got HTTP %d, want a dropped connection", resp.StatusCode)
	}
	e.sim.SetFaults(Faults{})
	if n := e.c.ok("DescribeDBInstances", listParams)["TotalRecordCount"].(float64); n != 5 {
		t.Fatalf("the dropped create was not carried out: %v instances", n)
	}
	// The retry with the same token gets the first result.
	e.c.ok("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": "dropped"}))
	if n := e.c.ok("DescribeDBInstances", listParams)["TotalRecordCount"].(float64); n != 5 {
		t.Fatalf("the retry duplicated the instance: %v instances", n)
	}
	if got := e.sim.Stats().Requests["CreateDBInstance"]; got != 4 {
		t.Fatalf("requests[CreateDBInstance] = %d, want 4 (faulted ones count)", got)
	}

	// Latency (real time, kept tiny).
	e.sim.SetFaults(Faults{LatencyMS: 30})
	start := time.Now()
	e.c.ok("DescribeDBInstances", listParams)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("latency fault not applied: %v", d)
	}
}

func TestAdminEndpoints(t *testing.T) {
	e := newEnv(t)
	get := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
		resp, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	e.c.ok("DescribeDBInstances", listParams)
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": "rm-seedbasic"})
	e.c.fails("NoSuchAction", nil, 404, "InvalidAction.NotFound")
	status, stats := get(http.MethodGet, "/_simulator/stats", "")
	if status != 200 || fmt.Sprint(stats["requests"]) != "map[DescribeDBInstances:1 RestartDBInstance:1]" || fmt.Sprint(stats["restarts"]) != "map[rm-seedbasic:1]" {
		t.Fatalf("stats: %d %v", status, stats)
	}
	if status, _ := get(http.MethodPost, "/_simulator/faults", `{"throttle_rate":1,"error_rate":0,"latency_ms":0,"drop_response_rate":0}`); status != 200 {
		t.Fatalf("set faults: %d", status)
	}
	// Faults do not apply to admin endpoints.
	if status, _ := get(http.MethodPost, "/_simulator/stats/reset", ""); status != 200 {
		t.Fatalf("reset: %d", status)
	}
	e.c.fails("DescribeDBInstances", listParams, 400, "Throttling.User")
	if status, _ := get(http.MethodPost, "/_simulator/faults", `{"throttle_rate":2}`); status != 400 {
		t.Fatalf("invalid faults accepted: %d", status)
	}
	if status, _ := get(http.MethodPost, "/_simulator/faults", `{"bogus":1}`); status != 400 {
		t.Fatalf("unknown field accepted: %d", status)
	}
	get(http.MethodPost, "/_simulator/faults", `{}`)
	_, stats = get(http.MethodGet, "/_simulator/stats", "")
	if fmt.Sprint(stats["requests"]) != "map[DescribeDBInstances:1]" || fmt.Sprint(stats["restarts"]) != "map[]" {
		t.Fatalf("after reset: %v", stats)
	}
	if status, _ := get(http.MethodGet, "/_simulator/nothing", ""); status != 404 {
		t.Fatalf("unknown admin path: %d", status)
	}
}

func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	clock := newFakeClock()
	opts := Options{StatePath: path, Seed: true, Now: clock.Now, CreateDuration: createD, RestartDuration: restartD, DeleteDuration: deleteD, FlagLag: lagD}
	_, srv := NewTestServer(t, opts)
	c := newClient(t, srv, clock.Now)
	id := c.ok("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": "persisted"}))["DBInstanceId"].(string)
	c.ok("ModifyDBInstanceDeletionProtection", map[string]string{"DBInstanceId": "rm-seedbasic", "DeletionProtection": "true"})
	c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": "rm-seedx86legacy"})
	clock.Add(createD)

	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	// A second simulator on the same file sees the same cloud, mid-transition included.
	_, srv2 := NewTestServer(t, opts)
	c2 := newClient(t, srv2, clock.Now)
	e2 := &env{t: t, c: c2, clock: clock}
	if s := e2.status(id); s != statusRunning {
		t.Fatalf("reloaded instance status %s", s)
	}
	if e2.attr("rm-seedbasic")["DeletionProtection"] != true {
		t.Fatal("deletion protection lost")
	}
	c2.fails("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": "rm-seedx86legacy"}, 404, "InvalidDBInstanceId.NotFound")
	if got := c2.ok("CreateDBInstance", mysqlCreate(map[string]string{"ClientToken": "persisted"}))["DBInstanceId"]; got != id {
		t.Fatalf("ClientToken forgotten across restarts: %v", got)
	}
	if n := c2.ok("DescribeDBInstances", listParams)["TotalRecordCount"].(float64); n != 4 {
		t.Fatalf("seeds replanted or instances lost: %v", n)
	}

	if err := os.WriteFile(path, []byte(`{"version":1,"instances":{"x":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(opts); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("corrupt state file: %v", err)
	}
}

// Hostile input never gives a 5xx or a crash.
func TestBadInputNeverServerError(t *testing.T) {
	e := newEnv(t)
	values := []string{"", " ", "-1", "0", "99999999999999999999", "abc", "%00", "\u00e9\u4e2d", strings.Repeat("z", 300), "true", "1,2", "rm-seedbasic", "optimized", "none", "2026-03-01T10:00:00Z"}
	names := []string{"RegionId", "DBInstanceId", "Engine", "EngineVersion", "DBInstanceClass", "DBInstanceStorage", "DBInstanceStorageType",
		"PayType", "DBInstanceNetType", "SecurityIPList", "SecurityIps", "Category", "OptimizedWrites", "PageSize", "PageNumber",
		"MaxResults", "NextToken", "DeletionProtection", "DBInstanceDescription", "RestoreTime", "BackupId", "IoAccelerationEnabled", "Port", "ClientToken"}
	for action := range actions {
		for i, v := range values {
			p := mysqlCreate(nil)
			p["DBInstanceId"] = "rm-seedbasic"
			for j, name := range names {
				if (i+j)%3 == 0 {
					p[name] = v
				}
			}
			if a := e.c.call(action, p); a.status >= 500 {
				t.Fatalf("%s %v: HTTP %d %s", action, p, a.status, a.raw)
			}
		}
	}
	if n := e.sim.Stats().InternalErrors; n != 0 {
		t.Fatalf("%d internal errors", n)
	}
}
