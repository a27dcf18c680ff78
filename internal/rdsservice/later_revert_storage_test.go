package rdsservice

import (
	"testing"
	"time"
)

// Issue 39 §2, a later run that sets a change back: the disk grew at once (storage is never deferred) and
// autoscaling was turned on beside a toggle deferred to the window. Setting everything back turns autoscaling
// off below the disk: refused (storage would be the disk's size, and the state would say less than the disk);
// with storage known only at apply, the plan names that refusal as possible (issue 39 §3).
func TestAutoScaleOffBelowTheDiskIsRefused(t *testing.T) {
	t.Parallel()
	prior, desired := autoScaled(150, 150) // the floor as the first run configured it
	desired.Storage = Known(int64(100))
	desired.AutoScale.Want.Enabled = false
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
	if !hasRule(d.Errors(), RuleAutoScaleOffBelow) || findOp(d.Program, OpModifySpec) != nil {
		t.Fatalf("autoscaling off at 100 GB over a 150 GB disk: errors %v, warnings %v, program %v", ruleIDs(d.Errors()), ruleIDs(d.Warnings()), stepsOf(d.Program))
	}
	desired.Storage = Unknown[int64]()
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}}); !hasRule(d.Warnings(), RuleAutoScaleOffUnknown) || d.HasErrors() {
		t.Fatalf("autoscaling off, storage known only at apply: warnings %v, errors %v; want the refusal named as possible", ruleIDs(d.Warnings()), ruleIDs(d.Errors()))
	}
	desired.Storage = Known(int64(150))
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}}); d.HasErrors() {
		t.Fatalf("autoscaling off at the disk's size: %v", ruleIDs(d.Errors()))
	}
}

// The same set back with autoscaling kept on: storage is a floor, so the window's order leaves the disk as it
// is and carries the instance's own spec, which cancels the waiting toggle; scheduled_change is planned null,
// as the cloud then shows it, though the configured storage (100 GB) differs from the task's start (150 GB).
func TestRevertUnderAStorageFloorCancelsTheTask(t *testing.T) {
	t.Parallel()
	prior, desired := autoScaled(100, 150)
	desired.ApplyRestarts = ApplyRestartsInWindow
	spec := SpecValues{InstanceType: prior.InstanceClass, Storage: 150, StorageType: prior.StorageType, AtomicWriteSupport: true}
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now(), SpecChangePending: true,
		Pending: &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-07T02:00:00Z", Changes: []string{"atomic_write_16k changes from false to true"}}}}
	dec := Plan(in)
	requested := spec
	requested.Storage = 100 // the configured storage
	p := ProposedValues{Scheduled: ScheduledInputs{Recorded: true, From: &spec, Requested: requested, RequestedKnown: true}}
	if got := planValues(in, p, dec).ScheduledChange; got != ScheduledNone || dec.HasErrors() {
		t.Fatalf("scheduled_change planned %d (want %d, none), errors %v", got, ScheduledNone, ruleIDs(dec.Errors()))
	}
}
