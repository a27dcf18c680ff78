package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func pendingPrior() ExistingInstance {
	p := programPrior()
	p.StorageType, p.Storage = "cloud_essd", 100
	return p
}

func pendingDesired() Desired {
	d := programDesired()
	d.Storage = Known(int64(100))
	return d
}

var taskForWindow = &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-01T02:00:00Z",
	Changes: []string{`instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"`}}

// A task waiting for the window, ordered before this plan, restarts the instance there: the
// program names it as the cloud's own step, unless this apply replaces or cancels it, and
// prevent_restart refuses it.
func TestProgramNamesThePendingTask(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := pendingPrior()
	plan := func(desired Desired, specPending bool) Decision {
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now, Pending: taskForWindow, SpecChangePending: specPending}})
	}
	rename := pendingDesired()
	rename.InPlaceChanges = true
	d := plan(rename, false)
	var task []Operation
	for _, op := range d.Program.Operations {
		if op.Action == OpPendingTask {
			task = append(task, op)
		}
	}
	if len(task) != 1 || task[0].When != WhenInWindow || task[0].Effect != EffectRestart || task[0].Restart.Task != "t-1" {
		t.Fatalf("program %+v: want one pending task operation in the window with its restart", stepsOf(d.Program))
	}
	if ws := d.Warnings(); len(ws) != 1 || ws[0].Rule != RulePendingRestart || !strings.Contains(ws[0].Detail, "instance_type changes") {
		t.Fatalf("warnings %v: want the pending task's restart", ws)
	}

	guarded := rename
	guarded.PreventRestart = true
	if d := plan(guarded, false); d.Guard != GuardPreventRestart || len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleRestartRefused {
		t.Fatalf("prevent_restart: guard %q errors %v, want the restart refused", d.Guard, d.Errors())
	}

	// Setting the spec back to the instance's own cancels it: nothing restarts.
	if d := plan(pendingDesired(), true); len(d.Program.Restarts()) != 0 {
		t.Fatalf("cancel: restarts %+v, want none", d.Program.Restarts())
	}
	// An order for now supersedes it: one restart, now.
	bigger := pendingDesired()
	bigger.InstanceClass = Known("mysql.n2.xlarge.2c")
	if rs := plan(bigger, true).Program.Restarts(); len(rs) != 1 || rs[0].When != "" {
		t.Fatalf("order now: restarts %+v, want one during the apply", rs)
	}

	// The unchanged plan names it from state alone.
	u := PlanUnchanged(RolePrimary, "rm-1", "HighAvailability", false, taskForWindow, Follow{})
	if got := stepsOf(u.Program); !reflect.DeepEqual(got, []step{{OpPendingTask, "rm-1", WhenInWindow, EffectRestart}}) || len(u.Warnings()) != 1 {
		t.Fatalf("unchanged: program %+v warnings %v", got, u.Warnings())
	}
	if u := PlanUnchanged(RolePrimary, "rm-1", "HighAvailability", true, taskForWindow, Follow{}); u.Guard != GuardPreventRestart || len(u.Errors()) != 1 {
		t.Fatalf("unchanged with prevent_restart: guard %q errors %v", u.Guard, u.Errors())
	}
}

// A deferred order whose only part is a cloud-disk growth (sent now, online) leaves the
// parameters' restart in the window to the ModifyParameter operation: it was dropped from the
// program, so the plan did not name it.
func TestProgramKeepsTheParameterRestartBesideAGrowthNow(t *testing.T) {
	prior := pendingPrior()
	desired := pendingDesired()
	desired.Storage, desired.ApplyRestarts = Known(int64(150)), ApplyRestartsInWindow
	desired.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired,
		Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}})
	want := []step{
		{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone},
		{OpModifyParameter, "rm-1", WhenInWindow, EffectRestart},
		{OpModifySpec, "rm-1", WhenNow, EffectNone},
		{OpModifySettings, "rm-1", WhenNow, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	if len(d.Program.Restarts()) != 1 || len(d.Warnings()) != 1 {
		t.Fatalf("restarts %+v warnings %v: want the parameters' restart in the window, named", d.Program.Restarts(), d.Warnings())
	}
}
