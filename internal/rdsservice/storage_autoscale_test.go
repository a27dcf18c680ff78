package rdsservice

import (
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func hasRule(ps []Problem, id RuleID) bool {
	for _, p := range ps {
		if p.Rule == id {
			return true
		}
	}
	return false
}

// autoScaled is an instance with autoscaling on whose disk the cloud grew from floor to actual.
func autoScaled(floor, actual int64) (ExistingInstance, Desired) {
	prior := programPrior()
	prior.Storage = actual
	on := rdsapi.StorageAutoScale{Enabled: true, Threshold: 20, UpperBound: 500}
	desired := programDesired()
	desired.Storage = Known(floor)
	desired.AutoScale = AutoScalePlan{Want: on, Prior: &on, PriorStorage: floor}
	return prior, desired
}

// Storage is a floor while autoscaling is on: the disk the cloud grew is no change and no
// problem; a configured storage above the actual size grows it (online); one below plans nothing
// and warns only when the configured value changed.
func TestAutoScaledStorageIsAFloor(t *testing.T) {
	now := time.Now()
	prior, desired := autoScaled(100, 115)
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if d.Action != ActionNoop || len(d.Problems) != 0 || findOp(d.Program, OpModifySpec) != nil || findOp(d.Program, OpStorageAutoScale) != nil {
		t.Fatalf("grown by the cloud: action %v, problems %v, program %v", d.Action, ruleIDs(d.Problems), stepsOf(d.Program))
	}
	desired.Storage = Known(int64(150))
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpModifySpec); op == nil || op.Spec.Storage == nil || *op.Spec.Storage != 150 || len(d.Restarts) != 0 {
		t.Fatalf("storage above the actual size: program %v, restarts %v", stepsOf(d.Program), d.Restarts)
	}
	desired.Storage = Known(int64(105))
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if findOp(d.Program, OpModifySpec) != nil || d.HasErrors() || !hasRule(d.Warnings(), RuleAutoScaleFloor) {
		t.Fatalf("storage changed to below the actual size: program %v, problems %v", stepsOf(d.Program), ruleIDs(d.Problems))
	}
	desired.AutoScale.PriorStorage = 105
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); len(d.Problems) != 0 {
		t.Fatalf("the floor warning shows once: %v", ruleIDs(d.Problems))
	}
	desired.AutoScale = AutoScalePlan{}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpModifySpec); op == nil || op.Spec.Storage == nil || *op.Spec.Storage != 105 {
		t.Fatalf("without autoscaling, 105 GB below a 115 GB disk is a shrink: %v, %v", stepsOf(d.Program), ruleIDs(d.Problems))
	}
}

// The configuration goes out after a create and when it differs from the one read back.
func TestProgramStorageAutoScaleOperations(t *testing.T) {
	now := time.Now()
	create := programDesired()
	create.AutoScale.Want = rdsapi.StorageAutoScale{Enabled: true, Threshold: 30, UpperBound: 200}
	d := Plan(PlanInput{Label: "new", Desired: create, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpStorageAutoScale); op == nil || op.When != WhenAfterCreate || *op.AutoScale != create.AutoScale.Want || d.HasErrors() {
		t.Fatalf("create: %v, %v", stepsOf(d.Program), ruleIDs(d.Problems))
	}
	prior, desired := autoScaled(100, 115)
	desired.AutoScale.Want.UpperBound = 800
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpStorageAutoScale); op == nil || op.When != WhenNow || op.AutoScale.UpperBound != 800 || len(d.Restarts) != 0 {
		t.Fatalf("changed upper bound: %v", stepsOf(d.Program))
	}
	desired.AutoScale.Want = rdsapi.StorageAutoScale{}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpStorageAutoScale); op == nil || op.AutoScale.Enabled || findOp(d.Program, OpModifySpec) != nil {
		t.Fatalf("turned off: %v", stepsOf(d.Program))
	}
}

// The rules: threshold values, edition and storage type, upper bound against the storage (the
// actual size included) and the type's maximum.
func TestStorageAutoScaleRules(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name string
		edit func(*Desired)
		want RuleID
	}{
		{"threshold 15", func(c *Desired) { c.AutoScale.Want.Threshold = 15 }, RuleAutoScaleThreshold},
		{"Basic edition", func(c *Desired) { c.Category = Known("Basic") }, RuleAutoScaleUnsupported},
		{"local_ssd", func(c *Desired) { c.StorageType = Known("local_ssd") }, RuleAutoScaleUnsupported},
		{"upper bound below storage", func(c *Desired) { c.AutoScale.Want.UpperBound = 15 }, RuleAutoScaleUpperBelow},
		{"cloud_ssd above 6000 GB", func(c *Desired) { c.StorageType, c.AutoScale.Want.UpperBound = Known("cloud_ssd"), 6005 }, RuleAutoScaleUpperAbove},
		{"ESSD above 32000 GB", func(c *Desired) { c.AutoScale.Want.UpperBound = 32005 }, RuleAutoScaleUpperAbove},
	}
	for _, tc := range cases {
		c := programDesired()
		c.AutoScale.Want = rdsapi.StorageAutoScale{Enabled: true, Threshold: 30, UpperBound: 200}
		tc.edit(&c)
		d := Plan(PlanInput{Label: "new", Desired: c, Facts: Facts{Now: now}})
		if !hasRule(d.Errors(), tc.want) {
			t.Errorf("%s: errors %v, want %s", tc.name, ruleIDs(d.Errors()), tc.want)
		}
	}
	prior, desired := autoScaled(100, 300)
	desired.AutoScale.Want.UpperBound = 250 // above the configured floor, below the actual size
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); !hasRule(d.Errors(), RuleAutoScaleUpperBelow) {
		t.Fatalf("upper bound below the actual size: %v", ruleIDs(d.Problems))
	}
}

// An order for the window names no storage while autoscaling is on and the order leaves the disk
// as it is: the cloud may grow it before the window, and the order must not shrink it back
// (issue 39 item 3). A growth, or an instance without autoscaling, names the storage.
func TestWindowOrderStorage(t *testing.T) {
	t.Parallel()
	on := AutoScalePlan{Want: rdsapi.StorageAutoScale{Enabled: true, Threshold: 30, UpperBound: 500}}
	for _, tc := range []struct {
		name           string
		auto           AutoScalePlan
		prior, planned int64
		want           int64
	}{
		{"autoscaled, the disk as it is", on, 115, 100, 0},
		{"autoscaled, the disk as configured", on, 100, 100, 0},
		{"autoscaled, a growth", on, 100, 150, 150},
		{"no autoscaling", AutoScalePlan{}, 100, 100, 100},
	} {
		x := &executor{e: Execution{Plan: PlanInput{Prior: &ExistingInstance{Storage: tc.prior}, Desired: Desired{AutoScale: tc.auto}},
			TargetStorage: tc.planned}}
		if got := x.windowStorage(); got != tc.want {
			t.Errorf("%s: the order carries %d GB, want %d (0: not named)", tc.name, got, tc.want)
		}
	}
}
