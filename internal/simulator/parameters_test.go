package simulator

import (
	"strconv"
	"strings"
	"testing"
)

// params reads DescribeParameters as name -> value maps.
func (e *env) params(id string) (running, pending map[string]string) {
	e.t.Helper()
	body := e.c.ok("DescribeParameters", map[string]string{"DBInstanceId": id})
	read := func(key string) map[string]string {
		out := map[string]string{}
		for _, item := range body[key].(map[string]any)["DBInstanceParameter"].([]any) {
			m := item.(map[string]any)
			out[m["ParameterName"].(string)] = m["ParameterValue"].(string)
		}
		return out
	}
	return read("RunningParameters"), read("ConfigParameters")
}

func TestParameterTemplates(t *testing.T) {
	e := newEnv(t)
	for _, version := range []string{"5.7", "8.0"} {
		body := e.c.ok("DescribeParameterTemplates", map[string]string{"Engine": "MySQL", "EngineVersion": version, "Category": "HighAvailability"})
		records := body["Parameters"].(map[string]any)["TemplateRecord"].([]any)
		if len(records) < 40 || body["ParameterCount"] != strconv.Itoa(len(records)) {
			t.Fatalf("%s: %d parameters, count %v", version, len(records), body["ParameterCount"])
		}
		restart, locked := 0, 0
		for _, r := range records {
			m := r.(map[string]any)
			if m["ForceRestart"] == "true" {
				restart++
			}
			if m["ForceModify"] == "false" {
				locked++
			}
			if m["CheckingCode"] == "" || !strings.HasPrefix(m["CheckingCode"].(string), "[") {
				t.Fatalf("%s %v: no CheckingCode", version, m["ParameterName"])
			}
		}
		if restart == 0 || locked == 0 {
			t.Fatalf("%s: %d restart-needing, %d locked parameters", version, restart, locked)
		}
	}
	e.c.fails("DescribeParameterTemplates", map[string]string{"Engine": "MySQL", "EngineVersion": "5.6"}, 400, "InvalidParameter")
	e.c.fails("DescribeParameterTemplates", map[string]string{"Engine": "MySQL"}, 400, "MissingParameter")
}

func TestModifyParameterOnlineAndRestart(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"OptimizedWrites": "optimized"})

	running, pending := e.params(id)
	if running["innodb_doublewrite"] != "OFF" || running["sync_binlog"] != "1" || len(pending) != 0 {
		t.Fatalf("fresh instance: doublewrite %q sync_binlog %q pending %v", running["innodb_doublewrite"], running["sync_binlog"], pending)
	}

	// Online: runs at once, no restart.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"sync_binlog":"1000","innodb_adaptive_hash_index":"on"}`})
	running, pending = e.params(id)
	if running["sync_binlog"] != "1000" || running["innodb_adaptive_hash_index"] != "ON" || len(pending) != 0 || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("online change: %q %q pending %v restarts %d", running["sync_binlog"], running["innodb_adaptive_hash_index"], pending, e.sim.Stats().Restarts[id])
	}

	// Restart-needing without Forcerestart: waits, no restart.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"innodb_read_io_threads":"8"}`})
	running, pending = e.params(id)
	if running["innodb_read_io_threads"] != "4" || pending["innodb_read_io_threads"] != "8" || e.status(id) != statusRunning || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("waiting value: running %q pending %v status %s", running["innodb_read_io_threads"], pending, e.status(id))
	}
	// A spec change's restart applies it: one restart for both.
	if a := e.toggle(id, "none"); a.status != 200 {
		t.Fatal(a.raw)
	}
	e.settle()
	running, pending = e.params(id)
	if running["innodb_read_io_threads"] != "8" || len(pending) != 0 || running["innodb_doublewrite"] != "ON" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the toggle: running %q doublewrite %q pending %v restarts %d", running["innodb_read_io_threads"], running["innodb_doublewrite"], pending, e.sim.Stats().Restarts[id])
	}

	// Forcerestart with two restart-needing values: one restart, both run afterwards.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Forcerestart": "true", "Parameters": `{"innodb_read_io_threads":"16","back_log":"4000","wait_timeout":"600"}`})
	if s := e.status(id); s != statusRebooting {
		t.Fatalf("Forcerestart: %s", s)
	}
	e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"wait_timeout":"700"}`}, 400, "OperationDenied.DBInstanceStatus")
	e.settle()
	running, _ = e.params(id)
	if running["innodb_read_io_threads"] != "16" || running["back_log"] != "4000" || running["wait_timeout"] != "600" || e.sim.Stats().Restarts[id] != 2 {
		t.Fatalf("after Forcerestart: %v restarts %d", running, e.sim.Stats().Restarts[id])
	}
	// Forcerestart with nothing that needs a restart restarts nothing.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Forcerestart": "true", "Parameters": `{"wait_timeout":"900"}`})
	if e.status(id) != statusRunning || e.sim.Stats().Restarts[id] != 2 {
		t.Fatalf("online change with Forcerestart restarted: %s %d", e.status(id), e.sim.Stats().Restarts[id])
	}
	// RestartDBInstance applies a waiting value too.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"back_log":"5000"}`})
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": id})
	e.settle()
	if running, pending := e.params(id); running["back_log"] != "5000" || len(pending) != 0 {
		t.Fatalf("after RestartDBInstance: %q %v", running["back_log"], pending)
	}
}

func TestModifyParameterRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	cases := []struct {
		params, code, inMessage string
	}{
		{`{"innodb_io_capacty":"2000"}`, "InvalidParameter", "innodb_io_capacty"},
		{`{"innodb_io_capacity":"50"}`, "InvalidParameter", "innodb_io_capacity:50"},
		{`{"innodb_flush_neighbors":"3"}`, "InvalidParameter", "innodb_flush_neighbors:3"},
		{`{"innodb_io_capacity":"2000.5"}`, "InvalidParameter", "innodb_io_capacity"},
		{`{"innodb_doublewrite":"ON"}`, "InvalidParameter", "cannot be modified"},
		{`{"lower_case_table_names":"0"}`, "InvalidParameter", "cannot be modified"}, // fixed at init on 8.0
		{`{"innodb_buffer_pool_size":"{DBInstanceClassMemory*9/10}"}`, "InvalidParameter", "innodb_buffer_pool_size"},
		{`{"tx_isolation":"READ-COMMITTED"}`, "InvalidParameter", "tx_isolation"}, // 5.7 only
		{`not json`, "InvalidParameters.Format", ""},
		{`{}`, "InvalidParameters.Format", ""},
	}
	for _, tc := range cases {
		a := e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": tc.params}, 400, tc.code)
		if !strings.Contains(a.raw, tc.inMessage) {
			t.Errorf("%s: message %s lacks %q", tc.params, a.raw, tc.inMessage)
		}
	}
	e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"sync_binlog":"1"}`, "SwitchTimeMode": "ScheduleTime"}, 400, "InvalidParameter")
	// One bad parameter refuses the whole request: the good one did not change either.
	e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"sync_binlog":"7","innodb_io_capacity":"1"}`}, 400, "InvalidParameter")
	if running, _ := e.params(id); running["sync_binlog"] != "1" {
		t.Fatalf("a refused request changed sync_binlog to %q", running["sync_binlog"])
	}
	// Accepted edges: a formula within 8/10, a fractional long_query_time, a time zone.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"innodb_buffer_pool_size":"{DBInstanceClassMemory*7/10}","long_query_time":"0.5","default_time_zone":"+08:00"}`})
	if e.sim.Stats().Requests["ModifyParameter"] < len(cases) {
		t.Fatal("requests not counted")
	}
}
