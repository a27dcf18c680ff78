package rdsservice

import (
	"reflect"
	"testing"
	"time"
)

// A waiting toggle that runs now (its window is open now) is what the primary's read-only
// instances follow during this apply: PlannedScheduledFlag reads it from the task's restart, which
// says whether it turns atomic_write_16k on, whatever its reasons list first or add.
func TestPlannedScheduledFlagReadsTheTaskRestart(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC)
	task := func(changes ...string) Decision {
		restarts := pendingRestarts("rm-1", "", PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-03T02:00:00Z", Changes: changes})
		for i := range restarts {
			restarts[i].When = "" // the window is open now (runWindowNow)
			restarts[i].Reasons = append([]string{"maintenance_window 10:00Z-13:00Z is open now"}, restarts[i].Reasons...)
		}
		return Decision{Restarts: restarts}
	}
	for _, c := range []struct {
		name string
		dec  Decision
		want bool
	}{
		{"toggle on", task("atomic_write_16k changes from false to true"), true},
		{"class change and toggle on", task(`instance_type changes from "a" to "b"`, "atomic_write_16k changes from false to true"), true},
		{"toggle off", task("atomic_write_16k changes from true to false"), false},
		{"class change alone", task(`instance_type changes from "a" to "b"`), false},
		{"parameters alone", task("parameter back_log is set to 4000"), false},
	} {
		got := PlannedScheduledFlag(c.dec, now)
		if (got != nil) != c.want {
			t.Errorf("%s: %+v, want a toggle on now %t", c.name, got, c.want)
			continue
		}
		if got != nil && (!got.On || !followsNow(got, now)) {
			t.Errorf("%s: %+v, want on and starting now", c.name, got)
		}
	}
}

// An unchanged read-only instance with a task of its own waiting for its window, whose primary's
// unchanged plan records a waiting toggle on: its plan names both restarts, its task's and the follow
// in its primary's window, as the plan that deferred them did (seed 20261202, later run "read-only added").
func TestPlanUnchangedNamesTheFollowBesideItsOwnTask(t *testing.T) {
	own := &PendingChange{TaskID: "t-ro", Window: "04:00Z-05:00Z", StartsAt: "2026-12-03T04:00:00Z",
		Changes: []string{`instance_type changes from "mysqlro.n2.medium.1c" to "mysqlro.n2.large.1c"`}}
	primaryTask := &PendingChange{TaskID: "t-rm", Window: "02:00Z-03:00Z", StartsAt: "2026-12-03T02:00:00Z",
		Changes: []string{"atomic_write_16k changes from false to true"}}
	follow := Follow{PrimaryID: "rm-1", Scheduled: primaryTask.ToggleOn(), Supported: true}
	d := PlanUnchanged(RoleReadOnly, "rr-1", "", false, own, follow)
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, []step{{OpPendingTask, "rr-1", WhenInWindow, EffectRestart},
		{OpWaitFollowsPrimary, "rr-1", WhenInWindow, EffectRestart}}) || len(d.Program.Restarts()) != 2 {
		t.Fatalf("program %+v, restarts %+v", got, d.Program.Restarts())
	}
	if d := PlanUnchanged(RoleReadOnly, "rr-1", "", true, own, follow); d.Guard != GuardPreventRestart || len(d.Errors()) != 1 {
		t.Fatalf("prevent_restart: guard %q errors %v", d.Guard, d.Errors())
	}
	for name, f := range map[string]Follow{"already on": {PrimaryID: "rm-1", Scheduled: follow.Scheduled, Enabled: true, Supported: true},
		"not eligible": {PrimaryID: "rm-1", Scheduled: follow.Scheduled}, "no toggle waits": {PrimaryID: "rm-1", Supported: true},
		"the primary's task turns it off": {PrimaryID: "rm-1", Supported: true, Scheduled: (&PendingChange{Changes: []string{"atomic_write_16k changes from true to false"}}).ToggleOn()}} {
		if rs := PlanUnchanged(RoleReadOnly, "rr-1", "", false, own, f).Program.Restarts(); len(rs) != 1 {
			t.Errorf("%s: restarts %+v, want its own task's only", name, rs)
		}
	}
}

// The primary's toggle whose window is open now runs during this apply: at the read-only instance's
// final plan (after its primary's apply) the primary is on already, and the instance still follows
// it, planned on with its restart during the apply (seed 20261202, later run "window opened now").
func TestFollowScheduledPrimaryAfterItRanNow(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC)
	plan := func(startsAt string, primaryOn bool) Decision {
		in := PlanInput{Role: RoleReadOnly, Label: "rr-1", Facts: Facts{Now: now, PrimaryScheduled: &ScheduledFlag{On: true, StartsAt: startsAt},
			Primary: &ExistingInstance{ID: "rm-1", Enabled: primaryOn}}}
		d := Decision{AtomicWrite: Known(false), AtomicWriteSupported: Known(true)}
		followScheduledPrimary(in, &d)
		return d
	}
	for _, primaryOn := range []bool{false, true} {
		if d := plan(now.Add(-30*time.Minute).Format(APITimeLayout), primaryOn); !d.AtomicWrite.Is(true) || len(d.Restarts) != 1 || d.Restarts[0].When != "" {
			t.Errorf("window open now, primary on %t: flag %v, restarts %+v", primaryOn, d.AtomicWrite, d.Restarts)
		}
	}
	if d := plan(now.Add(15*time.Hour).Format(APITimeLayout), true); len(d.Restarts) != 0 {
		t.Errorf("primary on, its toggle still waiting: restarts %+v, want none", d.Restarts)
	}
}

// A primary whose plan names its waiting task's restart as possible (a spec value known only at
// apply may cancel the task) makes its read-only instances' follow of the task's toggle possible
// too: the known entry of sweep seed 52 (issue 39 §4) named the follow certain, and the window made
// none.
func TestFollowIsPossibleWhenThePrimaryMayCancelItsTask(t *testing.T) {
	var l Ledger
	dec := Decision{AtomicWrite: Known(false), Restarts: []Restart{{InstanceID: "rm-1", Task: "t-1", When: "in the window", Possible: true}}}
	recordPrimary(&l, "rm-1", PlanInput{Prior: &ExistingInstance{ID: "rm-1"}}, dec)
	if !l.Primary("rm-1").TaskMayBeCancelled {
		t.Fatalf("ledger %+v: want the task recorded as possibly cancelled", l.Primary("rm-1"))
	}
	for _, mayBeCancelled := range []bool{false, true} {
		in := PlanInput{Role: RoleReadOnly, Label: "rr-1", Facts: Facts{Primary: &ExistingInstance{ID: "rm-1"},
			PrimaryScheduled: &ScheduledFlag{On: true, StartsAt: "2026-12-03T02:00:00Z", MayBeCancelled: mayBeCancelled}}}
		d := Decision{AtomicWrite: Known(false), AtomicWriteSupported: Known(true)}
		followScheduledPrimary(in, &d)
		if len(d.Restarts) != 1 || !d.Restarts[0].ByPrimary || d.Restarts[0].Possible != mayBeCancelled {
			t.Errorf("may be cancelled %t: restarts %+v, want one follow, possible %t", mayBeCancelled, d.Restarts, mayBeCancelled)
		}
	}
}
