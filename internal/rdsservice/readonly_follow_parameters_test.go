package rdsservice

import "testing"

// An unchanged read-only instance whose own task is parameters alone, following its primary's
// waiting toggle: the follow restart applies the values, so its plan names one restart with both
// reasons when the primary's window opens first or with its own, and two when it opens later.
func TestPlanUnchangedFollowAppliesWaitingParameters(t *testing.T) {
	params := "parameters that take effect only after a restart change (back_log 3000 -> 4000)"
	// The plan that deferred both records the follow in the read-only instance's scheduled_change too.
	recorded := followReasonPrefix + "rm-1 turning atomic_write_16k on in the primary's maintenance window (atomic_write_16k changes from false to true)"
	for _, changes := range [][]string{{params}, {recorded, params}} {
		testFollowAppliesWaitingParameters(t, &PendingChange{TaskID: "t-ro", Window: "02:00Z-03:00Z", StartsAt: "2026-12-03T02:00:00Z", Changes: changes})
	}
	spec := &PendingChange{TaskID: "t-ro", StartsAt: "2026-12-03T02:00:00Z", Changes: []string{`instance_type changes from "a" to "b"`}}
	follow := Follow{PrimaryID: "rm-1", Scheduled: &ScheduledFlag{On: true, StartsAt: "2026-12-03T02:00:00Z"}, Supported: true}
	if rs := PlanUnchanged(RoleReadOnly, "rr-1", "", false, spec, follow).Program.Restarts(); len(rs) != 2 {
		t.Errorf("a spec change of its own: restarts %+v, want 2", rs)
	}
}

func testFollowAppliesWaitingParameters(t *testing.T, own *PendingChange) {
	t.Helper()
	for startsAt, want := range map[string]int{"2026-12-03T02:00:00Z": 1, "2026-12-03T01:00:00Z": 1, "2026-12-03T04:00:00Z": 2} {
		primaryTask := &PendingChange{TaskID: "t-rm", StartsAt: startsAt, Changes: []string{"atomic_write_16k changes from false to true"}}
		follow := Follow{PrimaryID: "rm-1", Scheduled: primaryTask.ToggleOn(), Supported: true}
		rs := PlanUnchanged(RoleReadOnly, "rr-1", "", false, own, follow).Program.Restarts()
		if len(rs) != want {
			t.Errorf("%v, primary's window at %s: restarts %+v, want %d", own.Changes, startsAt, rs, want)
			continue
		}
		if want == 1 && (!rs[0].ByPrimary || len(rs[0].Reasons) != 2 || rs[0].Reasons[1] != own.Changes[len(own.Changes)-1]) {
			t.Errorf("primary's window at %s: restart %+v, want the follow with both reasons", startsAt, rs[0])
		}
	}
}
