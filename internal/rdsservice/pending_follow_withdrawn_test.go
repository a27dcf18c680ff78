package rdsservice

import (
	"slices"
	"testing"
)

// A plan that sets a waiting toggle back with a spec order names the read-only instances that were
// to follow it (eligible and off), and only then: no spec order, no toggle waiting, or a toggle
// still configured on withdraws nothing.
func TestWithdrawFollowsNamesTheReadOnlyInstances(t *testing.T) {
	toggle := &PendingChange{TaskID: "t-1", StartsAt: "2026-12-03T02:00:00Z", Changes: []string{"atomic_write_16k changes from false to true"}}
	readOnly := []ExistingInstance{{ID: "rr-1", Supported: true}, {ID: "rr-on", Enabled: true, Supported: true}, {ID: "rr-x86", Supported: false}}
	order := Program{Operations: []Operation{{Instance: "rm-1", Action: OpModifySpec, When: WhenInWindow, CancelsPending: true}}}
	for _, c := range []struct {
		name    string
		pending *PendingChange
		want16K Val[bool]
		program Program
		want    []string
	}{
		{"set back with an order", toggle, Known(false), order, []string{"rr-1"}},
		{"no order", toggle, Known(false), Program{}, nil},
		{"still on", toggle, Known(true), order, nil},
		{"nothing waiting", nil, Known(false), order, nil},
	} {
		in := PlanInput{Label: "rm-1", Prior: &ExistingInstance{ID: "rm-1"}, Facts: Facts{Pending: c.pending, ReadOnly: readOnly}}
		in.Desired.AtomicWrite = c.want16K
		d := Decision{Program: c.program}
		withdrawFollows(in, &d)
		warned := slices.ContainsFunc(d.Problems, func(p Problem) bool { return p.Rule == RuleFollowWithdrawn })
		if !slices.Equal(d.FollowsWithdrawn, c.want) || warned != (len(c.want) > 0) {
			t.Errorf("%s: withdrawn %v (warned %t), want %v", c.name, d.FollowsWithdrawn, warned, c.want)
		}
	}
}
