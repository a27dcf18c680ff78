package rdsservice

import (
	"cmp"
	"fmt"
	"sort"
	"time"
)

// Twins (issue 41, item 19): resources of one block with identical arguments (a `count` or
// `for_each` whose arguments do not use the index or key) have one configuration key, so an apply
// killed while it created them leaves interrupted creates that any of them may take: they are
// interchangeable. Each resource about to be created takes the oldest one no twin of this process
// took yet, and the re-run converges; resources whose configurations differ have different keys
// and never see each other's creates.

// PendingCreate is an interrupted create whose object may exist: ID is the live object, or ""
// when the create never got an answer and only a resend of its token can find it.
type PendingCreate struct {
	Entry JournalEntry
	ID    string
}

// ClaimInterrupted chooses, among the pending creates of one configuration (oldest first), the
// one this resource takes: its index, or -1 to create a new object. planned is the id the plan
// showed for the resource (at apply; "" when it showed none). reason is set instead when an
// interrupted create is too old to be taken over by anyone: the create must not run.
func (j *CreateJournal) ClaimInterrupted(pending []PendingCreate, planned string, atApply bool, now time.Time) (index int, reason string) {
	for _, p := range pending {
		if now.Sub(p.Entry.Started) > AdoptWindow {
			return -1, fmt.Sprintf("%s was created at %s, more than %s ago: someone may have taken it over meanwhile",
				cmp.Or(p.ID, "an unanswered "+p.Entry.Action), p.Entry.Started.Format(time.RFC3339), AdoptWindow)
		}
	}
	if j == nil {
		return -1, ""
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.claimed == nil {
		j.claimed = map[bool]map[string]bool{false: {}, true: {}}
	}
	taken := j.claimed[atApply]
	for _, i := range twinOrder(pending) {
		p := pending[i]
		if taken[p.Entry.file] || !takes(p, planned, atApply) {
			continue
		}
		taken[p.Entry.file] = true
		return i, ""
	}
	return -1, ""
}

// takes reports whether a resource may take p: any, except at apply for a plan that showed an id
// (an earlier version's plan), which takes that object only.
func takes(p PendingCreate, planned string, atApply bool) bool {
	return !atApply || planned == "" || p.ID == planned
}

// twinOrder is the order in which pending creates are taken: those whose create never returned
// first (no state can name their object), then those that returned (a kill in the instant before
// Terraform wrote the state lost them), each oldest first.
func twinOrder(pending []PendingCreate) []int {
	order := make([]int, len(pending))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return pending[order[a]].Entry.Returned == nil && pending[order[b]].Entry.Returned != nil
	})
	return order
}
