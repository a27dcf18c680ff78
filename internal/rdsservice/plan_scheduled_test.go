package rdsservice

import "testing"

func TestPlannedScheduledChange(t *testing.T) {
	from := &SpecValues{InstanceType: "mysql.n2.small.2c", Storage: 100}
	back := SpecValues{InstanceType: "mysql.n2.small.2c", Storage: 100, Category: "HighAvailability"}
	other := SpecValues{InstanceType: "mysql.n2.large.2c", Storage: 100}
	for _, c := range []struct {
		name string
		dec  Decision
		in   ScheduledInputs
		want ScheduledChange
	}{
		{"deferred", Decision{Deferred: true}, ScheduledInputs{}, ScheduledUnknown},
		{"restart now", Decision{Restarts: []Restart{{When: ""}}}, ScheduledInputs{Recorded: true}, ScheduledNone},
		{"restart in window", Decision{Restarts: []Restart{{When: "in the maintenance window 02:00Z-03:00Z"}}}, ScheduledInputs{Recorded: true}, ScheduledKept},
		{"back to the spec before the task", Decision{}, ScheduledInputs{Recorded: true, From: from, Requested: back, RequestedKnown: true}, ScheduledNone},
		{"back to the spec before the task, the architecture not recorded", Decision{}, ScheduledInputs{Recorded: true, From: from,
			Requested: SpecValues{InstanceType: "mysql.n2.small.2c", Storage: 100, Architecture: "x86"}, RequestedKnown: true}, ScheduledNone},
		{"class unknown", Decision{}, ScheduledInputs{Recorded: true, From: from, Requested: back}, ScheduledKept},
		{"spec known only at apply (issue 39 §3)", Decision{}, ScheduledInputs{SpecUnknown: true}, ScheduledUnknown},
		{"spec known only at apply, task recorded", Decision{}, ScheduledInputs{Recorded: true, From: from, Requested: back, RequestedKnown: true, SpecUnknown: true}, ScheduledUnknown},
		{"the task's target", Decision{}, ScheduledInputs{Recorded: true, From: from, Requested: other, RequestedKnown: true}, ScheduledKept},
		// Autoscaling grew the disk after the task was ordered: the configuration set back names the old
		// storage, and the program's order for the window keeps the disk and cancels the task.
		{"a cancel order, the disk grown since", Decision{Program: Program{Operations: []Operation{{Action: OpModifySpec, CancelsPending: true}}}},
			ScheduledInputs{Recorded: true, From: &SpecValues{InstanceType: "mysql.n2.small.2c", Storage: 150}, Requested: back, RequestedKnown: true}, ScheduledNone},
		{"a cancel order beside parameters still waiting", Decision{Program: Program{Operations: []Operation{{Action: OpModifySpec, CancelsPending: true}}},
			Parameters: ParameterDecision{Pending: map[string]string{"a": "1"}}}, ScheduledInputs{Recorded: true}, ScheduledKept},
		{"parameters sent while pending", Decision{Parameters: ParameterDecision{ParameterPlan: ParameterPlan{Send: map[string]string{"a": "1"}}}},
			ScheduledInputs{Recorded: true}, ScheduledUnknown},
		{"parameters sent, nothing pending", Decision{Parameters: ParameterDecision{ParameterPlan: ParameterPlan{Send: map[string]string{"a": "1"}}}},
			ScheduledInputs{}, ScheduledKept},
	} {
		if got := PlannedScheduledChange(c.dec, c.in); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
