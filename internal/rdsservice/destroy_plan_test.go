package rdsservice

import (
	"context"
	"testing"
)

// The destroy plan of a read-only instance records its release in the run's ledger and warns when
// this run's plan of its primary named it as restarting with the primary; an unconfigured provider
// (no ledger, no API) plans it from the state alone.
func TestPlanInstanceDestroyRecordsTheRelease(t *testing.T) {
	var l Ledger
	l.RecordFollowers("rm-p", []string{"rr-1"})
	req := DestroyRequest{InstanceID: "rr-1", MasterID: "rm-p", ReadOnly: true}
	out := PlanInstanceDestroy(context.Background(), Env{Ledger: &l}, req)
	if !l.Released("rr-1") {
		t.Error("the release is not recorded for the primary's plan")
	}
	if len(out.Problems) == 0 || out.Problems[0].Rule != RuleReadOnlyReleasedFirst || len(out.ReadFailures) != 0 {
		t.Errorf("problems %+v, want %s first", out.Problems, RuleReadOnlyReleasedFirst)
	}
	other := PlanInstanceDestroy(context.Background(), Env{Ledger: &l}, DestroyRequest{InstanceID: "rr-2", MasterID: "rm-p", ReadOnly: true})
	for _, p := range other.Problems {
		if p.Rule == RuleReadOnlyReleasedFirst {
			t.Errorf("a read-only instance the primary's plan did not name: %+v", p)
		}
	}
	unconfigured := PlanInstanceDestroy(context.Background(), Env{}, DestroyRequest{InstanceID: "rm-q", ReadOnlyInstances: []string{"rr-9"}})
	if len(unconfigured.ReadFailures) != 0 || len(unconfigured.Problems) == 0 {
		t.Errorf("unconfigured: %+v, want the program's messages without reads", unconfigured)
	}
	primary := PlanInstanceDestroy(context.Background(), Env{Ledger: &l}, DestroyRequest{InstanceID: "rm-p"})
	if l.Released("rm-p") || len(primary.ReadFailures) != 0 {
		t.Errorf("a primary's destroy is recorded as a read-only release: %+v", primary)
	}
}
