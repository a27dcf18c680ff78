package rdsservice

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// testTemplate is a small template in the API's own shape, decoded like a real answer.
func testTemplate() ParameterTemplate {
	resp := &rdsapi.DescribeParameterTemplatesResponse{}
	add := func(name, def, check string, modifiable, restart bool) {
		resp.Parameters.TemplateRecord = append(resp.Parameters.TemplateRecord, rdsapi.ParameterTemplateRecord{
			ParameterName: name, ParameterValue: def, CheckingCode: check,
			ForceModify: rdsapi.FlexBool(modifiable), ForceRestart: rdsapi.FlexBool(restart),
		})
	}
	add("innodb_io_capacity", "20000", "[100-18446744073709551615]", true, false)
	add("innodb_io_capacity_max", "40000", "[100-18446744073709551615]", true, false)
	add("innodb_flush_neighbors", "0", "[0|1|2]", true, false)
	add("innodb_buffer_pool_size", "{DBInstanceClassMemory*3/4}", "[134217728-18446744073709551615]", true, false)
	add("innodb_read_io_threads", "4", "[1-64]", true, true)
	add("back_log", "3000", "[0-65535]", true, true)
	add("innodb_doublewrite", "ON", "[ON|OFF]", false, true)
	add("innodb_page_size", "16384", "[4096|8192|16384|32768|65536]", false, true)
	add("long_query_time", "1", "[0.03-10]", true, false)
	add("binlog_format", "ROW", "[ROW|STATEMENT|MIXED]", true, false)
	add("", "x", "[x]", true, false) // nameless records are dropped
	return TemplateFromAPI("MySQL", "8.0", resp)
}

func TestCheckParameters(t *testing.T) {
	tmpl := testTemplate()
	if len(tmpl.Parameters) != 10 {
		t.Fatalf("template has %d parameters, want 10", len(tmpl.Parameters))
	}
	cases := []struct {
		name    string
		want    map[string]string
		flag    Val[bool]
		summary string
		detail  []string
	}{
		{"valid", map[string]string{"innodb_io_capacity": "4000", "innodb_flush_neighbors": "1", "long_query_time": "0.5", "binlog_format": "row",
			"innodb_buffer_pool_size": "{DBInstanceClassMemory*7/10}"}, Known(true), "", nil},
		{"byte count for a formula parameter", map[string]string{"innodb_buffer_pool_size": "2147483648"}, Unknown[bool](), "", nil},
		{"typo", map[string]string{"innodb_io_capacty": "4000"}, Unknown[bool](), "Unknown RDS parameter",
			[]string{`parameters["innodb_io_capacty"]`, "MySQL 8.0", "Did you mean innodb_io_capacity"}},
		{"nothing close", map[string]string{"zzzzzzzzzzzz": "1"}, Unknown[bool](), "Unknown RDS parameter", []string{"rds_parameter_templates"}},
		{"below range", map[string]string{"innodb_io_capacity": "50"}, Unknown[bool](), "RDS parameter value not allowed",
			[]string{`"50"`, "allowed range is the whole numbers [100-18446744073709551615]", `default is "20000"`}},
		{"out of set", map[string]string{"innodb_flush_neighbors": "3"}, Unknown[bool](), "RDS parameter value not allowed", []string{"allowed values are 0, 1, 2"}},
		{"fraction for an integer", map[string]string{"innodb_io_capacity": "4000.5"}, Unknown[bool](), "RDS parameter value not allowed", nil},
		{"not a number", map[string]string{"innodb_io_capacity": "lots"}, Unknown[bool](), "RDS parameter value not allowed", nil},
		{"formula too large", map[string]string{"innodb_buffer_pool_size": "{DBInstanceClassMemory*9/10}"}, Unknown[bool](), "RDS parameter value not allowed",
			[]string{"X/Y at most 8/10"}},
		{"not modifiable", map[string]string{"innodb_page_size": "4096"}, Unknown[bool](), "RDS parameter cannot be changed", []string{"innodb_page_size", "Remove it"}},
		{"doublewrite agrees", map[string]string{"innodb_doublewrite": "off"}, Known(true), "", nil},
		{"doublewrite agrees off", map[string]string{"innodb_doublewrite": "ON"}, Known(false), "", nil},
		{"doublewrite contradicts", map[string]string{"innodb_doublewrite": "ON"}, Known(true), "innodb_doublewrite contradicts atomic_write_16k",
			[]string{"atomic_write_16k is true", `innodb_doublewrite = "OFF"`, "Set atomic_write_16k = false"}},
		{"doublewrite flag unknown", map[string]string{"innodb_doublewrite": "ON"}, Unknown[bool](), "innodb_doublewrite cannot be checked yet", nil},
		{"doublewrite nonsense", map[string]string{"innodb_doublewrite": "DETECT_ONLY"}, Known(true), "RDS parameter value not allowed", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			problems := CheckParameters(tc.want, nil, tmpl, tc.flag)
			if tc.summary == "" {
				if len(problems) != 0 {
					t.Fatalf("unexpected problems: %v", problems)
				}
				return
			}
			if len(problems) != 1 || problems[0].Summary != tc.summary || problems[0].Severity != SeverityError {
				t.Fatalf("got %v, want one %q", problems, tc.summary)
			}
			name, ok := strings.CutPrefix(problems[0].Attribute, "parameters.")
			if _, named := tc.want[name]; !ok || !named {
				t.Errorf("problem points at %q, not at the configured entry", problems[0].Attribute)
			}
			for _, part := range tc.detail {
				if !strings.Contains(problems[0].Detail, part) {
					t.Errorf("detail %q lacks %q", problems[0].Detail, part)
				}
			}
		})
	}
	// Unknown values are skipped; unknown names are still checked.
	problems := CheckParameters(map[string]string{"innodb_io_capacity": "", "nope_nope": ""}, map[string]bool{"innodb_io_capacity": true, "nope_nope": true}, tmpl, Unknown[bool]())
	if len(problems) != 1 || problems[0].Attribute != "parameters.nope_nope" || problems[0].Rule != RuleParamUnknown {
		t.Fatalf("unknown values: %v", problems)
	}
}

// Issue 23 item 12: ranges as the template writes them, suggestions the user can set, the
// doublewrite default that follows the flag, and integers written as integers.
func TestParameterMessages(t *testing.T) {
	tmpl := testTemplate()
	tmpl.Parameters["transaction_isolation"] = ParameterSpec{Name: "transaction_isolation", Default: "READ-COMMITTED",
		Allowed: "[READ-UNCOMMITTED|READ-COMMITTED|REPEATABLE-READ|SERIALIZABLE]", Modifiable: true}
	detail := func(want map[string]string, flag Val[bool]) string {
		problems := CheckParameters(want, nil, tmpl, flag)
		if len(problems) != 1 {
			t.Fatalf("%v: %+v, want one problem", want, problems)
		}
		return problems[0].Detail
	}
	if d := detail(map[string]string{"long_query_time": "20"}, Unknown[bool]()); !strings.Contains(d, "allowed range is [0.03-10]") {
		t.Errorf("range not as the template writes it: %s", d)
	}
	if d := detail(map[string]string{"tx_isolation": "READ-COMMITTED"}, Unknown[bool]()); !strings.Contains(d, `set parameters["transaction_isolation"] instead`) {
		t.Errorf("tx_isolation on 8.0: %s", d)
	}
	// innodb_page_size is one letter away but users cannot set it.
	if d := detail(map[string]string{"innodb_page_sizes": "4096"}, Unknown[bool]()); strings.Contains(d, "innodb_page_size,") || strings.Contains(d, "innodb_page_size?") {
		t.Errorf("suggests a parameter users cannot set: %s", d)
	}
	if d := detail(map[string]string{"innodb_doublewrite": "DETECT_ONLY"}, Known(true)); !strings.Contains(d, `default is "OFF" with atomic_write_16k = true`) {
		t.Errorf("doublewrite default with the flag on: %s", d)
	}
	if d := detail(map[string]string{"innodb_doublewrite": "DETECT_ONLY"}, Known(false)); !strings.Contains(d, `default is "ON" with atomic_write_16k = false`) {
		t.Errorf("doublewrite default with the flag off: %s", d)
	}
	for _, v := range []string{"0x1000", "4000.0", "1e4", "4_000"} {
		detail(map[string]string{"innodb_io_capacity": v}, Unknown[bool]())
	}
	if problems := CheckParameters(map[string]string{"innodb_io_capacity": "4000", "long_query_time": "0.5"}, nil, tmpl, Unknown[bool]()); len(problems) != 0 {
		t.Fatalf("plain values refused: %+v", problems)
	}
}

func TestPlanParameters(t *testing.T) {
	tmpl := testTemplate()
	running := map[string]string{"innodb_io_capacity": "20000", "innodb_read_io_threads": "4", "binlog_format": "ROW"}

	nothing := PlanParameters(map[string]string{"innodb_io_capacity": "20000", "binlog_format": "row", "innodb_doublewrite": "OFF"}, running, nil, tmpl)
	if len(nothing.Send) != 0 || nothing.NeedsRestart() {
		t.Fatalf("same values planned a change: %+v", nothing)
	}
	onlineOnly := PlanParameters(map[string]string{"innodb_io_capacity": "4000", "innodb_flush_neighbors": "0"}, running, nil, tmpl)
	if !reflect.DeepEqual(onlineOnly.Send, map[string]string{"innodb_io_capacity": "4000"}) || onlineOnly.NeedsRestart() || !reflect.DeepEqual(onlineOnly.Online, []string{"innodb_io_capacity"}) {
		t.Fatalf("online change (innodb_flush_neighbors runs its default 0): %+v", onlineOnly)
	}
	mixed := PlanParameters(map[string]string{"innodb_io_capacity": "4000", "innodb_read_io_threads": "8", "back_log": "4000"}, running, nil, tmpl)
	if !mixed.NeedsRestart() || !reflect.DeepEqual(mixed.Restart, []string{"back_log", "innodb_read_io_threads"}) || len(mixed.Send) != 3 {
		t.Fatalf("mixed change: %+v", mixed)
	}
	reason := ParameterRestartReason(mixed, running, tmpl)
	for _, part := range []string{"back_log 3000 -> 4000", "innodb_read_io_threads 4 -> 8"} {
		if !strings.Contains(reason, part) {
			t.Errorf("reason %q lacks %q", reason, part)
		}
	}
	if ParameterRestartReason(onlineOnly, running, tmpl) != "" {
		t.Fatal("an online change has a restart reason")
	}
	if got := PendingAppliedReason(map[string]string{"back_log": "5000"}); !strings.Contains(got, "back_log = 5000") {
		t.Fatalf("pending reason %q", got)
	}
	// A managed value that runs while another one waits (set outside): sent again, no restart.
	withdraw := PlanParameters(map[string]string{"innodb_read_io_threads": "4"}, running, map[string]string{"innodb_read_io_threads": "16"}, tmpl)
	if withdraw.NeedsRestart() || !reflect.DeepEqual(withdraw.Withdrawn, []string{"innodb_read_io_threads"}) || withdraw.Send["innodb_read_io_threads"] != "4" {
		t.Fatalf("withdrawing a waiting value: %+v", withdraw)
	}
	if PendingAppliedReason(nil) != "" {
		t.Fatal("no pending, yet a reason")
	}
}

func TestSameParameterValue(t *testing.T) {
	tmpl := testTemplate()
	for _, tc := range []struct {
		name, a, b string
		same       bool
	}{
		{"binlog_format", "ROW", "row", true},
		{"innodb_io_capacity", "4000", "4000.0", true},
		{"innodb_io_capacity", "4000", "4001", false},
		{"innodb_buffer_pool_size", "{DBInstanceClassMemory*3/4}", "{DBInstanceClassMemory*3/4}", true},
		{"innodb_buffer_pool_size", "{DBInstanceClassMemory*3/4}", "{DBInstanceClassMemory*7/10}", false},
	} {
		if got := SameParameterValue(tmpl.Parameters[tc.name], tc.a, tc.b); got != tc.same {
			t.Errorf("%s %q vs %q: %t", tc.name, tc.a, tc.b, got)
		}
	}
}

func TestClosestNames(t *testing.T) {
	names := []string{"innodb_io_capacity", "innodb_io_capacity_max", "sync_binlog", "back_log"}
	if got := ClosestNames("innodb_io_capcity", names, 3); len(got) == 0 || got[0] != "innodb_io_capacity" {
		t.Fatalf("got %v", got)
	}
	if got := ClosestNames("sync_binlg", names, 1); !reflect.DeepEqual(got, []string{"sync_binlog"}) {
		t.Fatalf("got %v", got)
	}
	if got := ClosestNames("qqqqqqqqqqqqqqqqqqq", names, 3); len(got) != 0 {
		t.Fatalf("far names suggested: %v", got)
	}
}

// planFacts is the template and running values of an existing MySQL 8.0 instance.
func planFacts(running, pending map[string]string) *ParameterFacts {
	if running == nil {
		running = map[string]string{}
	}
	if pending == nil {
		pending = map[string]string{}
	}
	return &ParameterFacts{Template: testTemplate(), Running: running, Pending: pending}
}

func paramDesired(values map[string]string) DesiredParameters {
	return DesiredParameters{Set: true, Values: values, UnknownValues: map[string]bool{}}
}

func TestPlanParametersJoinTheRestartDecision(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	base := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), AtomicWrite: Known(false)}
	running := map[string]string{"innodb_io_capacity": "20000", "innodb_read_io_threads": "4"}
	plan := func(desired Desired, facts *ParameterFacts) Decision {
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Parameters: facts}})
	}

	online := base
	online.Parameters = paramDesired(map[string]string{"innodb_io_capacity": "4000"})
	d := plan(online, planFacts(running, nil))
	if d.Action != ActionUpdate || len(d.Restarts) != 0 || d.HasErrors() || d.Parameters.NeedsRestart() || len(d.Parameters.Send) != 1 {
		t.Fatalf("online change: %+v", d)
	}
	if !d.Parameters.PendingKnown || len(d.Parameters.Pending) != 0 {
		t.Fatalf("online change pending: %+v", d.Parameters)
	}

	restart := base
	restart.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
	d = plan(restart, planFacts(running, nil))
	if d.Action != ActionUpdateWithRestart || len(d.Restarts) != 1 || d.RestartAttribute != AttrParameters || d.Parameters.SharesRestart {
		t.Fatalf("restart-needing change alone: %+v", d)
	}
	if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleRestart || !strings.Contains(w[0].Detail, "innodb_read_io_threads 4 -> 8") {
		t.Fatalf("warning: %+v", d.Problems)
	}
	guarded := restart
	guarded.PreventRestart = true
	if d := plan(guarded, planFacts(running, nil)); d.Guard != GuardPreventRestart || len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleRestartRefused {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}

	// Class + flag + restart-needing parameters: one restart, the parameters ride on the spec change.
	combined := restart
	combined.InstanceClass, combined.AtomicWrite = Known("mysql.n2.large.2c"), Known(true)
	d = plan(combined, planFacts(running, nil))
	if len(d.Restarts) != 1 || !d.Parameters.SharesRestart || d.Order.Empty() || d.RestartAttribute != AttrInstanceType {
		t.Fatalf("combined: %+v", d)
	}
	if reasons := strings.Join(d.Restarts[0].Reasons, "; "); !strings.Contains(reasons, "instance_type changes") ||
		!strings.Contains(reasons, "atomic_write_16k changes from false to true") || !strings.Contains(reasons, "innodb_read_io_threads 4 -> 8") {
		t.Fatalf("combined reasons: %s", reasons)
	}

	// A restart for a spec change also applies what waits; parameters_pending is then empty.
	classOnly := online
	classOnly.InstanceClass = Known("mysql.n2.large.2c")
	d = plan(classOnly, planFacts(running, map[string]string{"back_log": "5000"}))
	if len(d.Restarts) != 1 || !strings.Contains(strings.Join(d.Restarts[0].Reasons, "; "), "back_log = 5000") ||
		!d.Parameters.PendingKnown || len(d.Parameters.Pending) != 0 {
		t.Fatalf("pending applied by a class change: %+v", d)
	}
	// Without a restart, what waits keeps waiting.
	d = plan(online, planFacts(running, map[string]string{"back_log": "5000"}))
	if len(d.Restarts) != 0 || d.Parameters.Pending["back_log"] != "5000" {
		t.Fatalf("pending without a restart: %+v", d)
	}

	// innodb_doublewrite is checked against the planned flag, not the current one.
	dw := base
	dw.AtomicWrite = Known(true)
	dw.Parameters = paramDesired(map[string]string{"innodb_doublewrite": "ON"})
	d = plan(dw, planFacts(running, nil))
	if len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleParamDoublewriteContradicts || d.Errors()[0].Attribute != "parameters.innodb_doublewrite" {
		t.Fatalf("doublewrite contradiction: %+v", d.Problems)
	}
	dw.Parameters = paramDesired(map[string]string{"innodb_doublewrite": "OFF"})
	if d := plan(dw, planFacts(running, nil)); d.HasErrors() || len(d.Parameters.Send) != 0 {
		t.Fatalf("agreeing doublewrite: %+v", d)
	}

	// Unknown values may restart; null values, unreadable facts and bad names are errors.
	unknownValue := base
	unknownValue.Parameters = DesiredParameters{Set: true, Values: map[string]string{}, UnknownValues: map[string]bool{"back_log": true}}
	if d := plan(unknownValue, planFacts(running, nil)); d.HasErrors() || !slices.Contains(d.MayRestart, AttrParameters) || d.Parameters.PendingKnown {
		t.Fatalf("unknown value: %+v", d)
	}
	nullValue := base
	nullValue.Parameters = DesiredParameters{Set: true, Values: map[string]string{}, NullValues: []string{"back_log"}}
	if d := plan(nullValue, planFacts(running, nil)); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleParamNoValue {
		t.Fatalf("null value: %+v", d.Problems)
	}
	if d := plan(online, &ParameterFacts{ErrorCall: "DescribeParameters rm-1", Error: "Throttling"}); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleParamFactsUnreadable {
		t.Fatalf("facts error: %+v", d.Problems)
	}
	typo := base
	typo.Parameters = paramDesired(map[string]string{"innodb_io_capcity": "4000"})
	if d := plan(typo, planFacts(running, nil)); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleParamUnknown || len(d.Restarts) != 0 {
		t.Fatalf("typo: %+v", d.Problems)
	}

	// A map the state does not hold yet (after an import) is an update even with nothing to send,
	// and an instance that is not Running then has its status known only after the apply.
	rebooting := prior
	rebooting.Status = "Rebooting"
	d = Plan(PlanInput{Label: "rm-1", Prior: &rebooting, Desired: online, Facts: Facts{Parameters: planFacts(map[string]string{"innodb_io_capacity": "4000"}, nil)}})
	if d.Action != ActionUpdate || len(d.Parameters.Send) != 0 || !d.Status.IsUnknown() {
		t.Fatalf("unrecorded map: action %v send %v status %+v", d.Action, d.Parameters.Send, d.Status)
	}
	recorded := online
	recorded.Parameters.Recorded = true
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: recorded, Facts: Facts{Parameters: planFacts(map[string]string{"innodb_io_capacity": "4000"}, nil)}}); d.Action != ActionNoop {
		t.Fatalf("recorded map with nothing to send: %v", d.Action)
	}

	// Not managed: nothing.
	if d := plan(base, nil); d.Action != ActionNoop || len(d.Parameters.Send) != 0 || d.Parameters.PendingKnown {
		t.Fatalf("unmanaged: %+v", d)
	}
}

func TestPlanParametersCreateAndReadOnly(t *testing.T) {
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)),
		Parameters: paramDesired(map[string]string{"innodb_read_io_threads": "8", "innodb_io_capacity": "20000"})}
	d := Plan(PlanInput{Label: "the new instance", Desired: desired, Facts: Facts{Parameters: planFacts(nil, nil)}})
	if d.Action != ActionCreate || len(d.Restarts) != 1 || !strings.Contains(strings.Join(d.Restarts[0].Reasons, "; "), "right after creation") ||
		len(d.Parameters.Send) != 1 {
		t.Fatalf("create with a restart-needing parameter: %+v", d)
	}

	// A new read-only instance turned on right after creation (its primary is off): the toggle's
	// restart applies the parameters too.
	primaryOff := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	newRO := Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)), AtomicWrite: Known(true),
		Parameters: paramDesired(map[string]string{"innodb_read_io_threads": "8"})}
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: newRO,
		Facts: Facts{Primary: &primaryOff, Parameters: planFacts(nil, nil)}})
	if d.ToggleAfterCreate == nil || len(d.Restarts) != 1 || !d.Parameters.SharesRestart ||
		!strings.Contains(strings.Join(d.Restarts[0].Reasons, ";"), "innodb_read_io_threads 4 -> 8") {
		t.Fatalf("new read-only instance toggled after creation, with parameters: %+v %+v", d.Restarts, d.Problems)
	}

	// A read-only instance that follows its primary's toggle restarts before its own change is
	// sent: restart-needing parameters cost a second restart, and the plan says so.
	prior := ExistingInstance{ID: "rr-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 100, Supported: true, Status: StatusRunning, MasterID: "rm-1"}
	primary := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	ro := Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)),
		Parameters: paramDesired(map[string]string{"innodb_read_io_threads": "8"})}
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &prior, Desired: ro,
		Facts: Facts{Primary: &primary, PrimaryPlanned: Known(true), Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}})
	if !d.FollowsPrimary {
		t.Fatalf("the read-only instance should follow its primary's planned toggle: %+v", d)
	}
	if len(d.Restarts) != 2 || d.Parameters.SharesRestart {
		t.Fatalf("follower with restart-needing parameters: %+v", d.Restarts)
	}
	// Turning itself on with a class change instead: one order, one restart, the parameters ride on it.
	ro.InstanceClass, ro.AtomicWrite = Known("mysqlro.n2.large.1c"), Known(true)
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &prior, Desired: ro,
		Facts: Facts{Primary: &primary, PrimaryPlanned: Known(true), Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}})
	if d.FollowsPrimary || len(d.Restarts) != 1 || !d.Parameters.SharesRestart || d.Order.Empty() ||
		!strings.Contains(strings.Join(d.Restarts[0].Reasons, ";"), "innodb_read_io_threads 4 -> 8") {
		t.Fatalf("read-only class change, flag and parameters: %+v %+v", d.Restarts, d.Problems)
	}
}
