package rdsservice

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Twins take different interrupted creates, never-returned ones first; plan and apply claim
// separately; one create too old refuses all.
func TestClaimInterruptedTwins(t *testing.T) {
	now := time.Now()
	returned := now.Add(-time.Minute)
	pending := []PendingCreate{
		{Entry: JournalEntry{Action: "CreateReadOnlyDBInstance", Started: now.Add(-3 * time.Minute), Returned: &returned, file: "a"}, ID: "rr-returned"},
		{Entry: JournalEntry{Action: "CreateReadOnlyDBInstance", Started: now.Add(-2 * time.Minute), file: "b"}, ID: "rr-b"},
		{Entry: JournalEntry{Action: "CreateReadOnlyDBInstance", Started: now.Add(-time.Minute), file: "c"}},
	}
	j, _ := openTwo(t, workDir(t), "default")
	var got []int
	for range 4 {
		i, reason := j.ClaimInterrupted(pending, "", false, now)
		if reason != "" {
			t.Fatalf("refused: %s", reason)
		}
		got = append(got, i)
	}
	if want := []int{1, 2, 0, -1}; !slices.Equal(got, want) {
		t.Fatalf("plan claims %v, want %v (never returned first, oldest first, then none)", got, want)
	}
	if i, _ := j.ClaimInterrupted(pending, "rr-returned", true, now); i != 0 {
		t.Fatalf("apply of a plan that showed rr-returned takes %d, want 0", i)
	}
	var applied []int
	for range 3 {
		i, _ := j.ClaimInterrupted(pending, "", true, now)
		applied = append(applied, i)
	}
	if want := []int{1, 2, -1}; !slices.Equal(applied, want) {
		t.Fatalf("apply claims %v, want %v (apart from the plan's claims, what is left in order, then none)", applied, want)
	}
	old := append([]PendingCreate{{Entry: JournalEntry{Action: "CreateReadOnlyDBInstance", Started: now.Add(-AdoptWindow - time.Hour), file: "d"}, ID: "rr-old"}}, pending...)
	if i, reason := j.ClaimInterrupted(old, "", false, now); i != -1 || !strings.Contains(reason, "rr-old was created at") {
		t.Fatalf("with a create older than %s: %d %q, want a refusal naming rr-old", AdoptWindow, i, reason)
	}
}
