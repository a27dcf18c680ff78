package simulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// deferSpec sends a ModifyDBInstanceSpec for the maintenance window with the given overrides.
func (e *env) deferSpec(id string, overrides map[string]string) answer {
	e.t.Helper()
	a := e.attr(id)
	p := map[string]string{
		"DBInstanceId": id, "DBInstanceClass": a["DBInstanceClass"].(string),
		"DBInstanceStorage": jsonNum(a["DBInstanceStorage"]), "EffectiveTime": "MaintainTime",
	}
	for k, v := range overrides {
		p[k] = v
	}
	return e.c.call("ModifyDBInstanceSpec", p)
}

func (e *env) tasks(id, status string) []map[string]any {
	e.t.Helper()
	body := e.c.ok("DescribeHistoryTasks", e.historyParams(map[string]string{"RegionId": DefaultRegion, "InstanceId": id, "Status": status}))
	var out []map[string]any
	for _, it := range body["Items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// historyParams adds the required time range, 29 days either side of the simulator's now.
func (e *env) historyParams(p map[string]string) map[string]string {
	now := e.clock.Now()
	p["FromStartTime"] = now.Add(-29 * 24 * time.Hour).UTC().Format(timestampLayout)
	p["ToStartTime"] = now.Add(29 * 24 * time.Hour).UTC().Format(timestampLayout)
	return p
}

// DescribeHistoryTasks needs FromStartTime and ToStartTime (the rds-20140815 model marks both
// required) and lists only the tasks that start within them.
func TestDescribeHistoryTasksTimeRange(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(map[string]string{"OptimizedWrites": "none"})
	if a := e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"}); a.status != http.StatusOK {
		t.Fatal(a.raw)
	}
	for _, missing := range []string{"FromStartTime", "ToStartTime"} {
		p := e.historyParams(map[string]string{"InstanceId": id})
		delete(p, missing)
		if a := e.c.call("DescribeHistoryTasks", p); a.status != http.StatusBadRequest || a.code() != "MissingParameter" {
			t.Fatalf("without %s: %s", missing, a.raw)
		}
	}
	at, _ := time.Parse(timestampLayout, "2026-03-01T18:00:00Z")
	for _, r := range []struct {
		from, to time.Time
		want     int
	}{{at.Add(time.Second), at.Add(time.Hour), 0}, {at.Add(-time.Hour), at.Add(-time.Second), 0}, {at, at, 1}} {
		body := e.c.ok("DescribeHistoryTasks", map[string]string{"InstanceId": id,
			"FromStartTime": r.from.Format(timestampLayout), "ToStartTime": r.to.Format(timestampLayout)})
		if got := len(body["Items"].([]any)); got != r.want {
			t.Errorf("a task starting %s, listed for %s..%s: %d, want %d", at, r.from, r.to, got, r.want)
		}
	}
}

func TestMaintenanceWindowDefersSpecChanges(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(map[string]string{"OptimizedWrites": "none"})
	if w := e.attr(id)["MaintainTime"]; w != defaultMaintainTime {
		t.Fatalf("new instance window %v", w)
	}

	// Two deferred orders before the window: the second replaces the first.
	if a := e.deferSpec(id, map[string]string{"OptimizedWrites": "optimized"}); a.status != http.StatusOK {
		t.Fatal(a.raw)
	}
	if a := e.deferSpec(id, map[string]string{"OptimizedWrites": "optimized", "DBInstanceClass": "mysql.x4.large.2c"}); a.status != http.StatusOK {
		t.Fatal(a.raw)
	}
	if a := e.attr(id); a["DBInstanceStatus"] != statusRunning || a["DBInstanceClass"] != "mysql.x4.medium.2c" || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("a deferred order changed the instance at once: %v %v", a["DBInstanceStatus"], a["DBInstanceClass"])
	}
	pending := e.tasks(id, taskScheduled)
	if len(pending) != 1 || pending[0]["StartTime"] != "2026-03-01T18:00:00Z" || pending[0]["TaskType"] != taskTypeModifySpec {
		t.Fatalf("scheduled tasks: %v", pending)
	}
	var detail map[string]any
	if err := json.Unmarshal([]byte(pending[0]["TaskDetail"].(string)), &detail); err != nil || detail["DBInstanceClass"] != "mysql.x4.large.2c" || detail["OptimizedWrites"] != "optimized" {
		t.Fatalf("task detail %v (%v)", pending[0]["TaskDetail"], err)
	}
	if n := len(e.tasks(id, taskCanceled)); n != 1 {
		t.Fatalf("the replaced order should show as Canceled, got %d", n)
	}

	// The window comes (the admin clock advance moves the cloud, not the signatures): one restart.
	e.sim.AdvanceClock(8 * time.Hour)
	if a := e.attr(id); a["DBInstanceStatus"] != statusClassChanging || a["DBInstanceClass"] != "mysql.x4.large.2c" {
		t.Fatalf("at the window: %v %v", a["DBInstanceStatus"], a["DBInstanceClass"])
	}
	e.settle()
	if got := e.owInfo(id); got != owJSON(true, true) {
		t.Fatalf("flag after the window: %s", got)
	}
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("restarts for two deferred orders: %d, want 1", n)
	}
	if done := e.tasks(id, taskSucceed); len(done) != 1 || done[0]["EndTime"] == nil {
		t.Fatalf("succeeded tasks: %v", done)
	}
}

func TestMaintenanceWindowImmediateOrderAndRevertCancel(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"})
	// Reverting to the current spec before the window cancels the pending change: no task, no restart.
	e.deferSpec(id, nil)
	if n := len(e.tasks(id, taskScheduled)); n != 0 {
		t.Fatalf("a revert left %d scheduled tasks", n)
	}
	e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"})
	// An immediate order supersedes the pending one.
	e.c.ok("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceClass": "mysql.x2.large.2c"})
	e.settle()
	e.sim.AdvanceClock(24 * time.Hour)
	if a := e.attr(id); a["DBInstanceClass"] != "mysql.x2.large.2c" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %v, restarts %d", a["DBInstanceClass"], e.sim.Stats().Restarts[id])
	}
	if n := len(e.tasks(id, taskScheduled)); n != 0 {
		t.Fatalf("%d tasks still scheduled", n)
	}
}

func TestMaintenanceWindowMissedAndMoved(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("ModifyDBInstanceMaintainTime", map[string]string{"DBInstanceId": id, "MaintainTime": "25:00Z-02:00Z"}, 400, "InvalidParameter")
	e.c.fails("ModifyDBInstanceMaintainTime", map[string]string{"DBInstanceId": id, "MaintainTime": "02:00Z-02:00Z"}, 400, "InvalidParameter")
	e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"})
	// Moving the window moves the pending change: 22:00Z-02:00Z wraps midnight.
	e.c.ok("ModifyDBInstanceMaintainTime", map[string]string{"DBInstanceId": id, "MaintainTime": "22:00Z-02:00Z"})
	if p := e.tasks(id, taskScheduled); len(p) != 1 || p[0]["StartTime"] != "2026-03-01T22:00:00Z" {
		t.Fatalf("moved task: %v", p)
	}
	if got := e.sim.MissMaintenanceWindow(id); got != 1 {
		t.Fatalf("missed %d tasks", got)
	}
	e.sim.AdvanceClock(24 * time.Hour)
	failed := e.tasks(id, taskFailed)
	if a := e.attr(id); a["DBInstanceClass"] != "mysql.x4.medium.2c" || len(failed) != 1 || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("a missed window changed the instance: %v, failed %v", a["DBInstanceClass"], failed)
	}
	if !strings.Contains(failed[0]["TaskDetail"].(string), "passed without the change") {
		t.Fatalf("failed task says why not: %v", failed[0]["TaskDetail"])
	}
}

func TestWindowAround(t *testing.T) {
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	for _, c := range []struct{ window, now, start string }{
		{"18:00Z-22:00Z", "2026-03-01T10:00:00Z", "2026-03-01T18:00:00Z"},
		{"18:00Z-22:00Z", "2026-03-01T19:00:00Z", "2026-03-01T18:00:00Z"}, // inside: this window
		{"18:00Z-22:00Z", "2026-03-01T22:00:00Z", "2026-03-02T18:00:00Z"},
		{"22:00Z-02:00Z", "2026-03-02T01:00:00Z", "2026-03-01T22:00:00Z"}, // wraps midnight
		{"22:00Z-02:00Z", "2026-03-02T03:00:00Z", "2026-03-02T22:00:00Z"},
	} {
		start, end := windowAround(c.window, at(c.now))
		if !start.Equal(at(c.start)) || !end.After(start) {
			t.Errorf("%s at %s: %s-%s, want start %s", c.window, c.now, start, end, c.start)
		}
	}
}

func TestMaintenanceAdminEndpoints(t *testing.T) {
	e := newEnv(t)
	post := func(path, body string) (int, map[string]any) {
		resp, err := e.srv.Client().Post(e.srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	id := e.create(nil)
	e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"})
	if status, out := post("/_simulator/maintenance/miss", `{"instance_id":"`+id+`"}`); status != 200 || out["failed"] != float64(1) {
		t.Fatalf("miss: %d %v", status, out)
	}
	for _, bad := range []string{`{"advance":"-1h"}`, `{"advance":"soon"}`, `{"later":"1h"}`} {
		if status, _ := post("/_simulator/clock", bad); status != 400 {
			t.Fatalf("clock %s accepted: %d", bad, status)
		}
	}
	status, out := post("/_simulator/clock", `{"advance":"25h"}`)
	if status != 200 || out["now"] != "2026-03-02T11:00:10Z" {
		t.Fatalf("clock: %d %v", status, out)
	}
	// Signatures still use the real clock: a request signed now is accepted after the advance.
	e.c.ok("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id})
}

// deferParams sends ModifyParameter for the maintenance window (Forcerestart, SwitchTimeMode=MaintainTime).
func (e *env) deferParams(id, params string) {
	e.t.Helper()
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": params, "Forcerestart": "true", "SwitchTimeMode": "MaintainTime"})
}

func TestMaintenanceWindowDefersParameters(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"OptimizedWrites": "none"})

	// Parameters alone: configured now, waiting, no restart until the window; online ones run at once.
	e.deferParams(id, `{"back_log":"4000","sync_binlog":"1000"}`)
	running, pending := e.params(id)
	if running["back_log"] != "3000" || pending["back_log"] != "4000" || running["sync_binlog"] != "1000" || e.sim.Stats().Restarts[id] != 0 {
		t.Fatalf("deferred parameters: running back_log %q sync_binlog %q, pending %v, restarts %d",
			running["back_log"], running["sync_binlog"], pending, e.sim.Stats().Restarts[id])
	}
	// A second deferred request joins the pending task, and a deferred spec change shares the window.
	e.deferParams(id, `{"innodb_read_io_threads":"8"}`)
	e.deferSpec(id, map[string]string{"OptimizedWrites": "optimized", "DBInstanceClass": "mysql.x4.large.2c"})
	scheduled := e.tasks(id, taskScheduled)
	if len(scheduled) != 2 {
		t.Fatalf("want one spec task and one parameter task, got %v", scheduled)
	}
	for _, task := range scheduled {
		if task["TaskType"] == taskTypeModifyParameter && (!strings.Contains(task["TaskDetail"].(string), "back_log") ||
			!strings.Contains(task["TaskDetail"].(string), "innodb_read_io_threads")) {
			t.Fatalf("parameter task detail: %v", task["TaskDetail"])
		}
	}

	e.sim.AdvanceClock(8 * time.Hour)
	e.settle()
	running, pending = e.params(id)
	if running["back_log"] != "4000" || running["innodb_read_io_threads"] != "8" || len(pending) != 0 {
		t.Fatalf("after the window: back_log %q io threads %q pending %v", running["back_log"], running["innodb_read_io_threads"], pending)
	}
	if a := e.attr(id); a["DBInstanceClass"] != "mysql.x4.large.2c" || e.owInfo(id) != owJSON(true, true) {
		t.Fatalf("spec after the window: %v %s", a["DBInstanceClass"], e.owInfo(id))
	}
	if n := e.sim.Stats().Restarts[id]; n != 1 {
		t.Fatalf("restarts for a flag, a class and parameters deferred to one window: %d, want 1", n)
	}
	if n := len(e.tasks(id, taskSucceed)); n != 2 {
		t.Fatalf("succeeded tasks: %d, want 2", n)
	}

	// Parameters alone in a later window: that window's one restart.
	e.deferParams(id, `{"back_log":"5000"}`)
	e.sim.AdvanceClock(24 * time.Hour)
	e.settle()
	if running, _ := e.params(id); running["back_log"] != "5000" || e.sim.Stats().Restarts[id] != 2 {
		t.Fatalf("parameters alone at the window: back_log %q, restarts %d", running["back_log"], e.sim.Stats().Restarts[id])
	}
}

func TestMaintenanceWindowParametersMissedWithdrawnOrAppliedEarlier(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)

	// A missed window withdraws the waiting values: the instance keeps what it runs.
	e.deferParams(id, `{"back_log":"4000"}`)
	if n := e.sim.MissMaintenanceWindow(id); n != 1 {
		t.Fatalf("missed %d tasks", n)
	}
	if running, pending := e.params(id); running["back_log"] != "3000" || len(pending) != 0 {
		t.Fatalf("after a missed window: back_log %q pending %v", running["back_log"], pending)
	}

	// Setting the value back before the window cancels the task: no restart at the window.
	e.deferParams(id, `{"back_log":"4000"}`)
	e.deferParams(id, `{"back_log":"3000"}`)
	if n := len(e.tasks(id, taskScheduled)); n != 0 {
		t.Fatalf("a withdrawn value left %d scheduled tasks", n)
	}

	// An immediate restart before the window applies the values; the window adds no second restart.
	e.deferParams(id, `{"back_log":"4000"}`)
	e.c.ok("RestartDBInstance", map[string]string{"DBInstanceId": id})
	e.settle()
	e.sim.AdvanceClock(24 * time.Hour)
	e.settle()
	if running, _ := e.params(id); running["back_log"] != "4000" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("back_log %q, restarts %d, want 4000 and 1", running["back_log"], e.sim.Stats().Restarts[id])
	}
	if n := len(e.tasks(id, taskSucceed)); n != 1 {
		t.Fatalf("the applied-earlier task should succeed, got %d", n)
	}
}

func TestMaintenanceWindowParameterTaskLosesWithdrawnValues(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.deferParams(id, `{"back_log":"4000","innodb_read_io_threads":"8"}`)
	// An immediate request that sets back_log back to its running value withdraws it from the task.
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"back_log":"3000"}`})
	pending := e.tasks(id, taskScheduled)
	if len(pending) != 1 || strings.Contains(pending[0]["TaskDetail"].(string), "back_log") {
		t.Fatalf("after withdrawing back_log: %v", pending)
	}
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "Parameters": `{"innodb_read_io_threads":"4"}`})
	if n := len(e.tasks(id, taskScheduled)); n != 0 {
		t.Fatalf("a task with every value withdrawn is still scheduled (%d)", n)
	}
	e.sim.AdvanceClock(24 * time.Hour)
	if n := e.sim.Stats().Restarts[id]; n != 0 {
		t.Fatalf("restarts at the window after every value was withdrawn: %d", n)
	}
}
