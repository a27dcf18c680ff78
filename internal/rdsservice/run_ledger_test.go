package rdsservice

import (
	"sync"
	"testing"
)

func TestLedgerPrimaryPlans(t *testing.T) {
	var l Ledger
	if got := l.Primary("rm-1"); !got.AtomicWrite.IsNull() || got.Scheduled != nil {
		t.Fatalf("unplanned primary: %+v", got)
	}
	l.RecordPrimary("", PrimaryPlan{AtomicWrite: Known(true)})
	if !l.Primary("").AtomicWrite.IsNull() {
		t.Fatal("a primary without id was recorded")
	}
	l.RecordPrimary("rm-1", PrimaryPlan{AtomicWrite: Known(true), Storage: Known[int64](100), ReplacesTask: true})
	got := l.Primary("rm-1")
	if !got.AtomicWrite.Is(true) || !got.Storage.Is(100) || !got.ReplacesTask || l.Primary("rm-2").ReplacesTask {
		t.Fatalf("recorded plan: %+v", got)
	}
	if l.Replaced("rm-1") != nil {
		t.Fatal("an in-place plan reads as a replacement")
	}
	l.RecordReplaced("rm-3", Unknown[int64]())
	if r := l.Replaced("rm-3"); r == nil || r.ID != "rm-3" || !r.Storage.IsUnknown() {
		t.Fatalf("replacement: %+v", r)
	}
}

func TestLedgerSets(t *testing.T) {
	var l Ledger
	l.RecordReleased("rr-1")
	l.RecordPendingTask("rm-1")
	l.RecordFollowers("rm-1", []string{"rr-1", "rr-2"})
	if !l.Released("rr-1") || l.Released("rm-1") || !l.PendingTask("rm-1") || l.PendingTask("rr-1") {
		t.Fatal("sets mixed up")
	}
	if !l.Follows("rm-1", "rr-2") || l.Follows("rr-2", "rm-1") || l.Follows("rm-2", "rr-1") {
		t.Fatal("followers are pairs of primary and read-only instance")
	}
}

// TestLedgerConcurrent runs the plans of one run at once, as Terraform does (go test -race).
func TestLedgerConcurrent(t *testing.T) {
	var l Ledger
	var wg sync.WaitGroup
	for _, id := range []string{"a", "b", "c", "d"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.RecordPrimary(id, PrimaryPlan{AtomicWrite: Known(true)})
			l.RecordReleased(id)
			l.RecordFollowers(id, []string{id})
			_ = l.Primary(id).AtomicWrite.IsKnown() && l.Released(id) && l.Follows(id, id)
		}()
	}
	wg.Wait()
	for _, id := range []string{"a", "b", "c", "d"} {
		if !l.Primary(id).AtomicWrite.Is(true) || !l.Released(id) || !l.Follows(id, id) {
			t.Fatalf("%s lost", id)
		}
	}
}
