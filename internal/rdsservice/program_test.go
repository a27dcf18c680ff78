package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// step is an operation as the tests compare it.
type step struct {
	Action, Instance string
	When             When
	Effect           Effect
}

func stepsOf(p Program) []step {
	var out []step
	for _, op := range p.Operations {
		out = append(out, step{op.Action, op.Instance, op.When, op.Effect})
	}
	return out
}

func programPrior() ExistingInstance {
	return ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
}

func programDesired() Desired {
	return Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), AtomicWrite: Known(false),
		ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known("02:00Z-03:00Z")}
}

// The program attaches every restart of the decision to the one operation that causes it, in the
// order they happen, and the plan's restart warning is rendered from it.
func TestProgramCarriesEveryRestart(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	prior := programPrior()
	follower := ExistingInstance{ID: "rr-1", MasterID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		InstanceClass: "mysqlro.n2.medium.1c", Storage: 20, Supported: true, Status: StatusRunning}
	toggle := programDesired()
	toggle.AtomicWrite, toggle.InstanceClass = Known(true), Known("mysql.n2.large.2c")
	toggle.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
	facts := Facts{Now: now, ReadOnly: []ExistingInstance{follower},
		Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: toggle, Facts: facts})
	want := []step{
		{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone},
		{OpModifyParameter, "rm-1", WhenNow, EffectNone},
		{OpModifySpec, "rm-1", WhenNow, EffectRestart},
		{OpSwitchover, "rm-1", WhenNow, EffectSwitchover},
		{OpWaitFollowerToggled, "rr-1", WhenNow, EffectRestart},
		{OpModifySettings, "rm-1", WhenNow, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(d.Program.Restarts(), d.Restarts) || len(d.Restarts) != 2 {
		t.Fatalf("the program's restarts %+v are not the decision's %+v", d.Program.Restarts(), d.Restarts)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || !strings.Contains(w[0].Detail, "innodb_read_io_threads 4 -> 8") || !strings.Contains(w[0].Detail, "rr-1") {
		t.Fatalf("the warning is not the program's restarts: %+v", w)
	}

	deferred := toggle
	deferred.ApplyRestarts = ApplyRestartsInWindow
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: deferred, Facts: facts})
	for _, op := range d.Program.Operations[1:4] {
		if op.When != WhenInWindow {
			t.Errorf("%s of a deferred update runs %q, want in the window", op.Action, op.When)
		}
	}
	if len(d.Program.Restarts()) != 2 || !strings.Contains(d.Warnings()[0].Detail, "(next: 2026-12-01T02:00Z)") {
		t.Fatalf("deferred: %+v", d.Problems)
	}
}

// A create's program: the create, then the parameters whose restart happens right after it.
func TestProgramOfACreate(t *testing.T) {
	desired := programDesired()
	desired.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
	d := Plan(PlanInput{Label: "the new instance", Desired: desired, Facts: Facts{Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}})
	want := []step{
		{OpCreate, "the new instance", WhenNow, EffectNone},
		{OpModifyParameter, "the new instance", WhenAfterCreate, EffectRestart},
		{OpModifyMaintainTime, "the new instance", WhenAfterCreate, EffectNone},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	// A replacement: the delete, then the new instance's own program, its restart after creation included.
	replaced := programPrior()
	d = Plan(PlanInput{Label: "rm-1", Prior: &replaced, Desired: desired, Replace: []string{AttrEngineVersion},
		Facts: Facts{Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, nil)}})
	fresh := "the new instance replacing rm-1"
	want = []step{
		{OpDelete, "rm-1", WhenNow, EffectReplacement},
		{OpCreate, fresh, WhenNow, EffectReplacement},
		{OpModifyParameter, fresh, WhenAfterCreate, EffectRestart},
		{OpModifyMaintainTime, fresh, WhenAfterCreate, EffectReplacement},
	}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("replacement program\n got %+v\nwant %+v", got, want)
	}
}

// Item 5: storage growth sent with a deferred class change goes out now, on its own.
func TestProgramSendsGrowthNowWithADeferredChange(t *testing.T) {
	prior := programPrior()
	desired := programDesired()
	desired.ApplyRestarts, desired.AtomicWrite = ApplyRestartsInWindow, Null[bool]()
	desired.InstanceClass, desired.Storage = Known("mysql.n2.large.2c"), Known(int64(40))
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
	var specs []Operation
	for _, op := range d.Program.Operations {
		if op.Action == OpModifySpec {
			specs = append(specs, op)
		}
	}
	if len(specs) != 2 || specs[0].When != WhenNow || specs[0].Spec.Storage == nil || specs[0].Spec.InstanceClass != nil || specs[0].Restart != nil ||
		specs[1].When != WhenInWindow || specs[1].Spec.Storage != nil || specs[1].Spec.InstanceClass == nil || specs[1].Restart == nil {
		t.Fatalf("spec orders %+v", specs)
	}
}

// Item 6: apply_restarts = "immediately" alone with a parameter waiting for the window applies
// it now: one restart of its own, announced, and nothing left pending.
func TestProgramImmediatelyAppliesAWaitingParameter(t *testing.T) {
	prior := programPrior()
	desired := programDesired()
	desired.Parameters = paramDesired(map[string]string{"innodb_read_io_threads": "8"})
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired,
		Facts: Facts{Parameters: planFacts(map[string]string{"innodb_read_io_threads": "4"}, map[string]string{"innodb_read_io_threads": "8"})}})
	op := findOp(d.Program, OpModifyParameter)
	if op == nil || op.When != WhenNow || op.Restart == nil || d.Deferred || !d.Parameters.PendingKnown || len(d.Parameters.Pending) != 0 {
		t.Fatalf("program %+v, pending %v", d.Program, d.Parameters.Pending)
	}
	if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleRestart || !strings.Contains(w[0].Detail, "innodb_read_io_threads") {
		t.Fatalf("warnings %+v", w)
	}
}

func findOp(p Program, action string) *Operation {
	for i := range p.Operations {
		if p.Operations[i].Action == action {
			return &p.Operations[i]
		}
	}
	return nil
}
