package rdsservice

import "testing"

// An unchanged instance is planned in full when its group changes in this run, or (a read-only
// instance) when this run planned its primary, or the primary waits for a task while it has none.
func TestLedgerReplansUnchanged(t *testing.T) {
	var l Ledger
	l.RecordGroup("rpg-1", nil)
	l.RecordPrimary("rm-planned", PrimaryPlan{AtomicWrite: Known(true)})
	l.RecordPendingTask("rm-task")
	own := &PendingChange{TaskID: "t-1", Changes: []string{"storage changes from 20 to 30"}}
	for _, tc := range []struct {
		name string
		u    UnchangedInstance
		want bool
	}{
		{"group planned", UnchangedInstance{Role: RolePrimary, ParameterGroup: "rpg-1"}, true},
		{"other group", UnchangedInstance{Role: RolePrimary, ParameterGroup: "rpg-2"}, false},
		{"no group", UnchangedInstance{Role: RolePrimary}, false},
		{"primary planned", UnchangedInstance{Role: RoleReadOnly, PrimaryID: "rm-planned"}, true},
		{"primary not planned", UnchangedInstance{Role: RoleReadOnly, PrimaryID: "rm-other"}, false},
		{"primary's task", UnchangedInstance{Role: RoleReadOnly, PrimaryID: "rm-task"}, true},
		{"primary's task, own task", UnchangedInstance{Role: RoleReadOnly, PrimaryID: "rm-task", Pending: own}, false},
		{"a primary is no follower", UnchangedInstance{Role: RolePrimary, PrimaryID: "rm-planned"}, false},
	} {
		if got := l.Replans(tc.u); got != tc.want {
			t.Errorf("%s: Replans = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// An unchanged primary with a task that turns 16K atomic write on records the task and its toggle
// for its read-only instances, whose unchanged plan then names the restart of following it.
func TestPlanUnchangedInstanceRecordsForFollowers(t *testing.T) {
	var l Ledger
	pending := &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-01-02T02:00:00Z",
		Changes: []string{"atomic_write_16k changes from false to true"}}
	out := PlanUnchangedInstance(&l, UnchangedInstance{Role: RolePrimary, ID: "rm-p", Category: "HighAvailability", Status: StatusRunning, Pending: pending})
	if out.Pending == nil || len(out.Pending.Restarts) != 1 || len(out.StateProblems) != 0 {
		t.Fatalf("primary's plan = %+v", out)
	}
	if !l.PendingTask("rm-p") || l.Primary("rm-p").Scheduled == nil {
		t.Fatalf("ledger after the primary's plan: task %v, scheduled %v", l.PendingTask("rm-p"), l.Primary("rm-p").Scheduled)
	}
	ro := PlanUnchangedInstance(&l, UnchangedInstance{Role: RoleReadOnly, ID: "rr-1", Category: "Basic", Status: StatusRunning,
		PrimaryID: "rm-p", AtomicWriteSupported: true, PreventRestart: true,
		Pending: &PendingChange{TaskID: "t-2", Changes: []string{"storage changes from 20 to 30"}}})
	if ro.Pending == nil || len(ro.Pending.Restarts) != 2 || !ro.Pending.HasErrors() {
		t.Fatalf("read-only plan = %+v, want its own restart and its primary's, refused by prevent_restart", ro.Pending)
	}
	if l.PendingTask("rr-1") {
		t.Error("a read-only instance's task is recorded as a primary's")
	}
	none := PlanUnchangedInstance(&l, UnchangedInstance{Role: RolePrimary, ID: "rm-q", Status: StatusDeleting})
	if none.Pending != nil || len(none.StateProblems) != 1 || none.StateProblems[0].Rule != RuleInstanceDeletingNoChange || l.PendingTask("rm-q") {
		t.Errorf("without a task: %+v, want only the warning of an unchanged plan of a deleting instance", none)
	}
}

func TestPlannedGroupValues(t *testing.T) {
	known := ParameterDecision{GroupValues: map[string]string{"a": "1"}, GroupValuesKnown: true}
	for _, tc := range []struct {
		name  string
		d     ParameterDecision
		group Val[string]
		want  MapValue
	}{
		{"no group", known, Null[string](), MapValue{Null: true}},
		{"empty group", known, Known(""), MapValue{Null: true}},
		{"group unknown", known, Unknown[string](), MapValue{Unknown: true}},
		{"values unknown", ParameterDecision{GroupValuesKnown: false}, Known("rpg-1"), MapValue{Unknown: true}},
		{"values nil", ParameterDecision{GroupValuesKnown: true}, Known("rpg-1"), MapValue{Unknown: true}},
		{"known", known, Known("rpg-1"), MapValue{Values: map[string]string{"a": "1"}}},
	} {
		got := PlannedGroupValues(tc.d, tc.group)
		if got.Null != tc.want.Null || got.Unknown != tc.want.Unknown || len(got.Values) != len(tc.want.Values) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestPlannedEndpointValues(t *testing.T) {
	internal := &NetEndpoint{ConnectionString: "rm-x.mysql.rds.aliyuncs.com", Port: 3307}
	public := Known("rm-x-pub.mysql.rds.aliyuncs.com")
	str := func(v *Val[string]) string {
		switch {
		case v == nil:
			return "keep"
		case v.IsNull():
			return "null"
		case !v.IsKnown():
			return "unknown"
		}
		return v.Value()
	}
	port := func(v *Val[int64]) string {
		if v == nil {
			return "keep"
		}
		if !v.IsKnown() {
			return "unknown"
		}
		return "3307"
	}
	for _, tc := range []struct {
		name                     string
		e                        EndpointsPlanned
		prefixConfigured, portCf bool
		want                     string
	}{
		{"unmanaged", EndpointsPlanned{Internal: internal, PublicString: public}, false, false, "null keep keep rm-x-pub.mysql.rds.aliyuncs.com"},
		{"unknown", EndpointsPlanned{Managed: true}, false, false, "unknown unknown unknown null"},
		{"unknown, configured", EndpointsPlanned{Managed: true}, true, true, "keep keep unknown null"},
		{"known", EndpointsPlanned{Managed: true, Known: true, Internal: internal}, true, true, "rm-x 3307 rm-x.mysql.rds.aliyuncs.com null"},
		{"known, no internal", EndpointsPlanned{Managed: true, Known: true}, true, true, "keep keep keep null"},
	} {
		v := PlannedEndpointValues(tc.e, tc.prefixConfigured, tc.portCf)
		if got := str(v.Prefix) + " " + port(v.Port) + " " + str(v.ConnectionString) + " " + str(v.PublicString); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
